#!/usr/bin/env bash
# The rcutorture kselftest of kernel/patches/0004-* (rcutorture-smoke.sh)
# judges each torture type by the kernel log of its run: SUCCESS passes;
# FAILURE, a "!!!" line, a splat or no "End of test" fails; a type the
# kernel lacks is skipped, and so is the whole test without root or
# without a loadable rcutorture; a splat before the run, or a diagnostic
# that a harness copied into the log, counts for nothing.  The script
# runs under bash and under busybox sh (rcuvet's guest) against stub
# modprobe, insmod, rmmod, dmesg, sleep and id that play canned
# rcutorture logs.  busybox sh runs its own applets before any command
# on PATH, so the stubs are shell functions and the script is sourced;
# it runs in a user and mount namespace whose /dev/kmsg is a file, where
# nothing can reach the host's kernel even if a stub were bypassed.
# An argument names another rcutorture-smoke.sh to test (to check that
# this test fails on a broken one).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
K=$t/kernel
S=$t/stubs
sel=$t/selftests
mkdir -p "$K" "$S" "$sel/rcutorture" "$sel/kselftest"

script=$sel/rcutorture/rcutorture-smoke.sh
if [ $# -gt 0 ]; then
	cp "$1" "$script"
else
	# The new file, as the patch adds it.
	awk '/^\+\+\+ b\/tools\/testing\/selftests\/rcutorture\/rcutorture-smoke\.sh$/ { f = 1; next }
		f && /^@@/ { next }
		f && /^\+/ { print substr($0, 2); next }
		f { exit }' "$root"/kernel/patches/0004-*.patch >"$script"
fi
[ -s "$script" ] || { echo "no rcutorture-smoke.sh in kernel/patches/0004-*.patch"; exit 0; }

# ktap_helpers.sh, which the script sources, from the 6.12 tree.
. "$root/tests/lib/tree-files.sh"
helpers=tools/testing/selftests/kselftest/ktap_helpers.sh
src=$(tree_dir)
[ -z "$src" ] || cp "$src/$helpers" "$sel/kselftest/"
[ -s "$sel/kselftest/ktap_helpers.sh" ] ||
	{ echo "no $helpers: neither a pristine 6.12 tree nor /usr/src/linux-source-6.12.tar.xz"; exit 0; }

# The stub kernel: $K/log is its log, $K/kmsg what the script last wrote
# to /dev/kmsg (each stub appends it to the log first); $K/types the
# torture types rcutorture has (no file: no rcutorture to load),
# $K/start-TYPE and $K/end-TYPE what a run of TYPE logs at load and at
# rmmod; $K/calls the stub commands run.
cat >"$S/klog" <<'EOF'
# Sourced by the stubs (sh, for speed): klog appends the lines of stdin
# to the kernel log, with timestamps; what /dev/kmsg got comes first.
K=$STUB_KERNEL
klog() {
	read -r n <"$K/clock" || n=1000
	while IFS= read -r line; do
		n=$((n + 1))
		printf '[%6d.%06d] %s\n' $((n / 100)) $((n % 100 * 10000)) "$line" >>"$K/log"
	done
	echo "$n" >"$K/clock"
}
# $K/replay: the log already held each line written, and a splat after it.
if [ -f "$K/replay" ] && [ -s "$K/kmsg" ]; then
	{ cat "$K/kmsg"; echo "WARNING: CPU: 1 PID: 9 at kernel/rcu/rcutorture.c:1 an earlier run"; } | klog
fi
klog <"$K/kmsg"
: >"$K/kmsg"
echo "${0##*/} $*" >>"$K/calls"
EOF
cat >"$S/load" <<'EOF'
#!/bin/sh
. "${0%/*}/klog"
cmd=$1
shift
type=
for a in "$@"; do
	case $a in torture_type=*) type=${a#*=} ;; esac
done
[ -f "$K/types" ] || { echo "$cmd: FATAL: Module rcutorture not found in directory /lib/modules/6.12.118" >&2; exit 1; }
[ ! -f "$K/builtin" ] || exit 0
if [ -f "$K/busy" ]; then
	printf '%s\n' "torture_init_begin: Refusing $type init: lock running." \
		"torture_init_begin: One torture test at a time!" | klog
	echo "$cmd: ERROR: could not insert 'rcutorture': Device or resource busy" >&2
	exit 1
fi
echo "torture module --- $type:  disable_onoff_at_boot=0 ftrace_dump_at_shutdown=0 verbose_sleep_frequency=0 verbose_sleep_duration=1 random_shuffle=0" | klog
read -r types <"$K/types"
case " $types " in
*" $type "*) ;;
*)
	printf '%s\n' "rcu-torture: invalid torture type: \"$type\"" "rcu-torture types: $types" | klog
	echo "$cmd: ERROR: could not insert 'rcutorture': Invalid argument" >&2
	exit 1
	;;
