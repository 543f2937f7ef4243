#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bench-sys: the system-level measures of guest/sched-bench (plan
# bench-sys) on each profile (default: perf-full and perf-full-noinline,
# rcu_read_lock() inline and out of line) in BOOTS boots of each
# (default 5), the profiles taken in turn boot by boot (every other boot
# in the reverse order) so that a change in the host's speed falls on all
# of them.  make bench boots each profile once; under TCG one boot can
# run some percent faster than the next, as fast as the difference to be
# measured, so this step gives the spread.  results/bench-sys/: sys.csv (bench-parse's rows, the boot
# number first) and bench-sys.md (bench-sys-report.sh).
. "$(dirname "$0")/lib.sh"

profiles=${PROFILES:-perf-full perf-full-noinline}
boots=${BOOTS:-5}
"$RCUVET_ROOT/scripts/validate.sh" -p "$profiles" -P bench-sys
out=$RESULTS/bench-sys
rm -rf "$out"
mkdir -p "$out"
csv=$out/sys.csv
: >"$csv"
ok=0 failed=0
for ((i = 1; i <= boots; i++)); do
	# Every other boot in the reverse order: the order's own effect falls
	# on each profile alike.
	order=$profiles
	[ $((i % 2)) -eq 1 ] || order=$(tr ' ' '\n' <<<"$profiles" | tac | xargs)
	for p in $order; do
		step "bench-sys: boot $i of $boots, $p"
		run=$out/$i/$p
		mkdir -p "$out/$i"
		if "$RCUVET_ROOT/scripts/vet.sh" "$p" bench-sys "$run" 2>"$run.err"; then
			ok=$((ok + 1))
		else
			failed=$((failed + 1))
			note "$p, boot $i: failed, see ${run#"$RCUVET_ROOT"/}"
		fi
		[ ! -f "$run/console.log" ] ||
			"$RCUVET_ROOT/scripts/bench-parse.sh" "$p" "$run/console.log" | sed "s/^/$i,/" >>"$csv"
	done
done
"$RCUVET_ROOT/scripts/bench-sys-report.sh" "$csv" "$profiles" >"$out/bench-sys.md"
step "bench-sys: ${out#"$RCUVET_ROOT"/}/bench-sys.md"
echo "$ok passed, $failed failed"
[ "$failed" -eq 0 ]
