#!/usr/bin/env bash
# make bench leaves the -noinline profiles out where the tree has no
# CONFIG_RCU_INLINE_READ_LOCK to turn off (scripts/bench-lib.sh's
# inline_option): a series whose patch adds the option has it, one
# without does not (TREE=6.1's, as it is); KSRC has it if its own
# kernel/rcu/Kconfig does, and with PATCHES=1 also if the series does.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
# make exports TREE, which lib.sh then sets to the tree's folder.
unset KSRC PATCHES RCUVET_SERIES RCUVET_TREE TREE

mkdir -p "$t/with" "$t/without" "$t/ksrc/kernel/rcu"
printf '0006-rcu-inline.patch\n' >"$t/with/series"
printf '%s\n' '--- a/kernel/rcu/Kconfig' '+++ b/kernel/rcu/Kconfig' '@@ -1,1 +1,2 @@' \
	'+config RCU_INLINE_READ_LOCK' '+	bool' >"$t/with/0006-rcu-inline.patch"
printf '0001-other.patch\n' >"$t/without/series"
printf '%s\n' '--- a/kernel/rcu/Kconfig' '+++ b/kernel/rcu/Kconfig' '@@ -1,1 +1,2 @@' \
	'+config RCU_INLINE_READ_LOCK_NOT' '+# config RCU_INLINE_READ_LOCK' >"$t/without/0001-other.patch"
touch "$t/ksrc/Makefile"
printf 'config RCU_EXPERT\n\tbool\n' >"$t/ksrc/kernel/rcu/Kconfig"

# has ENV...: "yes" if inline_option holds with ENV set, else "no".
has() {
	# shellcheck disable=SC2016 # expanded by the inner shell
	env "$@" BUILD="$t/build" bash -c '
		. "$1/scripts/lib.sh"
		. "$1/scripts/bench-lib.sh"
		if inline_option; then echo yes; else echo no; fi' - "$root" 2>&1
}

[ "$(has RCUVET_SERIES="$t/with/series")" = yes ] || echo "a series that adds the option does not have it"
[ "$(has RCUVET_SERIES="$t/without/series")" = no ] || echo "a series without the option has it"
[ "$(has TREE=6.1)" = no ] || echo "TREE=6.1's series has the option"
[ "$(has KSRC="$t/ksrc" RCUVET_SERIES="$t/with/series")" = no ] ||
	echo "KSRC without the option, unpatched, has it from the series"
[ "$(has KSRC="$t/ksrc" PATCHES=1 RCUVET_SERIES="$t/with/series")" = yes ] ||
	echo "KSRC with PATCHES=1 and a series that adds the option does not have it"
printf 'config RCU_INLINE_READ_LOCK\n\tbool\n' >>"$t/ksrc/kernel/rcu/Kconfig"
[ "$(has KSRC="$t/ksrc" RCUVET_SERIES="$t/without/series")" = yes ] ||
	echo "KSRC whose own Kconfig has the option does not have it"
exit 0
