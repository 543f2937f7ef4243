#!/usr/bin/env bash
# make check's other trees (CHECK_TREES, lib.sh): by default Debian 12's
# 6.1 on nopreempt beside 6.12's debug and debug-rt; TREE:PROFILE boots
# PROFILE, a bare TREE the first profile; "none" boots no other tree, in
# a script that a script runs too; KSRC= and TREE=6.1 boot no other tree
# but all three preemption models; a run that cannot be is refused, named.
set -u
lib=$(dirname "$0")/../../scripts/lib.sh
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
# shellcheck disable=SC2016 # expanded by the shell that sources lib.sh
show='. "$1"; printf "%s|" "$CHECK_PROFILES"; check_tree_runs debug r; printf "%s\n" "${r[@]}" | paste -sd,'
# runs VAR=VALUE...: what lib.sh makes of them.
runs() {
	env -u RCUVET_TREE -u TREE -u KSRC -u PROFILES -u CHECK_TREES BUILD="$t" "$@" \
		bash -c "$show" sh "$lib" 2>&1
}
# expect WANT VAR=VALUE...: lib.sh makes WANT of them.
expect() {
	local got

	got=$(runs "${@:2}")
	[ "$got" = "$1" ] || echo "${*:2}: '$got', not '$1'"
}
expect "debug debug-rt|6.1 nopreempt"
expect "debug debug-rt|6.1 nopreempt" CHECK_TREES=
expect "debug debug-rt|" CHECK_TREES=none
expect "debug debug-rt|6.1 debug" CHECK_TREES=6.1
expect "debug nopreempt|6.1 debug,6.1 nopreempt" CHECK_TREES="6.1:debug 6.1:nopreempt" \
	PROFILES="debug nopreempt"
expect "debug nopreempt debug-rt|" TREE=6.1
mkdir -p "$t/ksrc/kernel/rcu" && touch "$t/ksrc/Makefile"
expect "debug nopreempt debug-rt|" KSRC="$t/ksrc"
# A script that a script runs (lava.sh runs check.sh) keeps "none".
got=$(env -u RCUVET_TREE -u TREE -u KSRC BUILD="$t" CHECK_TREES=none bash -c \
	'. "$1"; bash -c "$2" sh "$1"' sh "$lib" "$show" 2>&1)
[ "$got" = "debug debug-rt|" ] || echo "CHECK_TREES=none, one script in another: '$got'"
for bad in 6.12:nopreempt 6.1: "6.1:nopreempt 6.1:nopreempt"; do
	got=$(runs CHECK_TREES="$bad")
	case $got in
	*"rcuvet: error: CHECK_TREES: '${bad%% *}'"*) ;;
	*) echo "CHECK_TREES=$bad was not refused by name: '$got'" ;;
	esac
done
