#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# report-xdp CONSOLE: the XDP teardown accounting of each xdp-teardown
# scenario on a console (docs/xdp-teardown.md), one line each:
#   SCENARIO TAB RESULT TAB FRAMES TAB TORN TAB LOSS TAB BOUND TAB LEAKS TAB FAILED
# RESULT: pass or fail; FRAMES, frames sent; TORN, entries torn down; LOSS
# and BOUND, devmap frames unaccounted and the loss allowed (0 and 0: exact
# accounting, the only kind allowed without unregister); LEAKS, "none" or
# what outlived the scenario ("unknown" if it stopped first); FAILED, its
# failed checks, joined by "; ".  Empty fields: not printed by the run.
set -euo pipefail

console=${1:?usage: report-xdp.sh CONSOLE}
[ -f "$console" ] || exit 0

awk -v OFS='\t' '
function reset() {
	frames = torn = loss = bound = failed = ""
	leaks = "unknown"
}
function num(s, re,    t) {
	if (!match(s, re)) return ""
	t = substr(s, RSTART, RLENGTH)
	gsub(/[^0-9]/, "", t)
	return t
}
{
	sub(/\r$/, "")
	sub(/^\[ *[0-9]+\.[0-9]+\] ?/, "")
}
/^    # Subtest: xdp_teardown$/ { in_xdp = 1; reset(); next }
!in_xdp { next }
/^rcuvet: end / || /^(not )?ok [0-9]+ / { in_xdp = 0; next }
/^    # frames: [0-9]+/ { frames = num($0, "frames: [0-9]+") }
/^    # torn down: [0-9]+ entries/ { torn = num($0, "torn down: [0-9]+") }
/^    # devmap: [0-9]+ redirected, [0-9]+ accounted: [0-9]+ unaccounted, bound [0-9]+/ {
	loss = num($0, "[0-9]+ unaccounted")
	bound = num($0, "bound [0-9]+")
}
/^    # maps and programs all freed/ { leaks = "none" }
/^    # failed: / {
	f = substr($0, 15)
	failed = failed (failed == "" ? "" : "; ") f
	if (f ~ /^devmap: [0-9]+ frames unaccounted \(bound [0-9]+\)/) {
		loss = num(f, "[0-9]+ frames unaccounted")
		bound = num(f, "bound [0-9]+")
	} else if (f ~ /^devmap: [0-9]+ redirected != [0-9]+ accounted/) {
		split(f, w, " ")
		loss = w[2] - w[5]
		bound = 0
	} else if (f ~ /maps and [0-9]+ programs outlived the scenario/) {
		leaks = num(f, "^[0-9]+ maps") " maps, " num(f, "[0-9]+ programs") " programs"
	} else if (f ~ /page_pool reported lost or doubly freed pages/) {
		leaks = (leaks == "unknown" || leaks == "none" ? "" : leaks ", ") "page_pool pages"
	}
}
/^    (not )?ok [0-9]+ / {
	name = $0
	sub(/^    (not )?ok [0-9]+ /, "", name)
	sub(/ # .*/, "", name)
	result = $0 ~ /^    not ok/ ? "fail" : "pass"
	# exact accounting printed no devmap line: nothing unaccounted
	if (loss == "" && result == "pass") loss = bound = 0
	gsub(/\t/, " ", failed)
	print name, result, frames, torn, loss, bound, leaks, failed
	reset()
}
' "$console"
