#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# summary TSV...: the plain closing line over every test row of the given
# results files; exits 1 if any failed or if a file is missing.
. "$(dirname "$0")/lib.sh"

missing=0
for f in "$@"; do
	[ -f "$f" ] || { echo "rcuvet: missing results: $f" >&2; missing=1; }
done
cat /dev/null "$@" 2>/dev/null | awk -F'\t' -v missing=$missing '
	{ n[$3]++ }
	$3 == "fail" { printf "FAILED: %s %s %s\n", $1, $2, $5 }
	END {
		failed = n["fail"] + missing
		line = sprintf("%d passed, %d failed", n["pass"], failed)
		if (n["skip"]) line = line sprintf(", %d skipped", n["skip"])
		print line
		exit failed != 0
	}'
