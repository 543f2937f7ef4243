#!/usr/bin/env bash
# The report on canned results (tests/report/CASE/): results/ holds an
# invocation's results files, and for each run (a folder with a plan file)
# its console.log and config; args names the files the invocation
# finishes with.  Each run is judged by the real verdict and reported by
# report.sh, as vet.sh does; then the invocation's report.json, report.md
# and closing lines, as finish does.  What must come out (expect):
#   status N        summary.sh's exit status
#   summary TEXT    a line of report.md's summary (before "# Full results")
#                   contains TEXT
#   summary-not TEXT  no line of the summary does
#   full TEXT       a line of report.md contains TEXT
#   terminal TEXT   a line of the closing lines contains TEXT
#   terminal-not TEXT  no line of them does
#   terminal-last TEXT the last of them starts with TEXT
#   json EXPR       jq -e EXPR holds on report.json
# baselines/ holds the idle baselines of the reliance report
# (RELIANCE_BASELINES; none when it is not there); tree.id is the 6.12
# tree's id file (scripts/tree.sh), @KBUILD@ standing for the build
# folder, a new one each case (none when it is not there).  Every report.json must
# also match docs/report.schema.json and count what the closing line
# counts, and every summary fit a screen (60 lines).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
unset KSRC PATCHES TREE RCUVET_TREE
export RCUVET_KERNEL_BUILD=$t/kbuild
# shellcheck source=/dev/null
. "$root/scripts/lib.sh"
set +e
bin=$(host_tool verdict) || { echo "no verdict tool"; exit 1; }
export RESULTS=$t/results
S=$root/scripts

for case in "$root"/tests/report/*/; do
	name=$(basename "$case")
	export RELIANCE_BASELINES=$case/baselines
	RCUVET_KERNEL_BUILD=$t/kbuild-$name
	mkdir -p "$RCUVET_KERNEL_BUILD/tree"
	[ ! -f "$case/tree.id" ] ||
		sed "s|@KBUILD@|$RCUVET_KERNEL_BUILD|g" "$case/tree.id" >"$RCUVET_KERNEL_BUILD/tree/debian.id"
	rm -rf "$RESULTS"
	cp -r "$case/results" "$RESULTS"
	while read -r plan; do
		d=$(dirname "$plan")
		"$bin" --plan "$plan" --console "$d/console.log" --results "$d/results.tsv" \
			--ktap "$d/ktap.txt" >"$d/verdict.txt"
		"$S/report.sh" debug check "$d" "$(($(date +%s) - 300))" booted >"$t/out" 2>&1 ||
			{ echo "$name: report.sh of ${d#"$RESULTS"/} failed:"; cat "$t/out"; }
	done < <(find "$RESULTS" -name plan)
	read -ra files <"$case/args"
	tsvs=("${files[@]/#/$RESULTS/}")
	"$S/report-json.sh" "$RESULTS/report.json" "make check" "${tsvs[@]}" >"$t/out" 2>&1 ||
		{ echo "$name: report-json.sh failed:"; cat "$t/out"; continue; }
	"$S/report-md.sh" "$RESULTS/report.json" >"$RESULTS/report.md" 2>"$t/out" ||
		{ echo "$name: report-md.sh failed:"; cat "$t/out"; continue; }
	sed '/^# Full results$/q' "$RESULTS/report.md" >"$t/summary"
	rc=0
	"$S/summary.sh" "$RESULTS/report.json" "${tsvs[@]}" >"$t/terminal" 2>/dev/null || rc=$?
	totals=$(jq -r '.totals | "\(.passed) passed, \(.failed) failed"
		+ (if .skipped > 0 then ", \(.skipped) skipped" else "" end)' "$RESULTS/report.json")
	[ "$(tail -n 1 "$t/terminal")" = "$totals" ] ||
		echo "$name: report.json counts '$totals', the closing line '$(tail -n 1 "$t/terminal")'"
	[ "$(wc -l <"$t/summary")" -le 60 ] ||
		echo "$name: the summary takes $(wc -l <"$t/summary") lines, more than a screen"
	jq -e -L "$root/scripts" --slurpfile schema "$root/docs/report.schema.json" \
		'include "schema"; schema_errors($schema[0]) | if . == [] then true else (.[:5][] | debug) | false end' \
		"$RESULTS/report.json" >/dev/null 2>"$t/out" ||
		{ echo "$name: report.json does not match docs/report.schema.json:"; cat "$t/out"; }
	while read -r kind arg; do
		case $kind in
		status) [ "$rc" = "$arg" ] || echo "$name: summary.sh exit status $rc, not $arg" ;;
		summary) grep -qF -- "$arg" "$t/summary" || echo "$name: the summary does not say '$arg'" ;;
		summary-not) ! grep -qF -- "$arg" "$t/summary" || echo "$name: the summary says '$arg'" ;;
		full) grep -qF -- "$arg" "$RESULTS/report.md" || echo "$name: report.md does not say '$arg'" ;;
		terminal) grep -qF -- "$arg" "$t/terminal" || echo "$name: the closing lines do not say '$arg'" ;;
		terminal-not)
			! grep -qF -- "$arg" "$t/terminal" || echo "$name: the closing lines say '$arg'"
			;;
		terminal-last)
			case $(tail -n 1 "$t/terminal") in
			"$arg"*) ;;
			*) echo "$name: the last closing line is '$(tail -n 1 "$t/terminal")', not '$arg...'" ;;
			esac
			;;
		json)
			jq -e "$arg" "$RESULTS/report.json" >/dev/null 2>&1 ||
				echo "$name: report.json: not $arg"
			;;
		"" | "#"*) ;;
		*) echo "$name: bad expect line: $kind $arg" ;;
		esac
	done <"$case/expect"
done
