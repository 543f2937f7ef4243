#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# reliance-idle: the idle baselines of the reliance report (make
# reliance-baseline).  For each profile of PROFILES (default: those whose
# check and run plans read the report, debug, nopreempt and debug-rt, and
# emulate-4.19; on another tree (TREE=6.1) or one without the emulation
# (KSRC= unpatched) debug and nopreempt),
# one boot of configs/plans/reliance-idle.plan, which runs no test; the
# sites its report lists are the kernel's own, and
# scripts/reliance-baseline.sh writes them, with where they came from, to
# reliance_baseline_file (configs/reliance-baseline-TREE-PROFILE.txt).
# report.sh marks them in every later run's report.  Commit the files:
# measured data, made again when the kernel changes.  Fails if a boot
# printed no complete report, or listed a site of the code under test,
# and, unless FORCE=1, if it failed, its report lost hits or lockdep was
# off (that profile's file is left as it was; reliance-baseline.sh).
. "$(dirname "$0")/lib.sh"

if [ "$RCUVET_TREE" = 6.12 ] && tree_has_option RCU_EMULATE_UNCONSOLIDATED; then
	profiles=${PROFILES:-debug nopreempt debug-rt emulate-4.19}
else
	profiles=${PROFILES:-debug nopreempt}
fi
"$RCUVET_ROOT/scripts/validate.sh" -p "$profiles" -P reliance-idle
# shellcheck disable=SC2086 # one word per profile
prebuild $profiles
failed=0
for p in $profiles; do
	out=$RESULTS/reliance-idle/$p
	file=$(reliance_baseline_file "$p")
	vet_profile "$p" reliance-idle "$out"
	if "$RCUVET_ROOT/scripts/reliance-baseline.sh" baseline "$out" >"$out/baseline.txt" 2>"$out/baseline.err"; then
		cp "$out/baseline.txt" "$file"
		note "$p: ${file#"$RCUVET_ROOT"/}: $(grep -vc '^#' "$file" || true) sites (verdict $(jq -r .verdict "$out/run.json"))"
	else
		note "$p: no baseline written: $(cat "$out/baseline.err")"
		failed=1
	fi
done
exit $failed
