#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bench-report CSV OUTDIR: Markdown tables (bench.md) and plots (*.png,
# *.svg) from bench-parse rows.  Every cell is the median with min-max over
# the repeated runs, and a ratio measured in the same boot: reader kinds
# against preempt_disable and the empty loop, grace periods against
# synchronize_rcu, grace periods under readers against no reader.
. "$(dirname "$0")/lib.sh"
. "$RCUVET_ROOT/scripts/bench-lib.sh"

csv=${1:?usage: bench-report.sh CSV OUTDIR}
out=${2:?usage: bench-report.sh CSV OUTDIR}
mkdir -p "$out"

# table TITLE METRIC-REGEX UNIT-DIVISOR UNIT BASE-KIND [BASE2-KIND]
table() {
	awk -F, -v metric="$2" -v div="$3" -v unit="$4" -v base="$5" -v base2="${6:-}" -v title="$1" '
	$3 ~ "^(" metric ")$" {
		key = $2 "/" $4
		if (!(key in seen)) { seen[key] = 1; rows[++nr] = key }
		if (!($1 in pseen)) { pseen[$1] = 1; profs[++np] = $1 }
		med[key, $1] = $5; lo[key, $1] = $6; hi[key, $1] = $7
		if ($4 == base) b1[$1] = $5
		if ($4 == base2) b2[$1] = $5
	}
	function f(x) {
		return x >= 100 ? sprintf("%.0f", x) : x >= 10 ? sprintf("%.1f", x) : sprintf("%.2f", x)
	}
	END {
		printf "\n### %s\n\n| source/kind |", title
		for (p = 1; p <= np; p++) printf " %s |", profs[p]
		printf "\n|---|"
		for (p = 1; p <= np; p++) printf "---|"
		printf "\n"
		for (r = 1; r <= nr; r++) {
			printf "| %s |", rows[r]
			for (p = 1; p <= np; p++) {
				k = rows[r]; pr = profs[p]
				if (!((k, pr) in med)) { printf " - |"; continue }
				cell = f(med[k, pr] / div) " " unit " (" f(lo[k, pr] / div) "-" f(hi[k, pr] / div) ")"
				if (b1[pr] > 0) cell = cell ", x" f(med[k, pr] / b1[pr]) " " base
				if (base2 != "" && b2[pr] > 0) cell = cell ", x" f(med[k, pr] / b2[pr]) " " base2
				printf " %s |", cell
			}
			printf "\n"
		}
	}' "$csv"
}

# plot NAME TITLE METRIC-REGEX DIVISOR YLABEL: a bar per kind and profile,
# the median with min-max error bars, log scale.
plot() {
	local dat=$out/$1.dat profiles

	profiles=$(cut -d, -f1 "$csv" | awk '!s[$0]++' | xargs)
	awk -F, -v metric="$3" -v div="$4" -v profs="$profiles" '
	BEGIN { np = split(profs, pr, " ") }
	$3 ~ "^(" metric ")$" {
		key = $2 == "rcuvet" ? $4 : $4 "(" $2 ")"
		if (!(key in seen)) { seen[key] = 1; rows[++nr] = key }
		v[key, $1] = ($5 / div) " " ($6 / div) " " ($7 / div)
	}
	END {
		for (r = 1; r <= nr; r++) {
			printf "\"%s\"", rows[r]
			for (p = 1; p <= np; p++)
				printf " %s", ((rows[r], pr[p]) in v) ? v[rows[r], pr[p]] : "NaN NaN NaN"
			printf "\n"
		}
	}' "$csv" >"$dat"
	[ -s "$dat" ] || return 0
	for ext in png svg; do
		gnuplot <<-GP || die "gnuplot failed on $dat"
		set terminal $ext size 1200,600 noenhanced
		set output "$out/$1.$ext"
		set title "$2 (median, min-max; TCG: compare ratios)"
		set ylabel "$5"
		set logscale y
		set style data histogram
		set style histogram errorbars gap 1 lw 1
		set style fill solid 0.6 border -1
		set xtics rotate by -35 scale 0
		set key top left
		plot for [i=0:$(($(wc -w <<<"$profiles") - 1))] "$dat" \\
			using (column(2+3*i)):(column(3+3*i)):(column(4+3*i)):xtic(1) \\
			title word("$profiles", i+1)
		GP
	done
}

