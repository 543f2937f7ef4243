#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# holding-rate.sh REPS CONSOLE: how often each trial of
# configs/plans/rate-emulate-4.19.plan held, from its console log.  A trial
# is one repetition of a pair; it held when the v4.19 grace period ended
# with its non-rcu_read_lock() reader inside (and waited for an
# rcu_read_lock() reader).  rcuvet_emulate prints every repetition
# ("gp: UPDATER READER MS early|waited"); rcuvet_consol says how many of
# its REPS repetitions ended early when any did ("N of M grace periods
# ended while ..."), nothing when none did.  One line per pair that did not
# hold every time, a total, and the closing line (a pair passes when all
# its REPS trials held).
set -euo pipefail

reps=${1:?usage: holding-rate.sh REPS CONSOLE}
console=${2:?usage: holding-rate.sh REPS CONSOLE}
[ -r "$console" ] || { echo "holding-rate: cannot read $console" >&2; exit 1; }

awk -v reps="$reps" '
	{ sub(/\r$/, ""); sub(/^\[[ 0-9.]*\] /, "") }
	/^    # Subtest: / { suite = $NF; next }
	/^        # Subtest: / { test = $NF; next }
	/gp_vs_reader: gp: / {
		n = split($0, f, " ")
		name = "rcuvet_emulate." f[n - 4] "." f[n - 3]
		want = f[n - 3] == "rcu_read_lock" ? "waited" : "early"
		trials[name]++; held[name] += f[n] == want
		next
	}
	/^[0-9]+ of [0-9]+ grace periods ended while the / { early = $1; next }
	suite == "rcuvet_consol" && test == "waits_for_reader" &&
	/^        (not )?ok [0-9]+ / {
		name = "rcuvet_consol." $NF
		trials[name] += reps; held[name] += early
		early = 0
	}
	END {
		for (name in trials) {
			cases++; all += trials[name]; ok += held[name]
			if (held[name] == trials[name] && trials[name] == reps) {
				passed++
				continue
			}
			failed++
			printf "%s: held %d of %d trials\n", name, held[name], trials[name]
		}
		printf "%d pairs, %d of %d trials held\n", cases, ok, all
		printf "%d passed, %d failed\n", passed, failed
		exit failed > 0 || cases == 0
	}
' "$console"
