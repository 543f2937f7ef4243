#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bench-smoke RUNDIR TSV: the bench pipeline on a check run's console, so
# that make check keeps it from rotting: rcuvet_bench ran (tiny counts) in
# the check plan; its lines must parse into every metric and the report
# and plots must come out.  One row in TSV.
. "$(dirname "$0")/lib.sh"

run=${1:?usage: bench-smoke.sh RUNDIR TSV}
tsv=${2:?usage: bench-smoke.sh RUNDIR TSV}
out=$run/bench
mkdir -p "$out"
why=""
"$RCUVET_ROOT/scripts/bench-parse.sh" "$(basename "$run")" "$run/console.log" >"$out/bench.csv" ||
	why="bench-parse failed"
for metric in reader_ps gp_ns gp_under_readers_ns; do
	grep -q ",rcuvet,$metric," "$out/bench.csv" || why="$why no $metric rows;"
done
"$RCUVET_ROOT/scripts/bench-report.sh" "$out/bench.csv" "$out" >/dev/null 2>&1 ||
	why="$why bench-report failed;"
for f in bench.md reader_cost.png gp_latency.svg; do
	[ -s "$out/$f" ] || why="$why no $f;"
done
printf 'bench\tpipeline-on-%s\t%s\t0\t%s\n' "$(basename "$run")" \
	"$([ -z "$why" ] && echo pass || echo fail)" "$why" >"$tsv"
[ -z "$why" ]