esac
echo "$type-torture:--- Start of test: nreaders=1 nfakewriters=4 stat_interval=15 verbose=1" | klog
[ ! -f "$K/start-$type" ] || klog <"$K/start-$type"
echo "$type" >"$K/loaded"
EOF
cat >"$S/rmmod" <<'EOF'
#!/bin/sh
. "${0%/*}/klog"
[ -f "$K/loaded" ] || { echo "rmmod: ERROR: Module rcutorture is not currently loaded" >&2; exit 1; }
[ ! -f "$K/rmmod-fails" ] || { echo "rmmod: ERROR: could not remove 'rcutorture': Device or resource busy" >&2; exit 1; }
# A hung rmmod returns (and fails) only once the test removes rmmod-hangs,
# and touches the kernel no more.
if [ -f "$K/rmmod-hangs" ]; then
	while [ -f "$K/rmmod-hangs" ]; do /bin/sleep 0.05; done
	exit 1
fi
read -r type <"$K/loaded"
if [ -f "$K/end-$type" ]; then
	klog <"$K/end-$type"
else
	printf '%s\n' "$type-torture: rtc: 000000003a5c1e2f ver: 812 tfle: 0 rta: 813 rtaf: 0 rtf: 803 rtmbe: 0 rtmbkf: 0/0 rtbe: 0 rtbke: 0 rtbf: 0 rtb: 0 nt: 1563 barrier: 0/0:0 read-exits: 16 nocb-toggles: 0:0" \
		"$type-torture: Reader Pipe:  350211 133 0 0 0 0 0 0 0 0 0" \
		"$type-torture: Reader Batch:  349000 1344 0 0 0 0 0 0 0 0 0" \
		"$type-torture: Free-Block Circulation:  812 811 810 809 808 807 806 805 804 803 0" \
		"$type-torture:--- End of test: SUCCESS: nreaders=1 nfakewriters=4 stat_interval=15 verbose=1" | klog
