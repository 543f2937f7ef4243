#!/usr/bin/env bash
# scripts/bench-report.sh on canned bench rows: perf-full-emulate (the
# emulation compiled in, off) against perf-full, two boots of which the
# second ran twice as slow.  Each reader's cost must be read against its
# own boot's preempt_disable, and the table must give the ratio of the
# two ratios; grace periods as measured.  A profile without its -emulate
# partner gets no such table.  The kinds the option does not touch give
# the noise band, which rcu_read_lock's ratio is outside (refscale's rcu
# inside); the heading says whether the two kernels' configs differ in the
# option alone, in more, or could not be compared.
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
perf-full,rcuvet,reader_ps,local_irq_save,10000,9900,10100,11,ps
perf-full,refscale,reader_ns,rcu,38,37,39,11,ns
perf-full,rcuvet,gp_ns,synchronize_rcu,16100000,16000000,16200000,11,ns
perf-full-emulate,rcuvet,reader_ps,empty,4000,3900,4100,11,ps
perf-full-emulate,rcuvet,reader_ps,preempt_disable,20000,19000,21000,11,ps
perf-full-emulate,rcuvet,reader_ps,rcu_read_lock,80000,79000,81000,11,ps
perf-full-emulate,rcuvet,reader_ps,srcu_read_lock,110000,109000,111000,11,ps
perf-full-emulate,rcuvet,reader_ps,local_irq_save,21200,21100,21300,11,ps
perf-full-emulate,refscale,reader_ns,rcu,78,77,79,11,ns
perf-full-emulate,rcuvet,gp_ns,synchronize_rcu,16100000,16000000,16200000,11,ns
CSV
# report [CONFIG-LINE]: bench.md of the canned rows, the two runs'
# configs the same but for the option (and CONFIG-LINE in the emulate
# one); without configs when CONFIG-LINE is "none".
report() {
	rm -rf "$work/perf-full" "$work/perf-full-emulate"
	if [ "${1:-}" != none ]; then
		mkdir -p "$work/perf-full" "$work/perf-full-emulate"
		printf '%s\n' CONFIG_PREEMPT=y CONFIG_JUMP_LABEL=y '# CONFIG_RCU_EMULATE_UNCONSOLIDATED is not set' \
			>"$work/perf-full/config"
		printf '%s\n' CONFIG_PREEMPT=y CONFIG_JUMP_LABEL=y CONFIG_RCU_EMULATE_UNCONSOLIDATED=y ${1:+"$1"} \
			>"$work/perf-full-emulate/config"
	fi
	"$root/scripts/bench-report.sh" "$work/bench.csv" "$work" >"$work/out" 2>&1 ||
		{ echo "bench-report.sh failed:"; cat "$work/out"; }
}

report
for line in \
	'### The v4.19 emulation compiled in, not enabled: perf-full-emulate against perf-full' \
	"The two kernels' configs differ in \`CONFIG_RCU_EMULATE_UNCONSOLIDATED\` alone." \
	'| source/kind | perf-full | perf-full-emulate | emulate / base |' \
	'| rcuvet/empty | x0.20 | x0.20 | x1.000 |' \
	'| rcuvet/rcu_read_lock | x3.80 | x4.00 | x1.053 |' \
	'| rcuvet/srcu_read_lock | x5.50 | x5.50 | x1.000 |' \
	'| rcuvet/local_irq_save | x1.00 | x1.06 | x1.060 |' \
	'| refscale/rcu | x3.80 | x3.90 | x1.026 |' \
	'| rcuvet/synchronize_rcu | 16.1 ms | 16.1 ms | x1.000 |'; do
	grep -qxF -- "$line" "$work/bench.md" || echo "bench.md has no line '$line'"
done
grep -qF "\"emulate / base\" of the 3 reader kinds the option does not touch (all but \`rcu_read_lock\`, refscale's \`rcu\`; \`preempt_disable\` is the unit) is x1.000 to x1.060. \`rcuvet/rcu_read_lock\`, x1.053: inside the band. \`refscale/rcu\`, x1.026: inside the band." "$work/bench.md" ||
	{ echo "bench.md has no noise band, or another:"; grep -i 'noise between' "$work/bench.md"; }
! grep -q 'against perf-none' "$work/bench.md" || echo "bench.md compares perf-none with a profile it has no -emulate of"

# Outside the band: local_irq_save as quiet as the others.
sed -i 's/^perf-full-emulate,rcuvet,reader_ps,local_irq_save,21200,/perf-full-emulate,rcuvet,reader_ps,local_irq_save,20000,/' "$work/bench.csv"
report
grep -qF "is x1.000 to x1.000. \`rcuvet/rcu_read_lock\`, x1.053: **outside** the band. \`refscale/rcu\`, x1.026: **outside** the band." "$work/bench.md" ||
	{ echo "bench.md does not put rcu_read_lock outside a band of x1.000:"; grep -i 'noise between' "$work/bench.md"; }
report CONFIG_RCU_BOOST=y
grep -qxF "**Not a measurement of the option alone**: the two kernels' configs differ in CONFIG_RCU_BOOST CONFIG_RCU_EMULATE_UNCONSOLIDATED." "$work/bench.md" ||
	echo "bench.md does not say that configs differing in more than the option measure more"
report none
grep -qF "**Not checked that the two kernels differ only by" "$work/bench.md" ||
	echo "bench.md does not say that it could not compare the configs"
exit 0
