#!/usr/bin/env bash
# scripts/bench-report.sh on canned bench rows: perf-full-emulate (the
# emulation compiled in, off) against perf-full, two boots of which the
# second ran twice as slow.  Each reader's cost must be read against its
# own boot's preempt_disable, and the table must give the ratio of the
# two ratios; grace periods as measured.  A profile without its -emulate
# partner gets no such table.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat >"$work/bench.csv" <<'CSV'
perf-none,rcuvet,reader_ps,preempt_disable,4100,4000,4200,11,ps
perf-none,rcuvet,gp_ns,synchronize_rcu,16100000,16000000,16200000,11,ns
perf-full,rcuvet,reader_ps,empty,2000,1900,2100,11,ps
perf-full,rcuvet,reader_ps,preempt_disable,10000,9000,11000,11,ps
perf-full,rcuvet,reader_ps,rcu_read_lock,38000,37000,39000,11,ps
perf-full,rcuvet,reader_ps,srcu_read_lock,55000,54000,56000,11,ps
perf-full,refscale,reader_ns,rcu,38,37,39,11,ns
perf-full,rcuvet,gp_ns,synchronize_rcu,16100000,16000000,16200000,11,ns
perf-full-emulate,rcuvet,reader_ps,empty,4000,3900,4100,11,ps
perf-full-emulate,rcuvet,reader_ps,preempt_disable,20000,19000,21000,11,ps
perf-full-emulate,rcuvet,reader_ps,rcu_read_lock,80000,79000,81000,11,ps
perf-full-emulate,rcuvet,reader_ps,srcu_read_lock,110000,109000,111000,11,ps
perf-full-emulate,refscale,reader_ns,rcu,80,79,81,11,ns
perf-full-emulate,rcuvet,gp_ns,synchronize_rcu,16100000,16000000,16200000,11,ns
CSV
"$root/scripts/bench-report.sh" "$work/bench.csv" "$work" >"$work/out" 2>&1 ||
	{ echo "bench-report.sh failed:"; cat "$work/out"; exit 0; }
for line in \
	'### The v4.19 emulation compiled in, not enabled: perf-full-emulate against perf-full' \
	'| source/kind | perf-full | perf-full-emulate | emulate / base |' \
	'| rcuvet/empty | x0.20 | x0.20 | x1.000 |' \
	'| rcuvet/rcu_read_lock | x3.80 | x4.00 | x1.053 |' \
	'| rcuvet/srcu_read_lock | x5.50 | x5.50 | x1.000 |' \
	'| refscale/rcu | x3.80 | x4.00 | x1.053 |' \
	'| rcuvet/synchronize_rcu | 16.1 ms | 16.1 ms | x1.000 |'; do
	grep -qxF -- "$line" "$work/bench.md" || echo "bench.md has no line '$line'"
done
! grep -q 'against perf-none' "$work/bench.md" || echo "bench.md compares perf-none with a profile it has no -emulate of"
exit 0
