#!/usr/bin/env bash
# scripts/reliance-baseline.sh: "baseline" names each site of a run's
# reliance rows (run.json) by its function (offsets and clone suffixes
# gone, a module kept, FILE:FUNCTION whole), once, under lines that say
# where they came from, and refuses a console without a complete report; "mark" tells each report row "kernel" or "new";
# "subtract" leaves out the rows whose site the baseline names and says
# which.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$root/scripts/reliance-baseline.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

printf '# the kernel of an idle boot\n__dev_map_lookup_elem\nhelper\n' >"$work/base"
printf '%s\t%s\t%s\t%s\n' \
	39821 bh+rcu_read_lock_bh bh_held '__dev_map_lookup_elem+0x9e/0xe4' \
	17188 softirq marked kernel/bpf/cpumap.c:bq_flush_to_queue \
	5 preempt sched_held 'helper.constprop.0+0x1a/0x40' \
	3 preempt sched_held 'bq_flush_to_queue_x+0x1a/0x40 [m]' >"$work/tsv"
got=$("$bin" subtract "$work/base" "$work/tsv")
want=$(printf '%s\t%s\t%s\t%s\n' \
	17188 softirq marked kernel/bpf/cpumap.c:bq_flush_to_queue \
	3 preempt sched_held 'bq_flush_to_queue_x+0x1a/0x40 [m]'
	echo "# 2 site(s) also in the idle boot ($work/base), left out: __dev_map_lookup_elem helper")
[ "$got" = "$want" ] || printf 'subtract gave\n%s\nnot\n%s\n' "$got" "$want"
got=$("$bin" mark "$work/base" <"$work/tsv" | cut -f4-)
want=$(printf '%s\t%s\n' '__dev_map_lookup_elem+0x9e/0xe4' kernel \
	kernel/bpf/cpumap.c:bq_flush_to_queue new 'helper.constprop.0+0x1a/0x40' kernel \
	'bq_flush_to_queue_x+0x1a/0x40 [m]' new)
[ "$got" = "$want" ] || printf 'mark gave\n%s\nnot\n%s\n' "$got" "$want"
"$bin" subtract "$work/nope" "$work/tsv" >/dev/null 2>&1 && echo "subtract without a baseline passed"
"$bin" mark "$work/nope" "$work/tsv" >/dev/null 2>&1 && echo "mark without a baseline passed"

# baseline: the run's facts and its reliance rows (run.json), by key,
# under the report's summary (console.log); an empty report is a baseline
# of no site; no summary line, none.
mkdir "$work/run"
sed 's/^/[    9.2] rcu-reliance: /' "$root/tests/rcu-reliance/complete.txt" >"$work/run/console.log"
site() { printf '{"hits": 1, "context": "preempt", "check": "sched_held", "site": "%s"}' "$1"; }
echo '{"plan": "reliance-idle", "tree": "T", "tree_id": "f66a802457d61711", "profile": "emulate-4.19", "kernel": "6.12.118-rcuvet",
	"kernel_build": "#1 SMP PREEMPT", "config": {"sha1": "0123456789ab"}, "verdict": "PASS",
	"console": "results/reliance-idle/emulate-4.19/console.log", "findings": {"reliance": [' \
	"$(site '__dev_map_lookup_elem+0x9e/0xe4'), $(site kernel/bpf/cpumap.c:bq_flush_to_queue)," \
	"$(site 'helper.isra.0+0x10/0x40'), $(site 'helper.constprop.0+0x1a/0x40')," \
	"$(site 'bq_flush_to_queue_x+0x1a/0x40 [m]'), $(site kernel/bpf/devmap.c:__dev_flush)," \
	"$(site 'parsed_by_report_sh+0x1/0x2')" \
	']}}' >"$work/run/run.json"
keys='__dev_map_lookup_elem
bq_flush_to_queue_x [m]
helper
kernel/bpf/cpumap.c:bq_flush_to_queue
kernel/bpf/devmap.c:__dev_flush
parsed_by_report_sh'
"$bin" baseline "$work/run" >"$work/baseline" || echo "baseline of a complete report failed"
for line in '# profile: emulate-4.19' '# kernel: 6.12.118-rcuvet #1 SMP PREEMPT' \
	'# config: 0123456789ab' '# verdict: PASS' '# tree: T' '# tree_id: f66a802457d61711' \
	'# report: 5 sites (limit 1024), 0 hits lost (table full), 0 hits lost (lockdep state unknown)'; do
	grep -qxF -- "$line" "$work/baseline" || echo "baseline does not say '$line'"
done
grep -qE '^# date: 20[0-9-]+T' "$work/baseline" || echo "baseline has no date"
grep -qE '^# rcuvet: [0-9a-z.-]+$' "$work/baseline" || echo "baseline has no rcuvet commit"
[ "$(grep -v '^#' "$work/baseline")" = "$keys" ] ||
	printf 'baseline gave\n%s\nnot\n%s\n' "$(grep -v '^#' "$work/baseline")" "$keys"
sed 's/^/[ 9.2] rcu-reliance: /' "$root/tests/rcu-reliance/empty.txt" >"$work/run/console.log"
jq '.findings.reliance = []' "$work/run/run.json" >"$work/run.json" && mv "$work/run.json" "$work/run/"
"$bin" baseline "$work/run" >"$work/baseline" || echo "baseline of an empty report failed"
! grep -v '^#' "$work/baseline" || echo "baseline of an empty report names a site"
sed 's/^/[ 9.2] rcu-reliance: /' "$root/tests/rcu-reliance/truncated.txt" >"$work/run/console.log"
"$bin" baseline "$work/run" >/dev/null 2>&1 && echo "baseline of a truncated report passed"
"$bin" 2>/dev/null && echo "no arguments passed"
exit 0
