#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# repeat: the flake hunt.  The check plan on each profile (default: debug
# and nopreempt), REPEAT times in a row (default 10), without rebuilding
# anything between rounds; stops at the first round that fails.  Results
# in results/repeat/ROUND/PROFILE/; the closing line counts every test
# case of every round.
. "$(dirname "$0")/lib.sh"

profiles=${PROFILES:-debug nopreempt}
rounds=${REPEAT:-10}
"$RCUVET_ROOT/scripts/validate.sh" -p "$profiles" -P check
rm -rf "$RESULTS/repeat"
tsvs=()
for ((i = 1; i <= rounds; i++)); do
	step "round $i of $rounds"
	bad=0
	for p in $profiles; do
		out=$RESULTS/repeat/$i/$p
		vet_profile "$p" check "$out"
		tsvs+=("$out/results.tsv")
		if awk -F'\t' '$3 == "fail" { bad = 1 } END { exit !bad }' "$out/results.tsv"; then
			bad=1
		fi
	done
	if [ $bad -ne 0 ]; then
		note "round $i failed: see results/repeat/$i/"
		break
	fi
	note "round $i green"
done
finish "${tsvs[@]}"
