#!/usr/bin/env bash
# scripts/reliance-baseline.sh: "required" lists the checks of the plans'
# rcu-reliance steps that require a site; "mark" tells each report row
# "under-test" (a site the plans require, a FILE:FUNCTION mark, a
# module's: whatever the baseline says), "kernel" or "new", "unknown"
# with no baseline; "mark" matches a site,
# offset and size included, with the checks and contexts of the row
# among the baseline's; "baseline" lists each site of a run's reliance
# rows (run.json) with its check and context, once, under lines that say
# where they came from, and refuses a console without a complete report and a run that lists a
# site of the code under test.
set -u
unset FORCE
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$root/scripts/reliance-baseline.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The seed sites that check.plan and run.plan require, from the plans.
"$bin" required >"$work/required"
for c in 'site kernel/bpf/devmap.c:__dev_flush' 'site kernel/bpf/devmap.c:bq_xmit_all' \
	'site kernel/bpf/cpumap.c:__cpu_map_flush' 'site kernel/bpf/cpumap.c:bq_flush_to_queue' \
	'site __dev_map_lookup_elem' 'site __cpu_map_lookup_elem'; do
	grep -q "^$c"$'\t' "$work/required" || echo "required does not list '$c'"
done
grep -q 'site __cpu_map_lookup_elem'$'\t''run.plan$' "$work/required" ||
	echo "required: __cpu_map_lookup_elem is required by run.plan alone (check.plan has it absent)"
printf 'program rcu-reliance --reset\nprogram rcu-reliance a site f absent b absent site g site h:i bh site j\n' >"$work/x.plan"
[ "$("$bin" required "$work/x.plan")" = "$(printf 'a\tx.plan\nsite f\tx.plan\nsite h:i\tx.plan\nsite j\tx.plan')" ] ||
	printf 'required of x.plan gave\n%s\n' "$("$bin" required "$work/x.plan")"

# A baseline that names the seed sites (made by hand, or on an idle boot
# that ran XDP) beside genuine kernel helpers: the seed sites, a mark, a
# module's site stay under test; a helper is the kernel's only at the
# same offset and size, under the baseline's checks, in its contexts.
printf '# the kernel of an idle boot\n' >"$work/base"
printf '%s\t%s\t%s\n' '__dev_map_lookup_elem+0x9e/0xe4' bh_held bh+rcu_read_lock_bh \
	kernel/bpf/devmap.c:__dev_flush marked softirq kernel/bpf/cpumap.c:bq_flush_to_queue marked softirq \
	'__module_address+0x1a/0x90' sched_held preempt+spinlock \
	'helper.constprop.0+0x1a/0x40' sched_held preempt \
	'bq_flush_to_queue_x+0x1a/0x40 [m]' sched_held preempt \
	kernel/bpf/x.c:marked_elsewhere marked softirq >>"$work/base"
printf '%s\t%s\t%s\t%s\n' \
	39821 bh+rcu_read_lock_bh bh_held '__dev_map_lookup_elem+0x9e/0xe4' \
	17188 softirq marked kernel/bpf/cpumap.c:bq_flush_to_queue \
	12 softirq marked kernel/bpf/devmap.c:__dev_flush \
	2400 preempt sched_held '__module_address+0x1a/0x90' \
	5 preempt sched_held 'helper.constprop.0+0x1a/0x40' \
	4 softirq marked kernel/bpf/x.c:marked_elsewhere \
	3 preempt sched_held 'bq_flush_to_queue_x+0x1a/0x40 [m]' \
	2 bh bh_held 'new_reader+0x10/0x20' \
	1 preempt sched_held 'helper.constprop.0+0x2a/0x40' \
	1 preempt sched_held 'helper.constprop.0+0x1a/0x60' \
	1 preempt sched_held 'helper.isra.0+0x1a/0x40' \
	1 preempt any_held '__module_address+0x1a/0x90' \
	1 irq+preempt sched_held '__module_address+0x1a/0x90' >"$work/tsv"
