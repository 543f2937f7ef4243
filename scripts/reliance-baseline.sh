#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# reliance-baseline.sh baseline RUNDIR
# reliance-baseline.sh mark BASELINE [TSV]
# reliance-baseline.sh subtract BASELINE [TSV]
#
# The kernel relies on RCU flavor consolidation itself, so the reliance
# report (guest/rcu-reliance, kernel/patches/0002-*) lists its sites
# beside those of the code under test.  "baseline" prints the sites of
# the run in RUNDIR (vet.sh's folder: console.log, run.json), by key, one
# a line, sorted: for a boot that ran no test
# (configs/plans/reliance-idle.plan), the kernel's own list, the
# baseline.  It takes them from run.json's findings.reliance, the rows
# report.sh parsed from the console (one parser for both), and puts them
# under "# " lines that say where they came from (tree and tree_id,
# profile, kernel, config, rcuvet's commit, date, the report's own
# summary); it fails when the console has no complete report.  report.sh
# applies a baseline only to a run of the same tree_id, config sha1,
# kernel release and profile.  "mark" reads the reliance rows that
# scripts/report.sh makes (HITS CONTEXT CHECK SITE, tab-separated;
# standard input without TSV) and prints each with a fifth column,
# "kernel" when BASELINE names its site, else "new".  "subtract" prints
# the rows whose site is not in BASELINE, then "# N site(s) also in the
# idle boot (BASELINE), left out: KEY ...".
#
# A site's key is its function, so that a site matches across boots and
# builds: "f+0x1a/0x40" and its clones "f.constprop.0+0x.." are "f",
# "f+0x../0x.. [mod]" is "f [mod]", "file.c:f" stays whole.  A site of
# the code under test in a function that the idle boot also ran (a kernel
# helper that both call) is the kernel's with it: the closing line names
# every key left out.
set -euo pipefail

usage="usage: reliance-baseline.sh baseline RUNDIR | mark BASELINE [TSV] | subtract BASELINE [TSV]"

# KEY: the awk function key(SITE).
KEY='
function key(s,  w) {
	gsub(/\+0x[0-9a-f]+\/0x[0-9a-f]+/, "", s)
	if (s ~ /:/)
		return s
	split(s, w, " ")
	sub(/\..*/, "", w[1])
	return w[1] (w[2] != "" ? " " w[2] : "")
}'

# mark BASELINE [TSV]: each row with "kernel" or "new" appended.
mark() {
	awk -F'\t' -v OFS='\t' -v base="$1" "$KEY"'
	BEGIN { while ((getline l < base) > 0) if (l != "" && l !~ /^#/) known[l] = 1 }
	{ print $0, (key($4) in known) ? "kernel" : "new" }
	' "${2:-/dev/stdin}"
}

case ${1:-} in
mark | subtract)
	[ $# -eq 2 ] || [ $# -eq 3 ] || { echo "$usage" >&2; exit 2; }
	[ -f "$2" ] || { echo "reliance-baseline.sh: no baseline $2" >&2; exit 2; }
	;;
esac

case ${1:-} in
baseline)
	[ $# -eq 2 ] || { echo "$usage" >&2; exit 2; }
	run=$2
	# The report's own lines after its column header: how many sites,
	# what it lost, whether lockdep was on.
	summary=$(grep -ahoE 'rcu-reliance: # .*' "$run/console.log" 2>/dev/null | tr -d '\r' |
		grep -v ': # RCU readers relying' | sed 's/^rcu-reliance: #/# report:/') || true
	grep -qE '^# report: [0-9]+ sites?\b' <<<"$summary" ||
		{ echo "reliance-baseline.sh: no complete reliance report in $run/console.log" >&2; exit 1; }
	jq -r --arg date "$(date -u +%FT%TZ)" \
		--arg rcuvet "$(git -C "$(dirname "$0")" describe --always --dirty 2>/dev/null || echo unknown)" '
		"# The kernel'"'"'s own sites of the reliance report: an idle boot (plan \(.plan))",
		"# tree: \(.tree)", "# tree_id: \(.tree_id // "unknown")", "# profile: \(.profile)",
		"# kernel: \(.kernel // "unknown") \(.kernel_build // "")",
		"# config: \(.config.sha1 // "unknown")", "# verdict: \(.verdict)", "# rcuvet: \($rcuvet)",
		"# console: \(.console)", "# date: \($date)",
		"# made by: make reliance-baseline PROFILE=\(.profile) (scripts/reliance-idle.sh)"' "$run/run.json"
	printf '%s\n' "$summary"
	jq -r '(.findings.reliance // [])[].site' "$run/run.json" | awk "$KEY"'{ print key($0) }' | LC_ALL=C sort -u
	;;
mark)
	mark "$2" "${3:-}"
	;;
subtract)
	mark "$2" "${3:-}" | awk -F'\t' -v OFS='\t' -v base="$2" "$KEY"'
	$5 == "new" { print $1, $2, $3, $4; next }
	{
		n++
		k = key($4)
		if (!(k in said)) { said[k] = 1; left = left " " k }
	}
	END { printf "# %d site(s) also in the idle boot (%s), left out:%s\n", n, base, left }
	'
	;;
*)
	echo "$usage" >&2
	exit 2
	;;
esac