# compiled_in: each profile NAME-emulate against NAME, when both ran: the
# v4.19 emulation (kernel/patches/0001-*) compiled in, not enabled, in
# the same kernel otherwise.  Two boots: a reader's cost is read as its
# ratio to preempt_disable in its own boot (code the option does not
# touch), and "emulate / base" is the ratio of the two ratios, what the
# option costs.  The readers whose code it does not touch (all but
# rcu_read_lock's __rcu_read_lock()/__rcu_read_unlock(): rcuvet's
# rcu_read_lock and refscale's rcu) give the noise between the two
# boots, a band that each touched reader's ratio is inside or outside.
# Grace periods in ms, as measured, and their ratio.  The heading says
# which options the two kernels' configs differ in: anything but
# CONFIG_RCU_EMULATE_UNCONSOLIDATED makes it no measurement of the option
# alone.
compiled_in() {
	local p b differs=

	for p in $(cut -d, -f1 "$csv" | sort -u); do
		b=${p%-emulate}
		[ "$b" != "$p" ] || continue
		differs="$differs$p=$(config_differs "$out" "$b" "$p")"$'\n'
	done
	DIFFERS=$differs awk -F, '
	BEGIN {
		n = split(ENVIRON["DIFFERS"], l, "\n")
		for (i = 1; i <= n; i++)
			if (l[i] != "")
				differs[substr(l[i], 1, index(l[i], "=") - 1)] = substr(l[i], index(l[i], "=") + 1)
		touched["rcuvet/rcu_read_lock"] = touched["refscale/rcu"] = 1
	}
	function f(x) {
		return x >= 100 ? sprintf("%.0f", x) : x >= 10 ? sprintf("%.1f", x) : sprintf("%.2f", x)
	}
	# v(P, ROW): the row of profile P as a multiple of its preempt_disable
	# (readers) or in ms (grace periods); "" where not measured.
	function v(p, r) {
		if (!((p, r) in m))
			return ""
		if (metric[r] == "gp_ns")
			return m[p, r] / 1e6
		return pd[p] > 0 ? m[p, r] / (metric[r] == "reader_ps" ? 1000 : 1) / pd[p] : ""
	}
	$3 == "reader_ps" || $3 == "reader_ns" || $3 == "gp_ns" {
		r = $2 "/" $4
		if (!(r in metric)) { metric[r] = $3; rows[++nr] = r }
		m[$1, r] = $5
		if (!($1 in seen)) { seen[$1] = 1; profs[++np] = $1 }
		if (r == "rcuvet/preempt_disable") pd[$1] = $5 / 1000
	}
	END {
		opt = "CONFIG_RCU_EMULATE_UNCONSOLIDATED"
		for (i = 1; i <= np; i++) {
			e = profs[i]; b = e
			if (!sub(/-emulate$/, "", b) || !(b in seen))
				continue
			printf "\n### The v4.19 emulation compiled in, not enabled: %s against %s\n\n", e, b
			d = differs[e]
			if (d == opt)
				printf "The two kernels'"'"' configs differ in `%s` alone.\n", opt
			else if (d == "?" || d == "")
				printf "**Not checked that the two kernels differ only by `%s`**: %s.\n", opt,
					d == "?" ? "the config of one of the runs is missing" : "their configs are the same"
			else
				printf "**Not a measurement of the option alone**: the two kernels'"'"' configs differ in %s.\n", d
			print "Readers: the cost as a multiple of `preempt_disable()` in the same boot; grace periods in ms."
			print "\"emulate / base\" is what the option costs, from one boot of each (another `make bench` shows the spread between boots).\n"
			printf "| source/kind | %s | %s | emulate / base |\n|---|---|---|---|\n", b, e
			lo = hi = ""; nu = nt = 0
			for (r = 1; r <= nr; r++) {
				x = v(b, rows[r]); y = v(e, rows[r])
				if (x == "" && y == "")
					continue
				u = metric[rows[r]] == "gp_ns" ? " ms" : ""
				pre = u == "" ? "x" : ""
				q = x > 0 && y != "" ? y / x : ""
				printf "| %s | %s | %s | %s |\n", rows[r], (x == "" ? "-" : pre f(x) u),
					(y == "" ? "-" : pre f(y) u), (q == "" ? "-" : sprintf("x%.3f", q))
				if (q == "" || u != "" || rows[r] == "rcuvet/preempt_disable")
					continue
				if (rows[r] in touched) {
					tk[++nt] = rows[r]; tq[nt] = q
				} else {
					nu++
					if (lo == "" || q < lo) lo = q
					if (hi == "" || q > hi) hi = q
				}
			}
			if (nu < 2) {
				printf "\nNo noise band: %d reader kind(s) that the option does not touch were measured in both.\n", nu
				continue
			}
			printf "\nNoise between the two boots: \"emulate / base\" of the %d reader kinds the option does not touch (all but `rcu_read_lock`, refscale'"'"'s `rcu`; `preempt_disable` is the unit) is x%.3f to x%.3f.", nu, lo, hi
			# As printed, to three decimals.
			lo = sprintf("%.3f", lo) + 0
			hi = sprintf("%.3f", hi) + 0
			for (t = 1; t <= nt; t++) {
				q = sprintf("%.3f", tq[t]) + 0
				out = (q < lo || q > hi) ? "**outside**" : "inside"
				printf " `%s`, x%.3f: %s the band.", tk[t], tq[t], out
			}
			print ""
		}
	}' "$csv"
}

