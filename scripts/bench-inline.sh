#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bench-inline CSV OUTDIR: for bench.md (bench-report.sh), each profile
# NAME-noinline against NAME, when both ran: rcu_read_lock() and
# rcu_read_unlock() out of line (CONFIG_RCU_INLINE_READ_LOCK off,
# kernel/patches/0007-*) against inline, the kernels otherwise the same.
# The system-level measures of guest/sched-bench (bench-parse's sys_ns
# rows: a context switch, getppid(), stat("/"), getuid()) in ns, each
# also as a multiple of getuid() in its own boot (a system call without
# an RCU reader), and "inline / noinline": the ratio of the two medians,
# and of the two multiples, meant to cancel TCG's speed from boot to boot
# (between two builds it does not: getuid() itself runs at different
# speeds, docs/bench.md "Inlined rcu_read_lock()").
# The heading says which options the two kernels' configs differ in:
# anything but CONFIG_RCU_INLINE_READ_LOCK, or nothing (a tree without
# the option), makes it no measurement of the option alone.
. "$(dirname "$0")/lib.sh"
. "$RCUVET_ROOT/scripts/bench-lib.sh"

csv=${1:?usage: bench-inline.sh CSV OUTDIR}
out=${2:?usage: bench-inline.sh CSV OUTDIR}

for p in $(cut -d, -f1 "$csv" | awk '!s[$0]++'); do
	b=${p%-noinline}
	[ "$b" != "$p" ] && grep -q "^$b," "$csv" || continue
	awk -F, -v b="$b" -v p="$p" -v d="$(config_differs "$out" "$b" "$p")" '
	function f(x) {
		return x >= 100 ? sprintf("%.0f", x) : x >= 10 ? sprintf("%.1f", x) : sprintf("%.2f", x)
	}
	# cell(P, ROW): the median in ns and its multiple of getuid().
	function cell(pr, r) {
		if (!((pr, r) in m))
			return "-"
		return f(m[pr, r]) " ns" (u[pr] > 0 ? " (x" f(m[pr, r] / u[pr]) ")" : "")
	}
	$2 == "sched-bench" && $3 == "sys_ns" && ($1 == b || $1 == p) {
		if (!($4 in seen)) { seen[$4] = 1; rows[++nr] = $4 }
		m[$1, $4] = $5
		if ($4 == "getuid") u[$1] = $5
	}
	END {
		opt = "CONFIG_RCU_INLINE_READ_LOCK"
		printf "\n### Inlined rcu_read_lock(), system level: %s against %s\n\n", b, p
		if (d == opt)
			printf "The two kernels'"'"' configs differ in `%s` alone.\n", opt
		else if (d == "?")
			printf "**Not checked that the two kernels differ only by `%s`**: the config of one of the runs is missing.\n", opt
		else if (d == "")
			printf "**Not a measurement of the option**: the two kernels'"'"' configs are the same (a tree without `%s`: TREE=6.1, or a series without kernel/patches/0007-*).\n", opt
		else
			printf "**Not a measurement of the option alone**: the two kernels'"'"' configs differ in %s.\n", d
		if (!nr) {
			print "\nguest/sched-bench measured nothing in either boot."
			exit
		}
		print "guest/sched-bench'"'"'s medians in ns (per context switch, per call) and, in parentheses, as a multiple of `getuid()` (no RCU reader) in the same boot."
		print "\"inline / noinline\" is the ratio of the medians (below 1: the inlined kernel is faster), \"per getuid()\" that of the multiples, meant to cancel TCG'"'"'s speed from boot to boot, though between two builds `getuid()` itself runs at different speeds; one boot of each (another `make bench` shows the spread between boots).\n"
		printf "| measure | %s | %s | inline / noinline | per getuid() |\n|---|---|---|---|---|\n", b, p
		for (r = 1; r <= nr; r++) {
			x = (b, rows[r]) in m ? m[b, rows[r]] : ""
			y = (p, rows[r]) in m ? m[p, rows[r]] : ""
			q = x > 0 && y > 0 ? sprintf("x%.3f", x / y) : "-"
			n = x > 0 && y > 0 && u[b] > 0 && u[p] > 0 ? sprintf("x%.3f", (x / u[b]) / (y / u[p])) : "-"
			printf "| %s | %s | %s | %s | %s |\n", rows[r], cell(b, rows[r]), cell(p, rows[r]), q, n
		}
	}' "$csv"
done
