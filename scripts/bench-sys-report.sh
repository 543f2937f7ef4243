#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bench-sys-report CSV PROFILES: bench-sys.md from bench-sys.sh's rows
# (the boot number, then bench-parse's columns).  For each measure of
# guest/sched-bench and each profile: the median over the boots of each
# boot's median in ns, and of its multiple of getuid() in the same boot
# (a system call without an RCU reader, meant to cancel TCG's speed from
# boot to boot; between two builds it does not: getuid() itself runs at
# different speeds, docs/bench.md), each with its range over the boots.
# Then, for each profile after the first, the first's multiple over its
# own and the first's ns over its own, boot by boot (below 1: the first
# is faster): the median and range of those ratios, so that the spread
# between boots is seen beside the difference.
. "$(dirname "$0")/lib.sh"

csv=${1:?usage: bench-sys-report.sh CSV PROFILES}
profiles=${2:?usage: bench-sys-report.sh CSV PROFILES}

awk -F, -v profiles="$profiles" '
function f(x) {
	return x >= 100 ? sprintf("%.0f", x) : x >= 10 ? sprintf("%.1f", x) : sprintf("%.3f", x)
}
# med(A, N): the median of A[1..N], sorted in place; "" when N is 0.
function med(a, n,   i, j, t) {
	for (i = 2; i <= n; i++) {
		t = a[i]
		for (j = i - 1; j >= 1 && a[j] > t; j--)
			a[j + 1] = a[j]
		a[j + 1] = t
	}
	return n ? (n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2) : ""
}
# val(BOOT, PROFILE, MEASURE): its median in ns, 0 when not measured
# (without creating the entry).
function val(b, pr, m) {
	return (b, pr, m) in v ? v[b, pr, m] : 0
}
# cell(A, N, PRE): "PRE<median> (<min>-<max>, N boots)" or "-".
function cell(a, n, pre,   m) {
	if (!n)
		return "-"
	m = med(a, n)
	return pre f(m) " (" pre f(a[1]) " to " pre f(a[n]) (n > 1 ? ", " n " boots" : ", 1 boot") ")"
}
$3 == "sched-bench" && $4 == "sys_ns" {
	v[$1, $2, $5] = $6
	if (!($5 in seen)) { seen[$5] = 1; rows[++nr] = $5 }
	if ($1 > nb) nb = $1
}
END {
	np = split(profiles, p, " ")
	printf "### System level, %d boots of each profile\n\n", nb
	if (!nr) {
		print "guest/sched-bench measured nothing."
		exit
	}
	print "`make bench-sys` (scripts/bench-sys.sh): guest/sched-bench in each boot, the profiles booted in turn.  Each cell: the median over the boots of the boot'"'"'s median (ns per context switch, per call), and its range over the boots; \"x getuid\": the same as a multiple of `getuid()` (no RCU reader) in the same boot."
	if (np > 1)
		printf "\"%s / P\": %s'"'"'s multiple over P'"'"'s, boot by boot (below 1: %s is faster), the median of the boots'"'"' ratios and their range; \"ns\" the same of the nanoseconds.\n", p[1], p[1], p[1]
	printf "\n| measure |"
	for (j = 1; j <= np; j++)
		printf " %s ns | %s x getuid |", p[j], p[j]
	for (j = 2; j <= np; j++)
		printf " %s / %s | %s / %s, ns |", p[1], p[j], p[1], p[j]
	printf "\n|---|"
	for (j = 1; j <= np; j++)
		printf "---|---|"
	for (j = 2; j <= np; j++)
		printf "---|---|"
	printf "\n"
	for (r = 1; r <= nr; r++) {
		printf "| %s |", rows[r]
		for (j = 1; j <= np; j++) {
			n = k = 0
			delete ns
			delete x
			for (b = 1; b <= nb; b++) {
				if (!((b, p[j], rows[r]) in v))
					continue
				ns[++n] = val(b, p[j], rows[r])
				if (val(b, p[j], "getuid") > 0)
					x[++k] = val(b, p[j], rows[r]) / val(b, p[j], "getuid")
			}
			printf " %s | %s |", cell(ns, n, ""), cell(x, k, "x")
		}
		for (j = 2; j <= np; j++) {
			k = n = 0
			delete q
			delete qn
			for (b = 1; b <= nb; b++) {
				if (val(b, p[1], rows[r]) <= 0 || val(b, p[j], rows[r]) <= 0)
					continue
				qn[++n] = val(b, p[1], rows[r]) / val(b, p[j], rows[r])
				if (val(b, p[1], "getuid") > 0 && val(b, p[j], "getuid") > 0)
					q[++k] = val(b, p[1], rows[r]) / val(b, p[1], "getuid") * \
						 val(b, p[j], "getuid") / val(b, p[j], rows[r])
			}
			printf " %s | %s |", cell(q, k, "x"), cell(qn, n, "x")
		}
		printf "\n"
	}
}' "$csv"
