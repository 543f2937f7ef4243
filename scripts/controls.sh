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
# A control passes when its run ends that way; each is one row of TSV.
# "profile: NAME" in a control plan boots that profile instead of PROFILE.
# Controls judged on their tests alone, on a clean kernel, share one boot
# (see shares_boot).
. "$(dirname "$0")/lib.sh"

profile=${1:?usage: controls.sh PROFILE TSV PLAN...}
tsv=${2:?usage: controls.sh PROFILE TSV PLAN...}
shift 2
"$RCUVET_ROOT/scripts/validate.sh" -p "$profile" -C "$*"
mkdir -p "$(dirname "$tsv")"
: >"$tsv"

# all_match TSV GLOB RESULT: say so unless every test matching GLOB has
# RESULT, and at least one matches.
all_match() {
	local test result n=0 bad=0

	while IFS=$'\t' read -r _ test result _; do
		# shellcheck disable=SC2053
		[[ $test == $2 ]] || continue
		n=$((n + 1))
		[ "$result" = "$3" ] || bad=$((bad + 1))
	done <"$1"
	[ $n -gt 0 ] || echo "no test matches '$2'"
	[ $bad -eq 0 ] || echo "$bad of $n tests matching '$2' did not $3"
}

# judge PLANFILE OUTDIR RC: print why the control did not hold, if it did not.
judge() {
	local planfile=$1 out=$2 rc=$3 kind arg

	while read -r kind arg; do
		case "$kind" in
		verdict-passes)
			[ "$rc" -eq 0 ] || echo "the run failed"
			;;
		verdict-fails)
			[ "$rc" -eq 1 ] || echo "the run passed (status $rc)"
			grep -qsF -- "$arg" "$out/verdict.txt" "$out/boot.txt" ||
				echo "neither the verdict nor the boot says '$arg'"
			;;
		test-fails)
			awk -F'\t' -v t="$arg" '$2 == t && $3 == "fail" { f = 1 } END { exit !f }' \
				"$out/results.tsv" 2>/dev/null || echo "test '$arg' did not fail"
			;;
		tests-fail | tests-pass)
			all_match "$out/results.tsv" "$arg" "${kind#tests-}"
			;;
		*)
			echo "unknown control line 'control: $kind'"
			;;
		esac
	done < <(sed -n 's/^control:[[:space:]]*//p' "$planfile")
}

# profile_of PLANFILE: the profile a control boots.
profile_of() {
	local p

	p=$(sed -n 's/^profile:[[:space:]]*//p' "$1")
	printf '%s\n' "${p:-$profile}"
}

# shares_boot PLANFILE: a control judged on its own tests alone (no
# verdict-level line, no time limit of its own), on the default profile,
# that requires the kernel to stay clean (a splat of one would blind the
# lock debugging of the others), can share a boot with others like it:
# a boot costs a debug guest ~20 s.
shares_boot() {
	[ "$(profile_of "$1")" = "$profile" ] &&
		grep -qE '^control:[[:space:]]*tests-pass[[:space:]]+kernel-clean[[:space:]]*$' "$1" &&
		! grep -qE '^boot-timeout:|^control:[[:space:]]*verdict-' "$1"
}

# record PLAN OUTDIR RC SECONDS: judge one control, say and write how it went.
record() {
	local why

	why=$(judge "$RCUVET_ROOT/configs/plans/$1.plan" "$2" "$3" | paste -sd';' -)
	if [ -z "$why" ]; then
		note "control $1: held"
		printf 'controls\t%s\tpass\t%s\t\n' "$1" "$4" >>"$tsv"
	else
		note "control $1: DID NOT HOLD: $why"
		printf 'controls\t%s\tfail\t%s\t%s\n' "$1" "$4" "$why" >>"$tsv"
		return 1
	fi
}

# vet_control PROFILE PLAN OUTDIR: boot PLAN; vet.sh's status in $rc.  A
# control is meant to fail: its failures stay in its verdict.txt, not on
# the terminal, where they would read as the suite's own.
vet_control() {
	set +e
	"$RCUVET_ROOT/scripts/vet.sh" "$@" | { grep --line-buffered -v '^    FAIL: ' || true; }
	rc=${PIPESTATUS[0]}
	set -e
}

# could_not_run PLAN...: a failed row each, for a boot that never came to
# a verdict (a build failed: its message is above).
could_not_run() {
	local plan

	for plan in "$@"; do
		note "control $plan: COULD NOT RUN: vet.sh stopped with status $rc before a verdict"
		printf 'controls\t%s\tfail\t0\tcould not run: vet.sh stopped with status %s\n' \
			"$plan" "$rc" >>"$tsv"
	done
}

shared=() alone=()
for plan in "$@"; do
	planfile=$(plan_files "$plan") || exit 1
	if shares_boot "$planfile"; then
		shared+=("$plan")
	else
		alone+=("$plan")
	fi
done
[ ${#shared[@]} -gt 1 ] || { alone=("${shared[@]}" "${alone[@]}"); shared=(); }

# The shared boot runs the plans one after the other; the verdict names
# each one's steps "PLAN:STEP", and each control is judged on its own rows
# (and the harness's) only.
if [ ${#shared[@]} -gt 0 ]; then
	out=$RESULTS/$profile/controls/shared
	start=$(date +%s)
	note "${#shared[@]} controls share one boot: ${shared[*]}"
	joined=$(IFS=+ && echo "${shared[*]}")
	vet_control "$profile" "$joined" "$out"
	if [ "$rc" -gt 1 ]; then
		could_not_run "${shared[@]}"
	else
		secs=$((($(date +%s) - start) / ${#shared[@]}))
		held=1
		for plan in "${shared[@]}"; do
			mkdir -p "$out/$plan"
			awk -F'\t' -v OFS='\t' -v p="$plan:" '
				$1 == "harness" { print; next }
				index($1, p) == 1 { $1 = substr($1, length(p) + 1); print }
			' "$out/results.tsv" >"$out/$plan/results.tsv"
			record "$plan" "$out/$plan" "$rc" "$secs" || held=0
		done
		[ $held -eq 0 ] || boot_cache_keep "$out"
	fi
fi

for plan in "${alone[@]}"; do
	p=$(profile_of "$RCUVET_ROOT/configs/plans/$plan.plan")
	out=$RESULTS/$p/controls/$plan
	start=$(date +%s)
	vet_control "$p" "$plan" "$out"
	if [ "$rc" -gt 1 ]; then
		could_not_run "$plan"
	elif record "$plan" "$out" "$rc" $(($(date +%s) - start)); then
		boot_cache_keep "$out"
	fi
done
