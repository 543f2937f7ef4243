#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# report-failures OUTDIR: every failed row of one run's results.tsv, with
# why it failed and the console lines that show it, one line each:
#   SUITE TAB TEST TAB KIND TAB REASON TAB LINE TAB CONTEXT
# KIND: test (a test case), splat (kernel badness, kernel-clean), boot
# (boot-complete: no end marker), plan (plan-complete) or other.  LINE is
# the console line number the context leads to (0: none); CONTEXT, the
# console lines, joined by the character 0x1f.  Harness rows get their
# reason from the verdict's FAIL lines: the first of their kind, and how
# many more there were.
set -euo pipefail

out=${1:?usage: report-failures.sh OUTDIR}
[ -f "$out/results.tsv" ] || exit 0
grep -q "$(printf '\tfail\t')" "$out/results.tsv" || exit 0
touch "$out/verdict.txt" "$out/console.log" 2>/dev/null || true

awk -F'\t' -v OFS='\t' -v hung="$(head -1 "$out/boot.txt" 2>/dev/null)" '
# kind of a verdict FAIL line: its harness check, or "" for a test row
function fail_kind(s) {
	if (s ~ /^FAIL: [^ ]+: test .* failed/) return ""
	if (s ~ /no end marker/) return "boot"
	if (s ~ /kernel splat|expected splat|end-expect|expect-splat/) return "splat"
	return "plan"
}
function strip(s) {
	sub(/\r$/, "", s)
	sub(/^\[ *[0-9]+\.[0-9]+\] ?/, "", s)
	return s
}
# the current step as ITEM names it: "PLAN:STEP" in a shared boot
function lab(item) {
	if (step == "") return ""
	return index(item, ":") ? plan ":" step : step
}
function ctx_add(i, s) {
	gsub(/\t/, "    ", s)
	gsub(/\037/, " ", s)
	ctx[i] = ctx[i] (ctx[i] == "" ? "" : "\037") s
}
FILENAME == ARGV[1] {		# verdict.txt
	if ($0 !~ /^FAIL: /) next
	k = fail_kind($0)
	if (k == "") next
	s = $0
	sub(/^FAIL: /, "", s)
	if (!(k in first)) first[k] = s
	more[k]++
	next
}
FILENAME == ARGV[2] {		# results.tsv
	if ($3 != "fail") next
	n++
	suite[n] = $1; test[n] = $2; line[n] = 0
	if ($1 == "harness") {
		k = $2 == "boot-complete" ? "boot" : $2 == "kernel-clean" ? "splat" : \
		    $2 == "plan-complete" ? "plan" : "other"
		kind[n] = k
		why[n] = k in first ? first[k] : $5
		if (more[k] > 1) why[n] = why[n] " (+" more[k] - 1 " more in verdict.txt)"
		if (k == "boot" && hung != "") {
			sub(/^rcuvet: /, "", hung)
			sub(/; last [0-9]+ console lines:$/, "", hung)
			why[n] = why[n] "; " hung
		}
		if (k == "splat" && first[k] ~ /: kernel splat: /) {
			s = first[k]
			item[n] = substr(s, 1, index(s, ": kernel splat: ") - 1)
			anchor[n] = substr(s, index(s, ": kernel splat: ") + 16)
		} else if (k == "splat" && match(first[k], /expected splat .* did not appear/)) {
			s = first[k]
			sub(/.*expected splat \047/, "", s)
			sub(/\047 did not appear.*/, "", s)
			anchor[n] = "rcuvet: expect-splat " s
		} else if (k == "plan" && match(first[k], /step \047[^\047]*\047 ended with status [0-9-]+/)) {
			s = substr(first[k], RSTART + 6, RLENGTH - 6)
			st = s
			sub(/^.* status /, "", st)
			sub(/\047 ended with.*/, "", s)
			sub(/^[^:]*:/, "", s)
			anchor[n] = "rcuvet: end " s " status=" st
			before[n] = 1
		} else if (k == "plan" && index(first[k], ": guest reported: ")) {
			anchor[n] = "rcuvet: error: " substr(first[k], index(first[k], ": guest reported: ") + 18)
			before[n] = 1
		} else if (k == "boot" || first[k] ~ /began but never ended/) {
			tail[n] = 1
		}
	} else {
		kind[n] = "test"
		why[n] = $5 != "" ? $5 : "failed"
		# the step: "PLAN:STEP" in a shared boot, else "STEP"; "boot"
		# when its KTAP began before its step did
		want[n] = $1
	}
	next
}
{				# console.log
	sub(/\r$/, "")
	raw = $0
	s = strip(raw)
	last[NR % 8] = raw
	if (s ~ /^rcuvet: plan /) { plan = substr(s, 14); next }
	if (s ~ /^rcuvet: begin /) {
		step = substr(s, 15)
		began = 1
		since = ""
	}
	if (s ~ /^rcuvet: end /) step = ""
	# a splat found: the test case whose result comes next in its step
	for (i in open_splat) {
		if (s ~ /^ *(not )?ok [0-9]+ / && lab(open_splat[i]) == open_splat[i]) {
			t = s
			sub(/^ *(not )?ok [0-9]+ /, "", t)
			sub(/ # .*/, "", t)
			during[i] = t
			delete open_splat[i]
		} else if (s ~ /^rcuvet: end / || s ~ /^rcuvet: done/) {
			delete open_splat[i]
		}
	}
	for (i = 1; i <= n; i++) {
		if (need_after[i] > 0) {
			ctx_add(i, raw)
			need_after[i]--
		}
		if (line[i] || tail[i]) continue
		if (anchor[i] != "" && index(s, anchor[i]) == 1) {
			line[i] = FNR
			atboot[i] = !began
			if (before[i]) {
				for (j = 4; j >= 1; j--)
					if (FNR - j > 0) ctx_add(i, last[(NR - j) % 8])
				ctx_add(i, raw)
			} else {
				ctx_add(i, raw)
				need_after[i] = 4
				if (kind[i] == "splat" && item[i] != "boot" && lab(item[i]) == item[i])
					open_splat[i] = item[i]
			}
		} else if (kind[i] == "test" && (want[i] == "boot" || lab(want[i]) == want[i]) &&
			   s ~ /^ *not ok [0-9]+ / && !used[FNR]) {
			t = s
			sub(/^ *not ok [0-9]+ /, "", t)
			sub(/ # .*/, "", t)
			if (test[i] == t || substr(test[i], length(test[i]) - length(t)) == "." t) {
				used[FNR] = 1
				line[i] = FNR
				m = split(since, lines, "\037")
				if (m > 6) {
					for (j = 1; j <= 5; j++) ctx_add(i, lines[j])
					ctx_add(i, "[...]")
					ctx_add(i, lines[m])
				} else {
					for (j = 1; j <= m; j++) ctx_add(i, lines[j])
				}
				ctx_add(i, raw)
			}
		}
	}
	# the lines since the last KTAP structure line of the step
	if (s ~ /^ *((not )?ok [0-9]+ |1\.\.[0-9]|KTAP version|# Subtest:|# module:)/ ||
	    s ~ /^rcuvet: /) {
		since = ""
	} else if (s !~ /^ *# [^ ]+: covers: /) {
		gsub(/\037/, " ", raw)
		since = since (since == "" ? "" : "\037") raw
	}
}
END {
	for (i = 1; i <= n; i++) {
		if (tail[i]) {
			line[i] = FNR
			for (j = 5; j >= 0; j--)
				if (FNR - j > 0) ctx_add(i, last[(NR - j) % 8])
		}
		if (kind[i] == "splat" && item[i] != "") {
			t = why[i]
			t = substr(t, index(t, ": kernel splat: ") + 16)
			if (item[i] == "boot")
				why[i] = "kernel splat outside any step" (atboot[i] ? " (at boot)" : "") ": " t
			else if (during[i] != "")
				why[i] = "kernel splat in step " item[i] ", during its case " during[i] ": " t
			else if (i in open_splat)
				why[i] = "kernel splat in step " item[i] ", which never ended: " t
			else
				why[i] = "kernel splat in step " item[i] ", outside any test case: " t
		}
		gsub(/\t/, " ", why[i])
		print suite[i], test[i], kind[i], why[i], line[i], ctx[i]
	}
}
' "$out/verdict.txt" "$out/results.tsv" "$out/console.log"