got=$("$bin" mark "$work/base" <"$work/tsv" | cut -f2-)
want=$(printf '%s\t%s\t%s\t%s\t%s\n' \
	bh+rcu_read_lock_bh bh_held '__dev_map_lookup_elem+0x9e/0xe4' under-test 'site __dev_map_lookup_elem (run.plan)' \
	softirq marked kernel/bpf/cpumap.c:bq_flush_to_queue under-test \
	'site kernel/bpf/cpumap.c:bq_flush_to_queue (check-6.1.plan, check.plan, mutants-xdp-reliance.plan)' \
	softirq marked kernel/bpf/devmap.c:__dev_flush under-test \
	'site kernel/bpf/devmap.c:__dev_flush (check-6.1.plan, check.plan, mutants-xdp-reliance.plan)' \
	preempt sched_held '__module_address+0x1a/0x90' kernel '' \
	preempt sched_held 'helper.constprop.0+0x1a/0x40' kernel '' \
	softirq marked kernel/bpf/x.c:marked_elsewhere under-test 'a FILE:FUNCTION mark' \
	preempt sched_held 'bq_flush_to_queue_x+0x1a/0x40 [m]' under-test "a module's site" \
	bh bh_held 'new_reader+0x10/0x20' new '' \
	preempt sched_held 'helper.constprop.0+0x2a/0x40' new '' \
	preempt sched_held 'helper.constprop.0+0x1a/0x60' new '' \
	preempt sched_held 'helper.isra.0+0x1a/0x40' new '' \
	preempt any_held '__module_address+0x1a/0x90' new '' \
	irq+preempt sched_held '__module_address+0x1a/0x90' new '')
[ "$got" = "$want" ] || printf 'mark gave\n%s\nnot\n%s\n' "$got" "$want"
got=$("$bin" mark - "$work/tsv" | cut -f5 | paste -sd' ')
[ "$got" = "under-test under-test under-test unknown unknown under-test under-test unknown unknown unknown unknown unknown unknown" ] ||
	echo "mark without a baseline gave: $got"
# By hand (the script's header), a run's rows without the kernel's own.
got=$("$bin" mark "$work/base" "$work/tsv" | awk -F'\t' '$5 != "kernel"' | cut -f4)
want=$(printf '%s\n' '__dev_map_lookup_elem+0x9e/0xe4' kernel/bpf/cpumap.c:bq_flush_to_queue \
	kernel/bpf/devmap.c:__dev_flush kernel/bpf/x.c:marked_elsewhere \
	'bq_flush_to_queue_x+0x1a/0x40 [m]' new_reader+0x10/0x20 'helper.constprop.0+0x2a/0x40' \
	'helper.constprop.0+0x1a/0x60' 'helper.isra.0+0x1a/0x40' '__module_address+0x1a/0x90' \
	'__module_address+0x1a/0x90')
[ "$got" = "$want" ] || printf 'mark | awk gave\n%s\nnot\n%s\n' "$got" "$want"
"$bin" mark "$work/nope" "$work/tsv" >/dev/null 2>&1 && echo "mark without a baseline passed"

# baseline: the run's facts and its reliance rows (run.json), by key,
# under the report's summary (console.log); an empty report is a baseline
# of no site; no summary line, none; a site of the code under test
# (above), none, naming it.
mkdir "$work/run"
sed 's/^/[    9.2] rcu-reliance: /' "$root/tests/rcu-reliance/complete.txt" >"$work/run/console.log"
site() { printf '{"hits": 1, "context": "preempt", "check": "sched_held", "site": "%s"}' "$1"; }
echo '{"plan": "reliance-idle", "tree": "T", "tree_id": "f66a802457d61711", "profile": "emulate-4.19", "kernel": "6.12.118-rcuvet",
	"kernel_build": "#1 SMP PREEMPT", "config": {"sha1": "0123456789ab"}, "verdict": "PASS",
	"console": "results/reliance-idle/emulate-4.19/console.log", "findings": {"reliance": [' \
	"$(site 'helper.isra.0+0x10/0x40'), $(site 'helper.constprop.0+0x1a/0x40')," \
	"$(site '__module_address+0x1a/0x90'), $(site 'parsed_by_report_sh+0x1/0x2')" \
	']}}' >"$work/run/run.json"
