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

step "API coverage: every member has a test or a stated reason"
cov=$RESULTS/api-coverage.tsv
if "$RCUVET_ROOT/scripts/api-coverage.sh" "$RESULTS/api-coverage.md" "${tsvs[@]:1}" 2>"$RESULTS/api-coverage.err"; then
	printf 'coverage\tapi-members-covered\tpass\t0\t\n' >"$cov"
else
	cat "$RESULTS/api-coverage.err" >&2
	printf 'coverage\tapi-members-covered\tfail\t0\t%s\n' "$(head -c 300 "$RESULTS/api-coverage.err")" >"$cov"
fi
tsvs+=("$cov")

ctl=${CONTROLS_PROFILE:-${profiles%% *}}
step "negative controls on $ctl"
mapfile -t plans < <(basename -s .plan "$RCUVET_ROOT"/configs/plans/ctl-*.plan)
"$RCUVET_ROOT/scripts/controls.sh" "$ctl" "$RESULTS/$ctl/controls.tsv" "${plans[@]}"
tsvs+=("$RESULTS/$ctl/controls.tsv")

finish "${tsvs[@]}"
