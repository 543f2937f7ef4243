#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# reliance-baseline.sh baseline RUNDIR
# reliance-baseline.sh required [PLAN...]
# reliance-baseline.sh mark BASELINE|- [TSV]
#
# The kernel relies on RCU flavor consolidation itself, so the reliance
# report (guest/rcu-reliance, kernel/patches/0002-*) lists its sites
# beside those of the code under test.  "baseline" prints the sites of
# the run in RUNDIR (vet.sh's folder: console.log, run.json), "SITE<TAB>
# CHECK<TAB>CONTEXT" a line, sorted: for a boot that ran no test
# (configs/plans/reliance-idle.plan), the kernel's own list, the
# baseline.  It takes them from run.json's findings.reliance, the rows
# report.sh parsed from the console (one parser for both), and puts them
# under "# " lines that say where they came from (tree and tree_id,
# profile, kernel, config, rcuvet's commit, date, the report's own
# summary); it fails when the console has no complete report, when a
# site is of the code under test (below), and, unless FORCE=1, when the
# idle boot's verdict is not PASS, its report lost hits or lockdep was
# off (the header's "# flaws:" line says which).  report.sh applies a
# baseline only to a run of the same tree_id, config sha1, kernel release
# and profile.  "mark" reads the reliance rows that scripts/report.sh
# makes (HITS CONTEXT CHECK SITE, tab-separated; standard input without
# TSV) and prints each with two more columns: its origin, "under-test"
# (the code under test, whatever BASELINE says; the sixth column says
# why), else "kernel" when BASELINE names its site, "new" when not, and
# "unknown" when BASELINE is "-" (no baseline applied).  By hand, a
# run's rows without the kernel's own: "mark BASELINE TSV | awk -F'\t'
# '$5 != "kernel"'".
#
# The code under test, never the kernel's own (never left out of a
# report): a site that a plan's rcu-reliance step requires, a
# FILE:FUNCTION site (rcu_reliance_mark_reader(), placed only on the code
# under test: the seed commits' flushes), and a module's site.  "required"
# prints the checks that require a site, one a line, as the plans write
# them, with the plans that do, tab-separated: every CHECK of a "program
# rcu-reliance CHECK..." line of PLAN... (configs/plans/*.plan) but the
# "absent" ones; a site meets them as guest/rcu-reliance.c says, "site
# NAME" by function, a SUBSTRING anywhere in "HITS CONTEXT CHECK SITE".
# Read from the plans, so that the seed sites that check.plan and
# run.plan require (the devmap and cpumap lookups and bulk-queue
# flushes) are the code under test however a baseline was made.
#
# A site is the kernel's when the baseline has the same site, offset and
# size included ("f.constprop.0+0x1a/0x40 [mod]"), with every check and
# every context the run's row names (words joined by "+"): a new reader
# in a function that the idle boot ran has another offset, a reader that
# the idle boot ran under another check or in another context is new,
# and two static functions of one name have their own sizes.  An exact
# match is right because report.sh applies a baseline only to the same
# tree, config and kernel release, that is the same code; a rebuild that
# moved code errs on the safe side: its sites are new.
set -euo pipefail

usage="usage: reliance-baseline.sh baseline RUNDIR | required [PLAN...] | mark BASELINE|- [TSV]"
plans=$(cd "$(dirname "$0")/../configs/plans" && pwd)