keys=$(printf '%s\tsched_held\tpreempt\n' '__module_address+0x1a/0x90' 'helper.constprop.0+0x1a/0x40' \
	'helper.isra.0+0x10/0x40' 'parsed_by_report_sh+0x1/0x2')
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
cp "$work/run/run.json" "$work/kernel-only.json"
for s in '__dev_map_lookup_elem+0x9e/0xe4' kernel/bpf/devmap.c:__dev_flush 'f+0x1/0x2 [m]'; do
	jq --argjson s "$(site "$s")" '.findings.reliance += [$s]' "$work/kernel-only.json" >"$work/run/run.json"
	if "$bin" baseline "$work/run" >/dev/null 2>"$work/err"; then
		echo "baseline of an idle run that lists $s passed"
	else
		grep -qF "  $s: " "$work/err" || echo "baseline refused $s without naming it: $(cat "$work/err")"
	fi
done
cp "$work/kernel-only.json" "$work/run/run.json"
sed 's/^/[ 9.2] rcu-reliance: /' "$root/tests/rcu-reliance/empty.txt" >"$work/run/console.log"
jq '.findings.reliance = []' "$work/run/run.json" >"$work/run.json" && mv "$work/run.json" "$work/run/"
"$bin" baseline "$work/run" >"$work/baseline" || echo "baseline of an empty report failed"
! grep -v '^#' "$work/baseline" || echo "baseline of an empty report names a site"
grep -qxF '# flaws: none' "$work/baseline" || echo "baseline of a complete report does not say '# flaws: none'"
# An idle boot that lost hits, had lockdep off or failed: no baseline,
# unless FORCE=1, and then its header says so.
for c in lost:'3 hits lost' unknown:'2 hits lost' lockdep-off:'lockdep was off' fail:'verdict FAIL'; do
	if [ "${c%%:*}" = fail ]; then
		sed 's/^/[ 9.2] rcu-reliance: /' "$root/tests/rcu-reliance/empty.txt" >"$work/run/console.log"
		jq '.verdict = "FAIL"' "$work/kernel-only.json" >"$work/run/run.json"
	else
		sed 's/^/[ 9.2] rcu-reliance: /' "$root/tests/rcu-reliance/${c%%:*}.txt" >"$work/run/console.log"
		cp "$work/kernel-only.json" "$work/run/run.json"
	fi
	if "$bin" baseline "$work/run" >/dev/null 2>"$work/err"; then
		echo "baseline of an idle boot with ${c#*:} passed"
	else
		grep -qF "(${c#*:}): no baseline; FORCE=1" "$work/err" || echo "baseline refused ${c%%:*} saying: $(cat "$work/err")"
	fi
	FORCE=1 "$bin" baseline "$work/run" >"$work/baseline" 2>/dev/null || echo "FORCE=1 baseline of ${c%%:*} failed"
	grep -qxF "# flaws: ${c#*:} (written with FORCE=1)" "$work/baseline" ||
		echo "FORCE=1 baseline of ${c%%:*} says $(grep '^# flaws' "$work/baseline")"
done
cp "$work/kernel-only.json" "$work/run/run.json"
sed 's/^/[ 9.2] rcu-reliance: /' "$root/tests/rcu-reliance/truncated.txt" >"$work/run/console.log"
"$bin" baseline "$work/run" >/dev/null 2>&1 && echo "baseline of a truncated report passed"
"$bin" 2>/dev/null && echo "no arguments passed"
exit 0
