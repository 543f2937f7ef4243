#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# verdict PLAN OUTDIR: judge OUTDIR/console.log against the plan; writes
# results.tsv, ktap.txt and verdict.txt to OUTDIR, exits 1 on failure.
. "$(dirname "$0")/lib.sh"

plan=${1:?usage: verdict.sh PLAN OUTDIR}
out=${2:?usage: verdict.sh PLAN OUTDIR}
bin=$(host_tool verdict)
args=()
for f in $(plan_files "$plan"); do
	args+=(--plan "$f")
done

rc=0
"$bin" "${args[@]}" --console "$out/console.log" --results "$out/results.tsv" \
	--ktap "$out/ktap.txt" >"$out/verdict.txt" || rc=$?
[ $rc -le 1 ] || die "verdict could not read $out/console.log"
grep -E '^(FAIL|verdict)' "$out/verdict.txt" | sed 's/^/    /'
exit $rc
