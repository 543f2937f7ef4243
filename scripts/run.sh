#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# run: vet a kernel: the run plan (every suite, full size) on each profile,
# a report, one closing line.
. "$(dirname "$0")/lib.sh"

profiles=${PROFILES:-debug nopreempt}
plan=${PLAN:-run}
for p in $profiles; do load_profile "$p"; done
mkdir -p "$RESULTS"
tsvs=()
for p in $profiles; do
	vet_profile "$p" "$plan" "$RESULTS/$p"
	tsvs+=("$RESULTS/$p/results.tsv")
done
finish "${tsvs[@]}"
