#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bench: the bench plan on every perf profile (one preemption model each),
# then CSV, tables and plots in results/bench/.  Not part of the verdict: a
# profile that does not build or boot is reported with the reason.
. "$(dirname "$0")/lib.sh"

profiles=${PROFILES:-perf-none perf-voluntary perf-full perf-rt}
for p in $profiles; do load_profile "$p"; done
out=$RESULTS/bench
rm -rf "$out"
mkdir -p "$out"
csv=$out/bench.csv
: >"$csv"
: >"$out/not-measured.md"

for p in $profiles; do
	rc=0
	"$RCUVET_ROOT/scripts/vet.sh" "$p" bench "$out/$p" 2>"$out/$p.err" || rc=$?
	if [ $rc -eq 0 ]; then
		"$RCUVET_ROOT/scripts/bench-parse.sh" "$p" "$out/$p/console.log" >>"$csv"
	else
		why=$(grep -hs -m3 -E 'rcuvet: error|^FAIL' "$out/$p.err" "$out/$p/verdict.txt" |
			paste -sd';' - || true)
		note "$p not measured: ${why:-vet.sh status $rc}"
		printf -- '- `%s`: not measured: %s\n' "$p" "${why:-vet.sh status $rc}" >>"$out/not-measured.md"
	fi
done
"$RCUVET_ROOT/scripts/bench-report.sh" "$csv" "$out"
cat "$out/not-measured.md" >>"$out/bench.md"
step "bench: ${out#"$RCUVET_ROOT"/}/bench.md ($(wc -l <"$csv") measurements)"
