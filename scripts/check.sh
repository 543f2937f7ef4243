#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# check: the test suite.  Host tests of the pipeline first (no kernel
# needed), then the check plan on every profile, then the negative
# controls, then one closing line over all of it.
. "$(dirname "$0")/lib.sh"

profiles=${PROFILES:-debug nopreempt}
for p in $profiles; do load_profile "$p"; done
rm -rf "$RESULTS"
mkdir -p "$RESULTS"
tsvs=("$RESULTS/host-tests.tsv")

step "host tests of the pipeline"
"$RCUVET_ROOT/tests/run.sh" "$RESULTS/host-tests.tsv" || true

for p in $profiles; do
	vet_profile "$p" check "$RESULTS/$p"
	tsvs+=("$RESULTS/$p/results.tsv")
done

ctl=${CONTROLS_PROFILE:-${profiles%% *}}
step "negative controls on $ctl"
mapfile -t plans < <(basename -s .plan "$RCUVET_ROOT"/configs/plans/ctl-*.plan)
"$RCUVET_ROOT/scripts/controls.sh" "$ctl" "$RESULTS/$ctl/controls.tsv" "${plans[@]}"
tsvs+=("$RESULTS/$ctl/controls.tsv")

finish "${tsvs[@]}"
