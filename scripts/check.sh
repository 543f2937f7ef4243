#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# check: the test suite.  Host tests of the pipeline first (no kernel
# needed), then the check plan on the first profile and the negative
# controls on it, while the other profiles' kernels build in the
# background; then the check plan on those, each TREE:PROFILE of
# CHECK_TREES (default 6.1:nopreempt) with that tree's plan (check-TREE),
# the bench pipeline and the API coverage on the check
# runs, and one closing line over all of it.
. "$(dirname "$0")/lib.sh"

profiles=$CHECK_PROFILES
# PLAN=check+dev-NAME adds your own plan to the check runs (README, "Plans").
plan=${PLAN:-check}
first=${profiles%% *}
read -ra later <<<"${profiles#"$first"}"
ctl=${CONTROLS_PROFILE:-$first}
mapfile -t plans < <(control_plans)
"$RCUVET_ROOT/scripts/validate.sh" -p "$profiles $ctl" -P "$plan" -C "${plans[*]}"
check_tree_runs "$first" tree_runs
validate_tree_runs "${tree_runs[@]}"
export RCUVET_BOOT_CACHE=1
# results/lava/ keeps what a run on a LAVA lab collected (lava.sh).
mkdir -p "$RESULTS"
find "$RESULTS" -mindepth 1 -maxdepth 1 ! -name lava -exec rm -rf {} +

step "host tests of the pipeline"
rc=0
# On a LAVA lab, they run once: when the boots are judged (lava.sh).
# Results that passed are kept under the hash of what the tests read
# (host_tests_key): a check with nothing changed shows them again, as it
# judges a cached boot again; FRESH=1 runs them.
key=$(host_tests_key)
kept=$BUILD/host-tests/$key.tsv
if [ "${RCUVET_LAVA_PASS:-}" = queue ]; then
	:
elif [ -n "$key" ] && [ -z "${FRESH:-}" ] && [ -f "$kept" ]; then
	note "nothing changed since they passed at $(date -r "$kept" '+%F %T'); their results again (FRESH=1 runs them)"
	cp "$kept" "$RESULTS/host-tests.tsv"
	note "$(awk -F'\t' '{ n[$3]++ } END { printf "%d passed, %d failed", n["pass"], n["fail"] }' "$kept")"
elif "$RCUVET_ROOT/tests/run.sh" "$RESULTS/host-tests.tsv"; then
	[ -z "$key" ] || { mkdir -p "${kept%/*}" && cp "$RESULTS/host-tests.tsv" "$kept"; }
else
	rc=$?
fi
# A run that stopped before its cases must not count as no failure.
if [ $rc -ne 0 ] && ! grep -qP '\tfail\t' "$RESULTS/host-tests.tsv" 2>/dev/null; then
	printf 'host-tests\ttests/run.sh\tfail\t0\tstopped with status %d before its cases\n' \
		"$rc" >>"$RESULTS/host-tests.tsv"
fi

# vet_check PROFILE: the check plan on PROFILE.
runs=()
vet_check() {
	vet_profile "$1" "$plan" "$RESULTS/$1"
	runs+=("$RESULTS/$1/results.tsv")
}

# The mutant kernels the controls boot build in the background too, first:
# each is its base's objects and a few files (lib.sh, load_profile).
mapfile -t mutants < <(control_mutants "${plans[@]}")
prebuild "$first" "${mutants[@]}" "${later[@]}" "${tree_runs[@]/ /:}"
vet_check "$first"

step "negative controls on $ctl"
"$RCUVET_ROOT/scripts/controls.sh" "$ctl" "$RESULTS/$ctl/controls.tsv" "${plans[@]}"

for p in "${later[@]}"; do
	vet_check "$p"
done

trees=() tree_results=()
for r in "${tree_runs[@]}"; do
	read -r t p <<<"$r"
	RCUVET_TREE=$t vet_profile "$p" "check-$t" "$RESULTS/$t/$p"
	trees+=("$t") tree_results+=("$RESULTS/$t/$p/results.tsv")
done

step "bench pipeline on the check run's measurements"
"$RCUVET_ROOT/scripts/bench-smoke.sh" "$RESULTS/$first" "$RESULTS/bench-smoke.tsv" || true

step "API coverage: every member has a test or a stated reason"
cov=$RESULTS/api-coverage.tsv
if "$RCUVET_ROOT/scripts/api-coverage.sh" "$RESULTS/api-coverage.md" "${runs[@]}" \
	2>"$RESULTS/api-coverage.err"; then
	printf 'coverage\tapi-members-covered\tpass\t0\t\n' >"$cov"
else
	cat "$RESULTS/api-coverage.err" >&2
	printf 'coverage\tapi-members-covered\tfail\t0\t%s\n' \
		"$(head -c 300 "$RESULTS/api-coverage.err")" >"$cov"
fi
# tree_coverage TREE RESULTS.TSV...: what TREE was vetted for: tested,
# skipped-absent, removed.
tree_coverage() {
	"$RCUVET_ROOT/scripts/api-coverage.sh" -t "$1" "$RESULTS/$1/api-coverage.md" "${@:2}" \
		2>/dev/null || note "rcuvet: the coverage table of $1 failed"
}
tree_coverage "$TREE_NAME" "${runs[@]}"
# each other tree's from all of its runs
for t in $(printf '%s\n' "${trees[@]}" | sort -u); do
	of_t=()
	for i in "${!trees[@]}"; do
		[ "${trees[$i]}" != "$t" ] || of_t+=("${tree_results[$i]}")
	done
	tree_coverage "$t" "${of_t[@]}"
done

finish "$RESULTS/host-tests.tsv" "${runs[@]}" "$RESULTS/bench-smoke.tsv" "$cov" \
	"$RESULTS/$ctl/controls.tsv" "${tree_results[@]}"
