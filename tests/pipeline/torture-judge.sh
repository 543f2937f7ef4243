#!/usr/bin/env bash
# make torture's judgement by rcutorture's rules (scripts/torture-judge.sh,
# with the 6.12 tree's bin/console-badness.sh) on canned consoles: End of
# test SUCCESS passes with its grace periods and Reader Pipe; FAILURE, a
# "!!!" statistics line, a reader beyond the pipe's second bucket, a splat,
# a grace-period number that stops (GP HANG) and no End of test fail;
# with --must-fail only the reader beyond the second bucket passes.
set -u
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
. "$(dirname "$0")/../lib/torture-tree.sh"
[ -n "$rcut" ] || { echo "no console-badness.sh: neither the pristine 6.12 tree nor /usr/src/linux-source-6.12.tar.xz"; exit 0; }
judge=$(dirname "$0")/../../scripts/torture-judge.sh

# stats VER PIPE...: one statistics print of rcutorture (type srcu).
stats() {
	local ver=$1

	shift
	cat <<EOT
[   30.000001] srcu-torture: rtc: 00000000a1b2c3d4 ver: $ver tfle: 0 rta: 1200 rtaf: 0 rtf: 1190 rtmbe: 0 rtmbkf: 0/100 rtbe: 0 rtbke: 0 rtbf: 0 rtb: 0 nt: 4000 onoff: 3/3:4/4 9,20:8,30 88:120 (HZ=1000) barrier: 10/10:0 read-exits: 16 nocb-toggles: 0:0
[   30.000002] srcu-torture: ${BANG:-}Reader Pipe:  $*
[   30.000003] srcu-torture: Reader Batch:  250000 30 0 0 0 0 0 0 0 0 0
EOT
}
# end WORD: the End of test line of rmmod.
end() {
	echo "[   95.000000] srcu-torture:--- End of test: $1: nreaders=1 nfakewriters=4 stat_interval=15 verbose=1"
}
# case NAME WANT TEXT [--must-fail]: the judge of console NAME says WANT
# (pass or fail) and its line contains TEXT.
case_() {
	local out rc=0

	out=$("$judge" ${4:-} "$t/$1" "$rcut/bin/console-badness.sh") || rc=$?
	case $2 in
	pass) [ $rc -eq 0 ] || echo "$1: status $rc, not 0: $out" ;;
	fail) [ $rc -eq 1 ] || echo "$1: status $rc, not 1: $out" ;;
	esac
	[ "${out%%	*}" = "$2" ] || echo "$1: '$out' does not begin with $2"
	grep -qF -- "$3" <<<"$out" || echo "$1: '$out' does not say '$3'"
}
boot() {
	echo "[    0.000000] Linux version 6.12.118-rcuvet"
	echo "[   10.000000] rcuvet: begin rcutorture"
}

# The last statistics, printed after the writer stopped: rtc is NULL.
last=$(stats 2500 200000 800 0 0 0 0 0 0 0 0 0)
{ boot; stats 1200 100000 400 0 0 0 0 0 0 0 0 0; stats 2500 200000 800 0 0 0 0 0 0 0 0 0
	echo "${last//a1b2c3d4/00000000}"; end SUCCESS; } >"$t/success"
case_ success pass $'SUCCESS\t2500\t200000 800 0 0 0 0 0 0 0 0 0\t0'
{ boot; stats 1200 100000 400 0 0 0 0 0 0 0 0 0; end FAILURE; } >"$t/failure"
case_ failure fail "End of test: FAILURE"
{ boot; BANG='!!! ' stats 1200 100000 400 0 0 0 0 0 0 0 0 0; end SUCCESS; } >"$t/bang"
case_ bang fail "statistics lines with !!!"
{ boot; stats 1200 100000 400 3 0 0 0 0 0 0 0 0; end SUCCESS; } >"$t/pipe"
case_ pipe fail "Reader Pipe: 3 readers beyond"
{ boot; stats 1200 100000 400 0 0 0 0 0 0 0 0 0
	echo "[   40.000000] WARNING: CPU: 1 PID: 77 at kernel/rcu/tree.c:2345 rcu_do_batch+0x12/0x340"
	echo "[   40.000001] Call Trace:"
	end SUCCESS; } >"$t/splat"
case_ splat fail "2 splat lines, the first: WARNING: CPU: 1 PID: 77"
{ boot; stats 1200 100000 400 0 0 0 0 0 0 0 0 0; stats 1200 100000 400 0 0 0 0 0 0 0 0 0; end SUCCESS; } >"$t/hang"
case_ hang fail "GP HANG at 1200"
{ boot; stats 1200 100000 400 0 0 0 0 0 0 0 0 0; } >"$t/no-end"
case_ no-end fail $'none\t1200'
case_ no-such-console fail "no console"
# --must-fail, a negative control: only a reader that outlived a grace
# period makes it pass, whatever else failed with it.
{ boot; BANG='!!! ' stats 1200 100000 400 3 0 0 0 0 0 0 0 0
	echo "[   40.000000] WARNING: CPU: 1 PID: 77 at kernel/rcu/rcutorture.c:2345 rcu_torture_stats_print+0x12/0x340"
	end FAILURE; } >"$t/emulated"
case_ emulated pass "failed as it must: End of test: FAILURE" --must-fail
case_ success fail "no reader outlived a grace period" --must-fail
case_ failure fail "no reader outlived a grace period: End of test: FAILURE" --must-fail
case_ splat fail "no reader outlived a grace period: 2 splat lines" --must-fail
