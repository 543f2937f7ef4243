#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# summary TSV...: the plain closing line over every test row of the given
# results files; exits 1 if any failed or if a file is missing.
. "$(dirname "$0")/lib.sh"

missing=0 existing=()
for f in "$@"; do
	if [ -f "$f" ]; then
		existing+=("$f")
	else
		echo "rcuvet: missing results: $f" >&2
		missing=$((missing + 1))
	fi
done
awk -F'\t' -v missing=$missing -v root="$RESULTS/" '
	{ n[$3]++ }
	$3 == "fail" {
		where = FILENAME
		sub(root, "", where)
		sub("/?results.tsv$", "", where)
		printf "FAILED: %s: %s %s\n", where, $2, $5
	}
	END {
		failed = n["fail"] + missing
		line = sprintf("%d passed, %d failed", n["pass"], failed)
		if (n["skip"]) line = line sprintf(", %d skipped", n["skip"])
		print line
		exit failed != 0
	}' /dev/null "${existing[@]}"
