#!/usr/bin/env bash
# scripts/judge-control.sh: a control judged on its tests holds only if
# its boot came to its end with every step run (a boot cut short has not
# shown the tests it never ran); a verdict-fails control may end early.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/scripts/judge-control.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# results BOOT PLAN: a results.tsv whose one test failed as the control
# wants, and whose boot-complete and plan-complete rows are BOOT and PLAN.
results() {
	printf 'harness\tboot-complete\t%s\t0.000\t\t\n' "$1"
	printf 'harness\tplan-complete\t%s\t0.000\t\t\n' "$2"
	printf 'rcuvet_x\trcuvet_x.case\tfail\t0.100\t\t\n'
}

# expect NAME CONTROL-LINE BOOT PLAN RC WANT: judge says WANT (empty: holds).
expect() {
	local got

	printf 'control: %s\n' "$2" >"$work/plan"
	results "$3" "$4" >"$work/results.tsv"
	echo 'FAIL: boot did not end' >"$work/verdict.txt"
	got=$(judge "$work/plan" "$work" "$5")
	[ "$got" = "$6" ] || printf '%s: judge said\n%s\nnot\n%s\n' "$1" "$got" "$6"
}

expect 'tests-fail, whole boot' 'tests-fail rcuvet_x.*' pass pass 1 ''
expect 'tests-fail, boot cut short' 'tests-fail rcuvet_x.*' fail fail 1 \
	"1 of 1 tests matching 'boot-complete' did not pass
1 of 1 tests matching 'plan-complete' did not pass"
expect 'test-fails, plan cut short' 'test-fails rcuvet_x.case' pass fail 1 \
	"1 of 1 tests matching 'plan-complete' did not pass"
expect 'verdict-fails may end early' 'verdict-fails boot did not end' fail fail 1 ''

# console-counts: exactly N console lines say why.
printf '%s\n' '[ 1.0] 1 of 1 tries failed, the first: inconclusive: why' \
	'[ 2.0] 1 of 1 tries failed, the first: inconclusive: why' \
	'[ 3.0] 1 of 1 tries failed, the first: wrong depth' >"$work/console.log"
expect 'console-counts, as many' 'console-counts 2 the first: inconclusive:' pass pass 1 ''
expect 'console-counts, fewer' 'console-counts 3 the first: inconclusive:' pass pass 1 \
	"2 console lines say 'the first: inconclusive:', not 3"
rm "$work/console.log"
expect 'console-counts, no console' 'console-counts 1 inconclusive' pass pass 1 \
	"0 console lines say 'inconclusive', not 1"

# An emulated boot that did not meet the emulation's requirements holds
# no control, not even one that wants the run to fail.
printf 'control: verdict-fails KASAN\n' >"$work/plan"
results pass fail >"$work/results.tsv"
printf '%s\n' 'FAIL: rcu-pin: guest reported: RCU emulation requirement not met: rcu-pin failed' \
	'FAIL: kernel splat: BUG: KASAN: slab-use-after-free in dev_map_enqueue' >"$work/verdict.txt"
got=$(judge "$work/plan" "$work" 1)
want="the RCU emulation's requirements were not met (see the verdict)"
[ "$got" = "$want" ] || printf 'emulation unmet: judge said\n%s\nnot\n%s\n' "$got" "$want"
