#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# run: vet a kernel: the run plan (every suite, full size) and 10 minutes
# of the tree's rcutorture (rcutorture-long) on each profile,
# a report, one closing line.  The later profiles' kernels build in the
# background while the first one boots.
. "$(dirname "$0")/lib.sh"

profiles=${PROFILES:-debug nopreempt}
plan=${PLAN:-run+rcutorture-long}
"$RCUVET_ROOT/scripts/validate.sh" -p "$profiles" -P "$plan"
mkdir -p "$RESULTS"
# shellcheck disable=SC2086 # one word per profile
prebuild $profiles
tsvs=()
for p in $profiles; do
	vet_profile "$p" "$plan" "$RESULTS/$p"
	tsvs+=("$RESULTS/$p/results.tsv")
done
# What this tree was vetted for: tested, skipped-absent, removed.
"$RCUVET_ROOT/scripts/api-coverage.sh" -t "$TREE_NAME" "$RESULTS/$TREE_NAME/api-coverage.md" \
	"${tsvs[@]}" 2>/dev/null ||
	note "rcuvet: the coverage table of $TREE_NAME failed"
note "API coverage of $TREE_NAME: ${RESULTS#"$RCUVET_ROOT"/}/$TREE_NAME/api-coverage.md"
finish "${tsvs[@]}"
