#!/usr/bin/env bash
# guest/sched-bench's lines through scripts/bench-parse.sh and
# scripts/bench-report.sh: canned console logs of perf-full (rcu_read_lock()
# inline) and perf-full-noinline, the second boot twice as slow, must
# give one sys_ns row per measure (timestamps, a carriage return and the
# header line read past), the "System level" table with each median as a
# multiple of getuid() in its own boot, and for the pair the ratio of the
# medians and of the multiples, inline over noinline; "-" for a measure
# one boot lacks.  A profile without its -noinline partner gets no such
# section.  The heading says whether the two configs differ in
# CONFIG_RCU_INLINE_READ_LOCK alone, are the same (a tree without it),
# differ in more, or could not be compared.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

printf '%s\r\n' \
	'[   10.000000] rcuvet: begin program sched-bench' \
	'[   10.100000] sched-bench: on CPU 0, scale 1, 11 runs a measure' \
	'[   14.000000] sched-bench: ctxsw median_ns=30000.0 min_ns=29000.0 max_ns=33000.0 runs=11 loops=10000' \
	'[   20.000000] sched-bench: getppid median_ns=4000.0 min_ns=3900.0 max_ns=4200.0 runs=11 loops=150000' \
	'[   26.000000] sched-bench: stat median_ns=12000.0 min_ns=11000.0 max_ns=13000.0 runs=11 loops=30000' \
	'[   30.000000] sched-bench: getuid median_ns=3000.0 min_ns=2900.0 max_ns=3100.0 runs=11 loops=150000' \
	'[   30.100000] rcuvet: end program sched-bench' >"$work/full.log"
printf '%s\n' \
	'[   11.000000] sched-bench: ctxsw median_ns=66000.0 min_ns=60000.0 max_ns=70000.0 runs=11 loops=10000' \
	'[   21.000000] sched-bench: getppid median_ns=10000.0 min_ns=9000.0 max_ns=11000.0 runs=11 loops=150000' \
	'[   31.000000] sched-bench: getuid median_ns=6000.0 min_ns=5800.0 max_ns=6200.0 runs=11 loops=150000' \
	>"$work/noinline.log"
printf '%s\n' '[ 9.0] sched-bench: getuid median_ns=2000.0 min_ns=1900.0 max_ns=2100.0 runs=11 loops=150000' \
	>"$work/rt.log"
"$root/scripts/bench-parse.sh" perf-full "$work/full.log" >"$work/bench.csv"
"$root/scripts/bench-parse.sh" perf-full-noinline "$work/noinline.log" >>"$work/bench.csv"
"$root/scripts/bench-parse.sh" perf-rt "$work/rt.log" >>"$work/bench.csv"
for row in \
	perf-full,sched-bench,sys_ns,ctxsw,30000.0,29000.0,33000.0,11,ns \
	perf-full,sched-bench,sys_ns,getppid,4000.0,3900.0,4200.0,11,ns \
	perf-full,sched-bench,sys_ns,stat,12000.0,11000.0,13000.0,11,ns \
	perf-full,sched-bench,sys_ns,getuid,3000.0,2900.0,3100.0,11,ns \
	perf-full-noinline,sched-bench,sys_ns,ctxsw,66000.0,60000.0,70000.0,11,ns \
	perf-rt,sched-bench,sys_ns,getuid,2000.0,1900.0,2100.0,11,ns; do
	grep -qxF -- "$row" "$work/bench.csv" || echo "bench-parse.sh wrote no row '$row'"
done
[ "$(wc -l <"$work/bench.csv")" -eq 8 ] || { echo "bench-parse.sh wrote other rows than the 8 measures:"; cat "$work/bench.csv"; }

# report [CONFIG-LINE]: bench.md of the rows, the two runs' configs the
# same but for the option (and CONFIG-LINE in the noinline one); without
# configs when CONFIG-LINE is "none", both the same when it is "same".
report() {
	rm -rf "$work/perf-full" "$work/perf-full-noinline"
	if [ "${1:-}" != none ]; then
		mkdir -p "$work/perf-full" "$work/perf-full-noinline"
		printf '%s\n' CONFIG_PREEMPT=y CONFIG_RCU_INLINE_READ_LOCK=y >"$work/perf-full/config"
		printf '%s\n' CONFIG_PREEMPT=y '# CONFIG_RCU_INLINE_READ_LOCK is not set' ${1:+"$1"} \
			>"$work/perf-full-noinline/config"
		[ "${1:-}" != same ] || cp "$work/perf-full/config" "$work/perf-full-noinline/config"
	fi
	"$root/scripts/bench-report.sh" "$work/bench.csv" "$work" >"$work/out" 2>&1 ||
		{ echo "bench-report.sh failed:"; cat "$work/out"; }
}

report
for line in \
	'| sched-bench/ctxsw | 30000 ns (29000-33000), x10.0 getuid | 66000 ns (60000-70000), x11.0 getuid | - |' \
	'| sched-bench/stat | 12000 ns (11000-13000), x4.00 getuid | - | - |' \
	'| sched-bench/getuid | 3000 ns (2900-3100), x1.00 getuid | 6000 ns (5800-6200), x1.00 getuid | 2000 ns (1900-2100), x1.00 getuid |' \
	'### Inlined rcu_read_lock(), system level: perf-full against perf-full-noinline' \
	"The two kernels' configs differ in \`CONFIG_RCU_INLINE_READ_LOCK\` alone." \
	'| measure | perf-full | perf-full-noinline | inline / noinline | per getuid() |' \
	'| ctxsw | 30000 ns (x10.0) | 66000 ns (x11.0) | x0.455 | x0.909 |' \
	'| getppid | 4000 ns (x1.33) | 10000 ns (x1.67) | x0.400 | x0.800 |' \
	'| stat | 12000 ns (x4.00) | - | - | - |' \
	'| getuid | 3000 ns (x1.00) | 6000 ns (x1.00) | x0.500 | x1.000 |'; do
	grep -qxF -- "$line" "$work/bench.md" || echo "bench.md has no line '$line'"
done
grep -q 'system level: perf-rt\|against perf-rt' "$work/bench.md" &&
	echo "bench.md compares perf-rt, which has no -noinline run"
[ "$(grep -c '^### Inlined rcu_read_lock' "$work/bench.md")" -eq 1 ] ||
	echo "bench.md has not exactly one inline/noinline section"

report same
grep -qF "**Not a measurement of the option**: the two kernels' configs are the same" "$work/bench.md" ||
	echo "bench.md does not say that two kernels configured alike measure no option"
report CONFIG_RCU_BOOST=y
grep -qxF "**Not a measurement of the option alone**: the two kernels' configs differ in CONFIG_RCU_BOOST CONFIG_RCU_INLINE_READ_LOCK." "$work/bench.md" ||
	echo "bench.md does not say that configs differing in more than the option measure more"
report none
grep -qF "**Not checked that the two kernels differ only by \`CONFIG_RCU_INLINE_READ_LOCK\`**" "$work/bench.md" ||
	echo "bench.md does not say that it could not compare the configs"
exit 0
