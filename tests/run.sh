#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of the pipeline, no kernel needed.  tests/pipeline/*.sh are
# scripts that print what went wrong, or nothing.  tests/verdict/CASE/ runs
# the verdict on a canned console log: console.log, the plan it was run
# with (plan, or several NAME.plan run one after the other in one boot) and
# what the verdict must conclude (expect):
#   status N        the verdict's exit status
#   says TEXT       a line of its output contains TEXT
#   counts TEXT     its summary reads "verdict: ..., TEXT"
#   row TEST RESULT the results file has TEST with RESULT
# Writes one row per case to TSV; exits 1 if any case fails.
. "$(dirname "$0")/../scripts/lib.sh"
# The tests set up the runs they check: not those of a run on a LAVA lab
# (make check LAVA=..., scripts/lava.sh) that runs them, nor the other
# trees of the make check that runs them (CHECK_TREES=6.1:debug).
unset LAVA ARTIFACT_URL LAVA_DIR RCUVET_LAVA_PASS CHECK_TREES

tsv=${1:?usage: tests/run.sh TSV}
mkdir -p "$(dirname "$tsv")"
: >"$tsv"
bin=$(host_tool verdict)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0

# check_case DIR: print what does not hold, if anything.
check_case() {
	local dir=$1 rc=0 kind arg plan plans=()

	for plan in "$dir"/plan "$dir"/*.plan; do
		[ ! -f "$plan" ] || plans+=(--plan "$plan")
	done
	"$bin" "${plans[@]}" --console "$dir/console.log" \
		--results "$work/results.tsv" >"$work/out" 2>&1 || rc=$?
	while read -r kind arg; do
		case "$kind" in
		status) [ "$rc" = "$arg" ] || echo "exit status $rc, not $arg" ;;
		says) grep -qF -- "$arg" "$work/out" || echo "output does not say '$arg'" ;;
		counts) grep -qF -- ", $arg" "$work/out" || echo "counts are not '$arg'" ;;
		row)
			awk -F'\t' -v t="${arg% *}" -v r="${arg##* }" \
				'$2 == t && $3 == r { f = 1 } END { exit !f }' "$work/results.tsv" ||
				echo "no row '$arg'"
			;;
		"" | "#"*) ;;
		*) echo "bad expect line: $kind $arg" ;;
		esac
	done <"$dir/expect"
}

# record NAME WHY: one row; WHY empty means it passed.
record() {
	if [ -z "$2" ]; then
		printf 'host-tests\t%s\tpass\t0\t\n' "$1" >>"$tsv"
	else
		note "$1: $2"
		printf 'host-tests\t%s\tfail\t0\t%s\n' "$1" "$2" >>"$tsv"
		failed=1
	fi
}

for dir in "$RCUVET_ROOT"/tests/verdict/*/; do
	why=$(check_case "$dir" | paste -sd';' -)
	[ -z "$why" ] || sed 's/^/        /' "$work/out"
	record "verdict.$(basename "$dir")" "$why"
done
for t in "$RCUVET_ROOT"/tests/pipeline/*.sh; do
	record "pipeline.$(basename "$t" .sh)" "$("$t" 2>&1 | paste -sd';' -)"
done
note "$(awk -F'\t' '{ n[$3]++ } END { printf "%d passed, %d failed", n["pass"], n["fail"] }' "$tsv")"
exit $failed
