#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# reliance-baseline.sh keys CONSOLE...
# reliance-baseline.sh subtract BASELINE [TSV]
#
# The kernel relies on RCU flavor consolidation itself, so the reliance
# report (guest/rcu-reliance, kernel/patches/0002-*) lists its sites
# beside those of the code under test.  "keys" prints the sites that the
# rcu-reliance lines of the consoles name, one a line, sorted: run on the
# console of a boot that ran no test (configs/plans/reliance-idle.plan),
# that is the kernel's own list, the baseline.  "subtract" reads the
# reliance rows that scripts/report.sh makes (HITS CONTEXT CHECK SITE,
# tab-separated; standard input without TSV) and prints those whose site
# is not in BASELINE, then "# N site(s) also in the idle boot (BASELINE),
# left out: KEY ...".
#
# A site's key is its function, so that a site matches across boots and
# builds: "f+0x1a/0x40" and its clones "f.constprop.0+0x.." are "f",
# "f+0x../0x.. [mod]" is "f [mod]", "file.c:f" stays whole.  A site of
# the code under test in a function that the idle boot also ran (a kernel
# helper that both call) is left out with the kernel's: the closing line
# names every key left out.
set -euo pipefail

usage="usage: reliance-baseline.sh keys CONSOLE... | subtract BASELINE [TSV]"

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

case ${1:-} in
keys)
	shift
	[ $# -gt 0 ] || { echo "$usage" >&2; exit 2; }
	# "rcu-reliance: HITS CONTEXT CHECK SITE"; not the summary lines.
	grep -ahoE 'rcu-reliance: [0-9]+ [^ ]+ [^ ]+ .*' "$@" | tr -d '\r' |
		awk "$KEY"'
		$3 != "site(s)" { sub(/^rcu-reliance: [0-9]+ [^ ]+ [^ ]+ /, ""); print key($0) }' |
		LC_ALL=C sort -u
	;;
subtract)
	[ $# -eq 2 ] || [ $# -eq 3 ] || { echo "$usage" >&2; exit 2; }
	base=$2
	[ -f "$base" ] || { echo "reliance-baseline.sh: no baseline $base" >&2; exit 2; }
	awk -F'\t' -v base="$base" "$KEY"'
	BEGIN { while ((getline l < base) > 0) if (l != "" && l !~ /^#/) known[l] = 1 }
	{
		k = key($4)
		if (!(k in known)) { print; next }
		n++
		if (!(k in said)) { said[k] = 1; left = left " " k }
	}
	END { printf "# %d site(s) also in the idle boot (%s), left out:%s\n", n, base, left }
	' "${3:-/dev/stdin}"
	;;
*)
	echo "$usage" >&2
	exit 2
	;;
esac
