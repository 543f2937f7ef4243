#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# report TITLE OUTDIR: OUTDIR/report.md from the run's results.tsv and
# verdict.txt: what failed and why, then a table per suite.
. "$(dirname "$0")/lib.sh"

title=${1:?usage: report.sh TITLE OUTDIR}
out=${2:?usage: report.sh TITLE OUTDIR}
{
	printf '## %s\n\n' "$title"
	kver=$(grep -aom1 'Linux version [^ ]*' "$out/console.log" 2>/dev/null || true)
	printf -- '- kernel: %s\n' "${kver#Linux version }"
	printf -- '- verdict: %s\n' "$(grep -m1 '^verdict:' "$out/verdict.txt" | cut -d' ' -f2-)"
	printf -- '- files: console.log, ktap.txt, config, results.tsv\n'
	if [ -f "$out/boot.txt" ]; then
		printf '\n```\n'
		cat "$out/boot.txt"
		printf '```\n'
	fi
	if grep -q '^FAIL' "$out/verdict.txt"; then
		printf '\nWhy it failed:\n\n'
		grep '^FAIL' "$out/verdict.txt" | sed 's/^FAIL: /- /'
	fi
	suite_tables "$out/results.tsv"
} >"$out/report.md"
