# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# mutant-killer.sh, sourced by mutants.sh (and its host test): what
# killed a mutant's run, judged against the Killed-by: line of its header.

# named_cases RESULTS GLOB: "F of N named cases failed", N the tests of
# RESULTS (a results.tsv) that match GLOB, F those of them that failed.
named_cases() {
	local test result n=0 f=0

	while IFS=$'\t' read -r _ test result _; do
		# shellcheck disable=SC2053 # a glob
		[[ $test == $2 ]] || continue
		n=$((n + 1))
		[ "$result" != fail ] || f=$((f + 1))
	done <"$1"
	echo "$f of $n named cases failed"
}

# killer OUTDIR GLOB: "killed by T1,T2,T3 (F of N named cases failed)",
# the first failed tests of the run in OUTDIR that match GLOB, or, for a
# GLOB "splat: TEXT", the verdict line that says TEXT; else "not by GLOB
# but: " what failed instead.  A partial kill (F < N) still kills: some
# named cases may pass on a mutant by design (docs/mutants.md), and the
# count shows it on every run.
killer() {
	local hit t

	if [ "${2#splat: }" != "$2" ]; then
		hit=$(grep -m1 -F -- "${2#splat: }" "$1/verdict.txt" | sed 's/^FAIL: //' || true)
	else
		hit=$(awk -F'\t' '$3 == "fail" { print $2 }' "$1/results.tsv" |
			while read -r t; do
				# shellcheck disable=SC2053 # a glob
				if [[ $t == $2 ]]; then echo "$t"; fi
			done | head -3 | paste -sd, -)
		[ -z "$hit" ] || hit="$hit ($(named_cases "$1/results.tsv" "$2"))"
	fi
	if [ -n "$hit" ]; then
		echo "killed by $hit"
	else
		echo "not by '$2' but: $(grep -m2 '^FAIL' "$1/verdict.txt" | sed 's/^FAIL: //' | paste -sd';' -)"
	fi
}

# mutants_table TSV: results/mutants/report.md from mutants.tsv, a row a
# mutant, the named-case count of a kill in a column of its own.
mutants_table() {
	printf '# Kernel mutants\n\n| mutant | killed | by | named cases failed | time (s) |\n'
	printf '|---|---|---|---|---|\n'
	awk -F'\t' '{
		by = $5; named = "-"
		if (match(by, / \([0-9]+ of [0-9]+ named cases failed\)$/)) {
			named = substr(by, RSTART + 2, RLENGTH - 3)
			sub(/ named cases failed$/, "", named)
			by = substr(by, 1, RSTART - 1)
		}
		printf "| %s | %s | %s | %s | %s |\n", $2, $3 == "pass" ? "yes" : "NO", by, named, $4
	}' "$1"
}
