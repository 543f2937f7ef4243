#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# rcutorture-times PLAN CONSOLE...: a line per rcutorture run of PLAN (each
# "module rcutorture ..." step) on each console: the run's extendables=
# and gp_*= parameters, how it ended (SUCCESS or FAILURE, as rcutorture's
# parse-console.sh reads it), when it first noticed a too-short grace
# period (its first "!!!" statistics line or the first WARNING it raised),
# in seconds after its step began, and its last Reader Pipe histogram.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

plan=${1:?usage: rcutorture-times.sh PLAN CONSOLE...}
shift
planfile=$RCUVET_ROOT/configs/plans/$plan.plan
[ -f "$planfile" ] || die "unknown plan '$plan'"
params=$(sed -n 's/^module rcutorture //p' "$planfile" |
	awk '{ s = ""; for (i = 1; i <= NF; i++) if ($i ~ /^(extendables|gp_[a-z_]*)=/) s = s (s ? "," : "") $i; print s ? s : "defaults" }' |
	paste -sd'|' -)
printf 'console\trun\tend\tfirst_detection_s\treader_pipe\n'
for console in "$@"; do
	awk -v con="$console" -v params="$params" '
	BEGIN { n = split(params, par, "|") }
	function stamp(line) {
		if (match(line, /^\[ *[0-9]+\.[0-9]+\]/))
			return substr(line, RSTART + 1, RLENGTH - 2) + 0
		return -1
	}
	function flush() {
		if (!run)
			return
		printf "%s\t%s\t%s\t%s\t%s\n", con, par[run], result ? result : "no end", \
			first >= 0 ? sprintf("%.1f", first - t0) : "-", pipe
	}
	/rcuvet: begin rcutorture/ { flush(); run++; t0 = stamp($0); first = -1; result = ""; pipe = "" }
	run && first < 0 && (/!!!/ || /WARNING: .*rcutorture/) { first = stamp($0) }
	run && /Reader Pipe:/ { p = $0; sub(/.*Reader Pipe: */, "", p); pipe = p }
	run && /End of test: SUCCESS/ { result = "SUCCESS" }
	run && /End of test: FAILURE/ { result = "FAILURE" }
	END { flush() }
	' "$console"
done
