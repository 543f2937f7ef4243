#!/usr/bin/env bash
# A tree of one's own as it is (KSRC= without PATCHES=1) lacks the options
# of our patches: the profiles are built without the fragments that ask
# for them (reliance, emulate, inline), the profile that boots the v4.19
# emulation is refused up front, naming the option, and the guest's
# rcu-reliance gets a stand-in that skips, naming it; with PATCHES=1 the
# tree has what its series adds (6.1's: all but 0007's inlined reader).
# A tree whose BPF_PROG_TEST_RUN live frames lack upstream 294635a8165a
# (6.1.192 as it is) gets a stand-in for xdp-teardown, naming the fix.
# shellcheck disable=SC2016 # expanded by the shell that sources lib.sh
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/ksrc/kernel/rcu"
printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\n' >"$t/ksrc/Makefile"
touch "$t/ksrc/kernel/rcu/Kconfig"

# in_ksrc PATCHES CMD: CMD run by a shell that sourced lib.sh for the tree.
in_ksrc() {
	env -u RCUVET_TREE -u TREE -u RCUVET_SERIES BUILD="$t/build" KSRC="$t/ksrc" PATCHES="$1" \
		bash -c ". \"\$1\"; $2" sh "$root/scripts/lib.sh"
}

got=$(in_ksrc 0 'load_profile debug; fragments_used left')
[ "$got" = "reliance emulate inline" ] || echo "unpatched, debug leaves out: '$got'"
got=$(in_ksrc 1 'load_profile debug; fragments_used left')
[ "$got" = inline ] || echo "PATCHES=1 (6.1's series, without 0007), debug leaves out: '$got'"

in_ksrc 0 '"$RCUVET_ROOT/scripts/validate.sh" -p "debug nopreempt debug-rt" -P run' >"$t/out" 2>&1 ||
	echo "unpatched: debug, nopreempt, debug-rt refused: $(cat "$t/out")"
if in_ksrc 0 '"$RCUVET_ROOT/scripts/validate.sh" -p emulate-4.19' >"$t/out" 2>&1; then
	echo "unpatched: emulate-4.19 accepted"
fi
grep -q "emulate-4.19.*need CONFIG_RCU_EMULATE_UNCONSOLIDATED.*PATCHES=1" "$t/out" ||
	echo "unpatched, emulate-4.19: $(cat "$t/out")"
in_ksrc 1 '"$RCUVET_ROOT/scripts/validate.sh" -p emulate-4.19' >"$t/out" 2>&1 ||
	echo "PATCHES=1: emulate-4.19 refused: $(cat "$t/out")"

# stand_ins_of PATCHES CONFIG_LINE [PROBE...]: stand_ins for a debug
# kernel whose .config holds CONFIG_LINE and whose tree's probe
# (tree-api/rcuvet_tree_api.h) found each PROBE and no other; no probe
# file at all without PROBEs.
stand_ins_of() {
	local p=$1 c=$2 probes=''

	shift 2
	for name; do
		probes+="#define RCUVET_HAVE_$name 1\n"
	done
	in_ksrc "$p" "load_profile debug; mkdir -p \"\$KOBJ\" \"\$OBJ/tree-api\"
		echo '$c' >\"\$KOBJ/.config\"; rm -f \"\$OBJ/tree-api/rcuvet_tree_api.h\"
		[ -z '$probes' ] || printf '$probes' >\"\$OBJ/tree-api/rcuvet_tree_api.h\"; stand_ins"
}
got=$(stand_ins_of 0 'CONFIG_RCU_EXPERT=y' XDP_LIVE_FRAMES)
case $got in
"rcu-reliance not in this kernel: tree ksrc-"*" has no CONFIG_RCU_CONSOLIDATION_RELIANCE (kernel/patches/0002-*)"$'\n'"xdp-teardown not on this tree: it lacks upstream 294635a8165a "*) ;;
*) echo "unpatched stand-ins: '$got'" ;;
esac
got=$(stand_ins_of 0 'CONFIG_RCU_CONSOLIDATION_RELIANCE=y' XDP_LIVE_FRAMES XDP_LIVE_FRAME_AT_HARD_START)
[ -z "$got" ] || echo "option on, live frames fixed: '$got'"
got=$(stand_ins_of 0 'CONFIG_RCU_CONSOLIDATION_RELIANCE=y' KUNIT_ADD_ACTION)
[ "$got" = "xdp-teardown not on this tree: BPF_PROG_TEST_RUN has no live frames (v5.18), the stress's traffic" ] ||
	echo "no live frames: '$got'"
got=$(stand_ins_of 0 'CONFIG_RCU_CONSOLIDATION_RELIANCE=y')
[ -z "$got" ] || echo "no probe (a profile without our suites): '$got'"
got=$(stand_ins_of 1 'CONFIG_RCU_EXPERT=y' | head -1)
[ "$got" = "rcu-reliance not in this kernel: profile debug builds it without CONFIG_RCU_CONSOLIDATION_RELIANCE" ] ||
	echo "PATCHES=1, option off: '$got'"


# A stand-in is the same file at every run, time stamp included (6.1's
# gen_init_cpio packs it): else every boot of the tree misses the cache.
in_ksrc 0 'load_profile debug; mkdir -p "$OBJ"; stand_in xdp-teardown "a reason" >/dev/null; stat -c %Y "$OBJ/stand-in/xdp-teardown"' >"$t/out" 2>&1
[ "$(cat "$t/out")" = 0 ] || echo "stand-in's time stamp: $(cat "$t/out")"
if in_ksrc 0 'load_profile debug; stand_in x "a \"quoted\" reason"' >"$t/out" 2>&1; then
	echo "a reason with a quote was taken"
fi
