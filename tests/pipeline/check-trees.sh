#!/usr/bin/env bash
# make check's other trees (CHECK_TREES, lib.sh): by default Debian 12's
# 6.1 on nopreempt beside 6.12's debug and debug-rt; TREE:PROFILE boots
# PROFILE, a bare TREE the first profile; "none" boots no other tree, and
# neither does a run on KSRC= or TREE=6.1.
set -u
lib=$(dirname "$0")/../../scripts/lib.sh
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
# shellcheck disable=SC2016 # expanded by the shell that sources lib.sh
show='. "$1"; printf "%s|" "$CHECK_PROFILES"; check_tree_runs debug | paste -sd,'
# runs VAR=VALUE...: what lib.sh makes of them.
runs() {
	env -u RCUVET_TREE -u TREE -u KSRC -u PROFILES -u CHECK_TREES BUILD="$t" "$@" \
		bash -c "$show" sh "$lib"
}
got=$(runs)
[ "$got" = "debug debug-rt|6.1 nopreempt" ] || echo "default: $got"
got=$(runs CHECK_TREES=none)
[ "$got" = "debug debug-rt|" ] || echo "CHECK_TREES=none: $got"
got=$(runs CHECK_TREES=6.1)
[ "$got" = "debug debug-rt|6.1 debug" ] || echo "CHECK_TREES=6.1: $got"
got=$(runs CHECK_TREES="6.1:debug 6.1:nopreempt" PROFILES="debug nopreempt")
[ "$got" = "debug nopreempt|6.1 debug,6.1 nopreempt" ] || echo "two runs of 6.1: $got"
got=$(runs TREE=6.1)
[ "$got" = "debug debug-rt|" ] || echo "TREE=6.1 boots another tree: $got"
mkdir -p "$t/ksrc/kernel/rcu" && touch "$t/ksrc/Makefile"
got=$(runs KSRC="$t/ksrc")
[ "$got" = "debug debug-rt|" ] || echo "KSRC= boots another tree: $got"
