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
	# The kernel's report of readers relying on flavor consolidation
	# (CONFIG_RCU_CONSOLIDATION_RELIANCE), when a plan step showed it.
	if grep -aq 'rcu-reliance: [0-9]' "$out/console.log" 2>/dev/null; then
		printf '\n### Readers relying on RCU flavor consolidation\n\n'
		printf 'hits, context, check, site (kernel/patches/0002-*; docs/emulate-4.19.md):\n\n```\n'
		grep -ao 'rcu-reliance: .*' "$out/console.log" | sed 's/^rcu-reliance: //'
		printf '```\n'
	fi
} >"$out/report.md"
