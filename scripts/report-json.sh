#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# report-json JSON COMMAND TSV...: the report of one invocation (make check,
# make run, ...) as JSON (docs/report.md): a results.tsv with its run.json
# beside it (report.sh) is a run; any other results file (host tests,
# controls, coverage, mutants) a suite of its own; a missing file is a
# failure.  COMMAND names the invocation.
. "$(dirname "$0")/lib.sh"

json=${1:?usage: report-json.sh JSON COMMAND TSV...}
command=${2:?usage: report-json.sh JSON COMMAND TSV...}
shift 2
here=$RCUVET_ROOT/scripts
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/runs"
: >"$tmp/suites"
: >"$tmp/places"
: >"$tmp/missing"

# rel PATH: PATH as the user finds it from the checkout; name PATH: as it
# is under results/.
rel() {
	printf '%s\n' "${1#"$RCUVET_ROOT"/}"
}
name() {
	printf '%s\n' "${1#"$RESULTS"/}"
}

# place NAME CONSOLE VERDICT [LABEL]: where a control's or a mutant's run
# is, and its verdict's lines (LABEL: its own, in a shared boot).
place() {
	local ctx

	ctx=$( { grep -sF -- "FAIL: ${4:+$4:}" "$3" | head -3; grep -s '^verdict:' "$3"; } |
		tr '\t\037' '  ' | paste -sd$'\037' - || true)
	printf '%s\t%s\t%s\n' "$1" "$(rel "$2")" "$ctx" >>"$tmp/places"
}

# places TSV: place each failed control or mutant of TSV.
places() {
	local suite test result dir

	while IFS=$'\t' read -r suite test result _; do
		[ "$result" = fail ] || continue
		case $suite in
		controls)
			for dir in "$RESULTS"/*/controls/"$test" "$RESULTS"/*/controls/*/"$test"; do
				if [ -f "$dir/console.log" ]; then
					place "$test" "$dir/console.log" "$dir/verdict.txt"
					break
				elif [ -f "$dir/verdict.txt" ] && [ -f "$dir/../console.log" ]; then
					place "$test" "$(dirname "$dir")/console.log" "$dir/verdict.txt" "$test"
					break
				fi
			done
			;;
		mutants)
			dir=$RESULTS/mutants/$test
			[ ! -f "$dir/console.log" ] || place "$test" "$dir/console.log" "$dir/verdict.txt"
			;;
		esac
	done <"$1"
}

for f in "$@"; do
	if [ ! -f "$f" ]; then
		name "$f" >>"$tmp/missing"
	elif [ "$(basename "$f")" = results.tsv ] && [ -f "$(dirname "$f")/run.json" ]; then
		cat "$(dirname "$f")/run.json" >>"$tmp/runs"
	elif [ "$(basename "$f")" = results.tsv ]; then
		# a run that stopped before its verdict (vet_profile's row)
		jq -R -s -L "$here" --arg name "$(name "$(dirname "$f")")" \
			--arg dir "$(rel "$(dirname "$f")")" '
			include "report";
			(tsv(.) | map(case_of)) as $cases
			| {name: $name, profile: ($name | split("/") | last), plan: null, tree: null, tree_id: null,
			   kernel: null, kernel_build: null, config: {}, verdict: "none", boot: "none",
			   seconds: null, guest_seconds: null, dir: $dir, console: null,
			   reliance_baseline: null}
			+ counts($cases) + {cases: $cases,
			   failures: [$cases[] | select(.result == "fail") | {
				where: $name, suite, case: .test, kind: "other", reason: .detail,
				console: null, line: 0, context: []}],
			   findings: {xdp: [], reliance: []}}' "$f" >>"$tmp/runs"
	else
		jq -R -s -L "$here" --arg name "$(name "$f" | sed 's/\.tsv$//')" --arg file "$(rel "$f")" \
			'include "report"; {name: $name, file: $file, cases: (tsv(.) | map(case_of))}' \
			"$f" >>"$tmp/suites"
		places "$f"
	fi
done

jq -n -L "$here" --arg command "$command" \
	--arg rcuvet "$(git -C "$RCUVET_ROOT" describe --always --dirty 2>/dev/null || true)" \
	--arg started "${_rcuvet_t0:-}" --arg now "$(date +%s)" \
	--slurpfile runs "$tmp/runs" --slurpfile suites "$tmp/suites" \
	--rawfile places "$tmp/places" --rawfile missing "$tmp/missing" '
	include "report";
	{
		command: $command,
		rcuvet: (if $rcuvet == "" then null else $rcuvet end),
		started: (if $started == "" then null else $started | tonumber end),
		seconds: (if $started == "" then null else ($now | tonumber) - ($started | tonumber) end),
		runs: $runs, suites: $suites,
		places: (tsv($places) | map({key: .[0], value: {
			console: .[1], context: (.[2] // "" | if . == "" then [] else split("\u001f") end)
		}}) | from_entries),
		missing: ($missing | split("\n") | map(select(. != "")))
	} | report_of_runs' >"$json"
