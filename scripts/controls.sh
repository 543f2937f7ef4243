#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# controls PROFILE TSV PLAN...: run negative (and positive) controls.  A
# control plan says how its run must end, on host-only lines:
#   control: verdict-fails TEXT   the run fails, the verdict (or the boot
#                                 step, for a hang) says TEXT
#   control: test-fails PATH      the test PATH is among the failures
#   control: tests-fail GLOB      every test matching GLOB failed (and some did)
#   control: tests-pass GLOB      every test matching GLOB passed (and some did)
#   control: verdict-passes       the run passes
#   control: console-counts N TEXT  N lines of its console say TEXT (why its
#                                 tests failed: the verdict keeps where)
# A control passes when its run ends that way; each is one row of TSV.
# "profile: NAME" in a control plan boots that profile instead of PROFILE.
# Controls judged on their tests alone, on a clean kernel, share one boot;
# so do those whose splat is a lockdep RCU complaint in their own steps
# (see share_group).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/judge-control.sh"
. "$(dirname "$0")/control-groups.sh"

profile=${1:?usage: controls.sh PROFILE TSV PLAN...}
tsv=${2:?usage: controls.sh PROFILE TSV PLAN...}
shift 2
"$RCUVET_ROOT/scripts/validate.sh" -p "$profile" -C "$*"
mkdir -p "$(dirname "$tsv")"
: >"$tsv"

# record PLAN OUTDIR RC SECONDS [LABEL]: judge one control, say and write
# how it went.
record() {
	local why

	why=$(judge "$RCUVET_ROOT/configs/plans/$1.plan" "$2" "$3" "${5:-}" | paste -sd';' -)
	if [ -z "$why" ]; then
		note "control $1: held"
		printf 'controls\t%s\tpass\t%s\t\n' "$1" "$4" >>"$tsv"
	else
		note "control $1: DID NOT HOLD: $why"
		printf 'controls\t%s\tfail\t%s\t%s\n' "$1" "$4" "$why" >>"$tsv"
		return 1
	fi
}

# could_not_run OUTDIR PLAN...: a failed row each, for the boot of OUTDIR
# that never came to a verdict (a build failed: its message is above).
could_not_run() {
	local plan why

	why=$(vet_stopped "$1" "$rc")
	shift
	for plan in "$@"; do
		note "control $plan: COULD NOT RUN: $why"
		printf 'controls\t%s\tfail\t0\tcould not run: %s\n' "$plan" "$why" >>"$tsv"
	done
}

# run_shared GROUP PLAN...: one boot runs the plans one after the other;
# the verdict names each one's steps "PLAN:STEP", and each control is
# judged on its own rows (and the harness's), verdict lines and console
# lines (from its "rcuvet: plan PLAN" to the next plan or the end) only.
run_shared() {
	local group=$1 out=$RESULTS/$profile/controls/$1 start secs held=1 plan joined

	shift
	start=$(date +%s)
	note "$# controls share one boot ($group): $*"
	joined=$(IFS=+ && echo "$*")
	vet_control "$profile" "$joined" "$out"
	if [ "$rc" -gt 1 ]; then
		could_not_run "$out" "$@"
		return
	fi
	secs=$((($(date +%s) - start) / $#))
	for plan in "$@"; do
		mkdir -p "$out/$plan"
		awk -F'\t' -v OFS='\t' -v p="$plan:" '
			$1 == "harness" { print; next }
			index($1, p) == 1 { $1 = substr($1, length(p) + 1); print }
		' "$out/results.tsv" >"$out/$plan/results.tsv"
		awk -v p="$plan" '{ l = $0; sub(/\r$/, "", l) }
			l ~ /rcuvet: (plan |done)/ { f = l ~ ("rcuvet: plan " p "$") } f
		' "$out/console.log" >"$out/$plan/console.log"
		cp "$out/verdict.txt" "$out/$plan/"
		record "$plan" "$out/$plan" "$rc" "$secs" "$plan" || held=0
	done
	[ $held -eq 0 ] || boot_cache_keep "$out"
}

group_controls "$profile" "$@" || exit 1
[ ${#clean[@]} -eq 0 ] || run_shared clean "${clean[@]}"
[ ${#splats[@]} -eq 0 ] || run_shared splats "${splats[@]}"

for plan in "${alone[@]}"; do
	p=$(profile_of "$RCUVET_ROOT/configs/plans/$plan.plan" "$profile")
	out=$RESULTS/$p/controls/$plan
	start=$(date +%s)
	vet_control "$p" "$plan" "$out"
	if [ "$rc" -gt 1 ]; then
		could_not_run "$out" "$plan"
	elif record "$plan" "$out" "$rc" $(($(date +%s) - start)); then
		boot_cache_keep "$out"
	fi
done