# claims: the article's performance claims against this run's numbers, a
# line per profile, with the rule each verdict follows.
claims() {
	awk -F, '
	{ m[$1, $2, $3, $4] = $5; mn[$1, $2, $3, $4] = $6
	  if (!($1 in s)) { s[$1] = 1; pr[++np] = $1 } }
	function say(claim, p, text, ok) {
		printf "| %s | %s | %s | %s |\n", claim, p, text, ok ? "confirmed" : "**contradicted**"
	}
	# Readers of KIND back to back on CPU 1: the GP against CPU 1 idle
	# decides; against CPU 1 busy in the same loop without a reader shows
	# what the reader kind adds to a CPU that is busy anyway.
	function delay(what, kind, p, idle, busy,   g) {
		g = m[p, "rcuvet", "gp_under_readers_ns", kind]
		if (!g || !idle || !busy)
			return
		say("long " what "-disabled readers delay a consolidated GP (GP under them > 1.5x the GP with CPU 1 idle)", p,
		    sprintf("synchronize_rcu %.1f ms under back-to-back %s readers: x%.1f CPU 1 idle (%.1f ms), x%.1f CPU 1 busy without readers (%.1f ms)",
			    g / 1e6, kind, g / idle, idle / 1e6, g / busy, busy / 1e6), g > 1.5 * idle)
	}
	END {
		print "\n### The article'"'"'s claims, measured\n"
		print "| claim (rule) | profile | measured | verdict |"
		print "|---|---|---|---|"
		for (i = 1; i <= np; i++) {
			p = pr[i]
			n = m[p, "rcuvet", "gp_ns", "synchronize_rcu"]
			e = m[p, "rcuvet", "gp_ns", "synchronize_rcu_expedited"]
			if (n && e)
				say("expedited is about an order of magnitude faster (ratio >= 5)", p,
				    sprintf("synchronize_rcu %.2f ms / expedited %.3f ms = x%.1f", n / 1e6, e / 1e6, n / e), n / e >= 5)
			t = mn[p, "rcuvet", "gp_ns", "synchronize_rcu_tasks"]
			if (t)
				say("an RCU Tasks grace period takes at least ~100 ms (min >= 80 ms)", p,
				    sprintf("shortest synchronize_rcu_tasks(): %.1f ms", t / 1e6), t >= 80e6)
			r = m[p, "rcuvet", "reader_ps", "rcu_read_lock"]
			d = m[p, "rcuvet", "reader_ps", "preempt_disable"]
			if (r && d)
				say("read side is extremely lightweight (rcu_read_lock <= 3x preempt_disable)", p,
				    sprintf("rcu_read_lock %.2f ns, preempt_disable %.2f ns: x%.2f", r / 1e3, d / 1e3, r / d), r <= 3 * d)
			z = m[p, "rcuvet", "gp_under_readers_ns", "idle"]
			y = m[p, "rcuvet", "gp_under_readers_ns", "none"]
			delay("bh", "local_bh_disable", p, z, y)
			delay("irq", "local_irq_save", p, z, y)
		}
	}' "$csv"
}

{
	printf '## Benchmarks\n\nTimings are emulated (QEMU TCG): read the ratios, measured in the same boot.\n'
	! grep -q '^icount-' "$csv" ||
		printf 'The `icount-*` profiles ran under QEMU'"'"'s `-icount shift=0`: their nanoseconds are instructions executed, the same from boot to boot (not cycles: a call and a per-CPU increment count one each), except where a time includes idle waits (the grace periods: idle time is skipped to the next timer).\n'
	table "Reader cost, per enter/exit pair (rcuvet_bench)" reader_ps 1000 ns preempt_disable empty
	table "Reader cost, per pair (refscale)" reader_ns 1 ns rcu
	table "Grace-period latency" gp_ns 1000000 ms synchronize_rcu
	table "synchronize_rcu() while CPU 1 runs back-to-back readers of each kind" \
		gp_under_readers_ns 1000000 ms idle none
	table "System level (guest/sched-bench: ns per context switch or per call; xN: the multiple of getuid(), no RCU reader, in the same boot)" \
		sys_ns 1 ns getuid
	compiled_in
	"$RCUVET_ROOT/scripts/bench-inline.sh" "$csv" "$out"
	claims
	printf '\n![reader cost](reader_cost.png) ![grace periods](gp_latency.png) ![under readers](gp_under_readers.png)\n'
} >"$out/bench.md"
plot reader_cost "Reader cost per enter/exit pair" "reader_ps" 1000 "ns"
plot gp_latency "Grace-period latency" "gp_ns" 1000000 "ms"
plot gp_under_readers "synchronize_rcu() under back-to-back readers" "gp_under_readers_ns" 1000000 "ms"