# required [PLAN...]: "CHECK<TAB>PLAN, PLAN" for each check of a plan's
# rcu-reliance steps that requires a site, in the order first seen.
required() {
	[ $# -gt 0 ] || set -- "$plans"/*.plan
	awk -v OFS='\t' '
	$1 == "program" && $2 == "rcu-reliance" {
		plan = FILENAME
		sub(/.*\//, "", plan)
		for (i = 3; i <= NF; i++) {
			absent = site = 0
			if ($i == "--reset")
				continue
			if ($i == "absent") { absent = 1; i++ }
			# "bh site NAME": required, but on PREEMPT_RT
			if ($i == "bh") i++
			if ($i == "site") { site = 1; i++ }
			if (i > NF || absent)
				continue
			c = (site ? "site " : "") $i
			if (!(c in by))
				order[++n] = c
			if (index(", " by[c] ", ", ", " plan ", ") == 0)
				by[c] = (by[c] == "" ? "" : by[c] ", ") plan
		}
	}
	END { for (j = 1; j <= n; j++) print order[j], by[order[j]] }' "$@"
}

# mark BASELINE|- [TSV]: each row with its origin and why it is under test.
mark() {
	REQUIRED=$(required) awk -F'\t' -v OFS='\t' -v base="$1" '
	BEGIN {
		nreq = split(ENVIRON["REQUIRED"], rl, "\n")
		for (j = 1; j <= nreq; j++) {
			split(rl[j], r, "\t")
			check[j] = r[1]
			by[j] = r[2]
		}
		if (base != "-")
			while ((getline l < base) > 0) {
				if (l == "" || l ~ /^#/ || split(l, f, "\t") != 3)
					continue
				words(f[2], checks, f[1])
				words(f[3], contexts, f[1])
				known[f[1]] = 1
			}
	}
	# words(TEXT, SET, SITE): the words of TEXT ("a+b") into SET[SITE, WORD].
	function words(t, set, s,  w, n, i) {
		n = split(t, w, "+")
		for (i = 1; i <= n; i++)
			if (w[i] != "-")
				set[s, w[i]] = 1
	}
	# among(TEXT, SET, SITE): is every word of TEXT in SET[SITE, ...]?
	function among(t, set, s,  w, n, i) {
		n = split(t, w, "+")
		for (i = 1; i <= n; i++)
			if (w[i] != "-" && !((s, w[i]) in set))
				return 0
		return 1
	}
	# in_function(SITE, NAME): "site NAME" of guest/rcu-reliance.c.
	function in_function(s, name,  n, c, f) {
		n = length(name)
		if (index(name, ":"))
			return s == name
		c = substr(s, n + 1, 1)
		if (substr(s, 1, n) == name && (c == "+" || c == "."))
			return 1
		if (index(s, "+"))
			return 0
		f = s
		sub(/.*:/, "", f)
		return f != s && f == name
	}
	# under_test(LINE, SITE): why the site is of the code under test, or "".
	function under_test(line, s,  j) {
		for (j = 1; j <= nreq; j++)
			if (check[j] ~ /^site / ? in_function(s, substr(check[j], 6)) : index(line, check[j]))
				return check[j] " (" by[j] ")"
		if (index(s, ":") && !index(s, "+"))
			return "a FILE:FUNCTION mark"
		if (s ~ / \[[^]]+\]$/)
			return "a module'"'"'s site"
		return ""
	}
	{
		why = under_test($1 " " $2 " " $3 " " $4, $4)
		if (why != "")
			origin = "under-test"
		else if (base == "-")
			origin = "unknown"
		else
			origin = $4 in known && among($3, checks, $4) && among($2, contexts, $4) ? "kernel" : "new"
		print $1, $2, $3, $4, origin, why
	}
	' "${2:-/dev/stdin}"
}

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
	# An idle boot that failed, lost hits or had lockdep off may miss some
	# of the kernel's sites: refused, unless FORCE=1, and then said in the
	# header ("# flaws:"), which the report shows.
	flaws=$(awk '
		/^# report: lockdep is off/ { printf "lockdep was off; " }
		{
			while (match($0, /[0-9]+ (hits lost|not recorded)/)) {
				lost += substr($0, RSTART, RLENGTH) + 0
				$0 = substr($0, RSTART + RLENGTH)
			}
		}
		END { if (lost) printf "%d hits lost; ", lost }' <<<"$summary")
	verdict=$(jq -r .verdict "$run/run.json")
	[ "$verdict" = PASS ] || flaws="verdict $verdict; $flaws"
	flaws=${flaws%; }
	[ -z "$flaws" ] || [ "${FORCE:-0}" = 1 ] || {
		echo "reliance-baseline.sh: the idle boot of $run/console.log may miss sites of the kernel ($flaws): no baseline; FORCE=1 writes it all the same" >&2
		exit 1
	}
	# Never a site of the code under test: the plans require it, or it is
	# a mark or a module's, and an idle boot that ran it is no baseline.
	tested=$(jq -r '(.findings.reliance // [])[] | [.hits, .context, .check, .site] | @tsv' "$run/run.json" |
		mark - | awk -F'\t' '$5 == "under-test" { printf "  %s: %s\n", $4, $6 }')
	[ -z "$tested" ] || {
		printf 'reliance-baseline.sh: the reliance report of %s lists sites of the code under test, which no idle baseline may hold:\n%s\n' \
			"$run/console.log" "$tested" >&2
		exit 1
	}
	tree=
	[ "${RCUVET_TREE:-6.12}" = 6.12 ] || tree="TREE=$RCUVET_TREE "
	jq -r --arg date "$(date -u +%FT%TZ)" --arg tree "$tree" \
		--arg flaws "$flaws" --arg rcuvet "$(git -C "$(dirname "$0")" describe --always --dirty 2>/dev/null || echo unknown)" '
		"# The kernel'"'"'s own sites of the reliance report: an idle boot (plan \(.plan))",
		"# tree: \(.tree)", "# tree_id: \(.tree_id // "unknown")", "# profile: \(.profile)",
		"# kernel: \(.kernel // "unknown") \(.kernel_build // "")",
		"# config: \(.config.sha1 // "unknown")", "# verdict: \(.verdict)", "# rcuvet: \($rcuvet)",
		"# flaws: \(if $flaws == "" then "none" else "\($flaws) (written with FORCE=1)" end)",
		"# console: \(.console)", "# date: \($date)",
		"# made by: make reliance-baseline \($tree)PROFILE=\(.profile) (scripts/reliance-idle.sh)"' "$run/run.json"
	printf '%s\n' "$summary"
	jq -r '(.findings.reliance // [])[] | [.site, .check, .context] | @tsv' "$run/run.json" | LC_ALL=C sort -u
	;;
required)
	shift
	required "$@"
	;;
mark)
	[ $# -eq 2 ] || [ $# -eq 3 ] || { echo "$usage" >&2; exit 2; }
	[ -f "$2" ] || [ "$2" = - ] || { echo "reliance-baseline.sh: no baseline $2" >&2; exit 2; }
	mark "$2" "${3:-}"
	;;
*)
	echo "$usage" >&2
	exit 2
	;;
esac
