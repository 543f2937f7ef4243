#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bench-parse PROFILE CONSOLE: one CSV row per measurement of a bench boot:
#   profile,source,metric,kind,median,min,max,n,unit
# from rcuvet_bench's "rcuvet-bench" lines, refscale's per-run averages
# ("Runs Time(ns)" table), rcuscale's per-grace-period durations
# ("writer-duration", printed when it is unloaded) and guest/sched-bench's
# "sched-bench: NAME median_ns=..." lines (metric sys_ns: ns per context
# switch or per system call).
set -euo pipefail

profile=${1:?usage: bench-parse.sh PROFILE CONSOLE}
console=${2:?usage: bench-parse.sh PROFILE CONSOLE}

sed -e 's/^\[[ 0-9.]*\] //' -e 's/\r$//' "$console" | awk -v profile="$profile" '
function stats(source, metric, kind, unit,   n, i, j, t) {
	n = nv
	if (!n)
		return
	for (i = 2; i <= n; i++) {	# insertion sort: small n
		t = v[i]
		for (j = i - 1; j >= 1 && v[j] > t; j--)
			v[j + 1] = v[j]
		v[j + 1] = t
	}
	printf "%s,%s,%s,%s,%s,%s,%s,%d,%s\n", profile, source, metric, kind,
		v[int(n / 2) + 1], v[1], v[n], n, unit
	nv = 0
}
/rcuvet-bench / {
	sub(/.*rcuvet-bench /, "")
	split($0, f, " ")
	for (i = 3; i <= 6; i++) { split(f[i], kv, "="); val[kv[1]] = kv[2] }
	unit = f[1] ~ /_ps$/ ? "ps" : "ns"
	printf "%s,rcuvet,%s,%s,%s,%s,%s,%s,%s\n", profile, f[1], f[2],
		val["median"], val["min"], val["max"], val["n"], unit
	next
}
/sched-bench: [a-z]+ median_ns=/ {
	sub(/.*sched-bench: /, "")
	delete val
	for (i = 2; i <= NF; i++) { split($i, kv, "="); val[kv[1]] = kv[2] }
	printf "%s,sched-bench,sys_ns,%s,%s,%s,%s,%s,ns\n", profile, $1,
		val["median_ns"], val["min_ns"], val["max_ns"], val["runs"]
	next
}
# refscale: "<type>-ref-scale: END OF TEST", "Runs\tTime(ns)", "<run>\t<ns>"
/-ref-scale: END OF TEST/ { reftype = $1; sub(/-ref-scale:$/, "", reftype); inref = 1; nv = 0; next }
inref && /^Runs\tTime/ { next }
inref && /^[0-9]+\t[0-9.]+$/ { split($0, f, "\t"); v[++nv] = f[2]; next }
inref { stats("refscale", "reader_ns", reftype, "ns"); inref = 0 }
# rcuscale: the start line names the flavor, durations follow on unload
/^[a-z-]+-scale:--- Start of test:/ && !/-ref-scale:/ {
	stype = $1; sub(/-scale:---$/, "", stype)
	expd = ($0 ~ /gp_exp=1/) ? "_expedited" : ""
	nv = 0
	next
}
/-scale: +[0-9]+ writer-duration:/ { v[++nv] = $NF; inscale = 1; next }
inscale && !/writer-duration/ { stats("rcuscale", "gp_ns", stype expd, "ns"); inscale = 0 }
END {
	if (inref) stats("refscale", "reader_ns", reftype, "ns")
	if (inscale) stats("rcuscale", "gp_ns", stype expd, "ns")
}'