fi
rm -f "$K/loaded"
EOF
cat >"$S/dmesg" <<'EOF'
#!/bin/sh
. "${0%/*}/klog"
if [ -f "$K/ring" ]; then tail -n "$(cat "$K/ring")" "$K/log"; else cat "$K/log"; fi
EOF
cat >"$S/sleep" <<'EOF'
#!/bin/sh
. "${0%/*}/klog"
EOF
cat >"$S/id" <<'EOF'
#!/bin/sh
. "${0%/*}/klog"
if [ -f "$K/nonroot" ]; then echo 1000; else echo 0; fi
EOF
chmod +x "$S"/*
cat >"$S/functions" <<EOF
# Sourced by the shell under test: every command that reaches the kernel.
modprobe() { "$S/load" modprobe "\$@"; }
insmod() { "$S/load" insmod "\$@"; }
rmmod() { "$S/rmmod" "\$@"; }
dmesg() { "$S/dmesg" "\$@"; }
# The script waits for its background rmmod in turns of "sleep 1": the
# turn waits for that rmmod (the shell's only job) to end, so that no
# turn can outrun it, unless the test makes rmmod hang.
sleep() { [ "\$1" != 1 ] || [ -f "$K/rmmod-hangs" ] || wait; "$S/sleep" "\$@"; }
id() { "$S/id" "\$@"; }
EOF

if ! unshare -rm true 2>"$t/err"; then
	echo "cannot make a user and mount namespace to run the kselftest in: $(cat "$t/err")"
	exit 0
fi

# kernel TYPES: a fresh stub kernel whose rcutorture has TYPES ("" for
# none), with a boot-time splat in its log.
kernel() {
	rm -rf "$K"
	mkdir -p "$K"
	: >"$K/kmsg"
	echo 1000 >"$K/clock"
	[ -z "$1" ] || echo "$1" >"$K/types"
	printf '%s\n' "Linux version 6.12.118" "WARNING: CPU: 0 PID: 1 at init/main.c:1 boot+0x1/0x2" >"$K/kmsg"
	STUB_KERNEL=$K "$S/sleep"
	: >"$K/calls"
}

# smoke SHELL ARGS...: run the script under SHELL ("bash" or "busybox
# sh"); its output in $t/out, its exit status in $rc.
smoke() {
	local sh=$1

	shift
	rc=0
	# shellcheck disable=SC2016,SC2086 # $1: the namespace's; $sh: words
	STUB_KERNEL=$K unshare -rm sh -c 'mount --bind "$1" /dev/kmsg && shift && exec "$@"' sh "$K/kmsg" \
		$sh -c '. "$1"; shift; . "$0"' "$script" "$S/functions" "$@" >"$t/out" 2>&1 || rc=$?
}

# expect WHAT STATUS LINE...: the last run exited STATUS and printed each
# LINE (a line ending in "*": a line starting so).
expect() {
	local what=$1 status=$2 line

	shift 2
	[ "$rc" = "$status" ] || echo "$sh: $what: exit status $rc, not $status"
	for line in "$@"; do
		case $line in
		*'*') awk -v p="${line%\*}" 'index($0, p) == 1 { f = 1 } END { exit !f }' "$t/out" ;;
		*) grep -qxF -- "$line" "$t/out" ;;
		esac || echo "$sh: $what: no line '$line' in: $(paste -sd'|' "$t/out")"
	done
}

types="rcu busted srcu srcud busted_srcud tasks tasks-tracing trivial"
for sh in bash "busybox sh"; do
	# Every default type passes but tasks-rude, which this kernel lacks;
	# a splat before the run and a diagnostic copied into the log are
	# none of the run's.
	kernel "$types"
	echo "# busted: WARNING: CPU: 0 PID: 83 at kernel/rcu/rcutorture.c:2262" >"$K/start-srcu"
	smoke "$sh"
	expect "default types" 0 "TAP version 13" \
		"# torture types of this kernel: $types" "1..6" \
		"ok 1 rcu" "ok 2 srcu" "ok 3 srcud" "ok 4 tasks" \
		"# tasks-rude: not in this kernel" "ok 5 tasks-rude # SKIP" "ok 6 tasks-tracing" \
		"# Totals: pass:5 fail:0 xfail:0 xpass:0 skip:1 error:0"
	grep -qx "load modprobe rcutorture torture_type=rcu stat_interval=15 stutter=0" "$K/calls" ||
		echo "$sh: default types: rcu not loaded with modprobe, stat_interval=15 and stutter=0: $(paste -sd'|' "$K/calls")"
	[ "$(grep -cx 'sleep 10' "$K/calls")" = 5 ] ||
		echo "$sh: default types: not five runs of 10 s: $(paste -sd'|' "$K/calls")"
	[ ! -f "$K/loaded" ] || echo "$sh: default types: rcutorture left loaded"

	# The busted flavor, the control: its FAILURE, "!!!" and WARN.
	kernel "$types"
	printf '%s\n' \
		"busted-torture: rtc: 00000000c0ffee00 ver: 2045 tfle: 0 rta: 2046 rtaf: 0 rtf: 2036 rtmbe: 0 rtmbkf: 0/0 rtbe: 0 rtbke: 0" \
		"busted-torture: !!! Reader Pipe:  1650333 41352 3 0 0 0 0 0 0 0 0" \
		"------------[ cut here ]------------" \
		"WARNING: CPU: 0 PID: 83 at kernel/rcu/rcutorture.c:2262 rcu_torture_stats_print+0x53e/0x6d0 [rcutorture]" \
		"Call Trace:" \
		" <TASK>" \
		" </TASK>" \
		"---[ end trace 0000000000000000 ]---" \
		"busted-torture:--- End of test: FAILURE: nreaders=1 nfakewriters=4 stat_interval=15 verbose=1" >"$K/end-busted"
	smoke "$sh" -t busted -d 3
	expect "busted" 1 "1..1" "not ok 1 busted" \
		"# busted: busted-torture: !!! Reader Pipe:  1650333 41352 3 0 0 0 0 0 0 0 0" \
		"# busted: WARNING: CPU: 0 PID: 83 at kernel/rcu/rcutorture.c:2262 rcu_torture_stats_print+0x53e/0x6d0 [rcutorture]" \
		"# busted: Call Trace:" "# busted: End of test: FAILURE" \
		"# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0"
	grep -qx "sleep 3" "$K/calls" || echo "$sh: busted: -d 3 did not run it 3 s: $(paste -sd'|' "$K/calls")"

	# Each of rcutorture's failures alone fails the type.
	end="rcu-torture:--- End of test: SUCCESS: nreaders=1"
	while IFS='|' read -r what start stop why; do
		kernel "$types"
		[ -z "$start" ] || echo "$start" >"$K/start-rcu"
		printf '%b\n' "$stop" | sed '/^$/d' >"$K/end-rcu"
		smoke "$sh" -t rcu,srcu
		expect "$what" 1 "not ok 1 rcu" "# rcu: $why" "ok 2 srcu"
	done <<EOF
FAILURE||rcu-torture:--- End of test: FAILURE: nreaders=1|End of test: FAILURE
hotplug failures||rcu-torture:--- End of test: RCU_HOTPLUG: nreaders=1|End of test: RCU_HOTPLUG
a !!! line||rcu-torture: !!! Reader Pipe:  1 2 3\n$end|rcu-torture: !!! Reader Pipe:  1 2 3
no End of test|||no End of test line
suspicious RCU usage|WARNING: suspicious RCU usage|$end|WARNING: suspicious RCU usage
a lockdep report|WARNING: possible circular locking dependency detected|$end|WARNING: possible circular locking dependency detected
a KASAN report|BUG: KASAN: slab-use-after-free in rcu_torture_reader+0x1/0x2|$end|BUG: KASAN: slab-use-after-free in rcu_torture_reader+0x1/0x2
an RCU CPU stall|rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:|$end|rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:
an expedited stall|rcu: INFO: rcu_preempt detected expedited stalls on CPUs/tasks: {|$end|rcu: INFO: rcu_preempt detected expedited stalls on CPUs/tasks: {
a tasks stall|INFO: rcu_tasks detected stalls on tasks:|$end|INFO: rcu_tasks detected stalls on tasks:
a writer stall|??? Writer stall state RTWS_SYNC(7) g1 f0x0 ->state 0x2 cpu 1|$end|??? Writer stall state RTWS_SYNC(7) g1 f0x0 ->state 0x2 cpu 1
an Oops|Oops: general protection fault, probably for non-canonical address|$end|Oops: general protection fault, probably for non-canonical address
EOF

	# A run whose start the kernel log no longer holds.
	kernel "$types"
	echo 5 >"$K/ring"
	smoke "$sh" -t rcu
	expect "lost log" 1 "not ok 1 rcu" "# rcu: the kernel log lost the start of the run"

	# The same marker in the log from an earlier run (same PID): its
	# splat is none of this run's.
	kernel "$types"
	touch "$K/replay"
	smoke "$sh" -t rcu
	expect "marker of an earlier run" 0 "ok 1 rcu"

	# insmod of a given module, with more parameters.
	kernel "$types"
	smoke "$sh" -t rcu -m /lib/modules/rcutorture.ko -p "nreaders=2 fwd_progress=0"
	expect "insmod" 0 "ok 1 rcu"
	grep -qx "load insmod /lib/modules/rcutorture.ko torture_type=rcu stat_interval=15 stutter=0 nreaders=2 fwd_progress=0" "$K/calls" ||
		echo "$sh: insmod: not loaded so: $(paste -sd'|' "$K/calls")"

	# rmmod that fails, or does not return, ends the test.
	kernel "$types"
	touch "$K/rmmod-fails"
	smoke "$sh" -t rcu,srcu
	expect "rmmod fails" 1 "not ok 1 rcu" "# rcu: rmmod rcutorture failed:" "Bail out!  rcutorture cannot be unloaded"
	grep -q "^ok 2" "$t/out" && echo "$sh: rmmod fails: went on with srcu"
	kernel "$types"
	touch "$K/rmmod-hangs"
	smoke "$sh" -t rcu -w 2
	expect "rmmod hangs" 1 "not ok 1 rcu" "# rcu: rmmod rcutorture has not returned after 2 s" \
		"Bail out!  rcutorture cannot be unloaded"
	# The hung rmmod ends; what its shell still writes goes to the
	# renamed output, not to the next case's.
	rm -f "$K/rmmod-hangs"
	mv "$t/out" "$t/out.hang"

	# Whole-test skips: no rcutorture to load, a built-in one, another
	# torture test, no root.
	kernel ""
	smoke "$sh"
	expect "no rcutorture" 4 "1..0 # SKIP cannot load rcutorture (CONFIG_RCU_TORTURE_TEST=m): modprobe: FATAL: Module rcutorture not found*"
	kernel "$types"
	touch "$K/builtin"
	smoke "$sh"
	expect "built in" 4 "1..0 # SKIP rcutorture accepted no type: it is built in or already loaded"
	kernel "$types"
	touch "$K/busy"
	smoke "$sh"
	expect "busy" 4 "1..0 # SKIP another torture test is running"
	kernel "$types"
	touch "$K/nonroot"
	smoke "$sh"
	expect "not root" 4 "1..0 # SKIP rcutorture-smoke.sh must be run as root"
	grep -q '^load' "$K/calls" && echo "$sh: not root: loaded rcutorture"

	smoke "$sh" -d ten
	expect "bad duration" 1 "Usage: *"
done
true
