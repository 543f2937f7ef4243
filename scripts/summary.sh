#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# summary JSON TSV...: the closing lines of an invocation: every failure
# of its report (JSON, report-json.sh), a line each with its reason, a
# line per run whose reliance sites had no idle baseline applied, then
# the plain closing line over every test row of the given results files;
# exits 1 if any failed or if a file is missing.
. "$(dirname "$0")/lib.sh"

json=${1:?usage: summary.sh JSON TSV...}
shift
missing=0 existing=()
for f in "$@"; do
	if [ -f "$f" ]; then
		existing+=("$f")
	else
		echo "rcuvet: missing results: $f" >&2
		missing=$((missing + 1))
	fi
done
# The failures with the report's reasons; without a report, the rows'.
if ! jq -r -L "$RCUVET_ROOT/scripts" 'include "report"; terminal_failures' "$json" 2>/dev/null; then
	awk -F'\t' -v root="$RESULTS/" '$3 == "fail" {
		where = FILENAME
		sub(root, "", where)
		sub("/?results.tsv$", "", where)
		printf "FAILED: %s: %s %s\n", where, $2, $5
	}' /dev/null "${existing[@]}"
fi
# Runs whose reliance sites had no idle baseline applied.
jq -r -L "$RCUVET_ROOT/scripts" 'include "report"; terminal_notes' "$json" 2>/dev/null || true
awk -F'\t' -v missing=$missing '
	{ n[$3]++ }
	END {
		failed = n["fail"] + missing
		line = sprintf("%d passed, %d failed", n["pass"], failed)
		if (n["skip"]) line = line sprintf(", %d skipped", n["skip"])
		print line
		exit failed != 0
	}' /dev/null "${existing[@]}"
