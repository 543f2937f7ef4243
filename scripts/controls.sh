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
. "$(dirname "$0")/lib.sh"

profile=${1:?usage: controls.sh PROFILE TSV PLAN...}
tsv=${2:?usage: controls.sh PROFILE TSV PLAN...}
shift 2
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

for plan in "$@"; do
	planfile=$RCUVET_ROOT/configs/plans/$plan.plan
	grep -q '^control:' "$planfile" || die "plan '$plan' has no 'control:' line"
	p=$(sed -n 's/^profile:[[:space:]]*//p' "$planfile")
	p=${p:-$profile}
	out=$RESULTS/$p/controls/$plan
	start=$(date +%s)
	# A control is meant to fail: its failures stay in its verdict.txt,
	# not on the terminal, where they would read as the suite's own.
	set +e
	"$RCUVET_ROOT/scripts/vet.sh" "$p" "$plan" "$out" | { grep --line-buffered -v '^    FAIL: ' || true; }
	rc=${PIPESTATUS[0]}
	set -e
	[ $rc -le 1 ] || die "control '$plan' could not run (status $rc)"
	why=$(judge "$planfile" "$out" "$rc" | paste -sd';' -)
	if [ -z "$why" ]; then
		note "control $plan: held"
		printf 'controls\t%s\tpass\t%s\t\n' "$plan" $(($(date +%s) - start)) >>"$tsv"
	else
		note "control $plan: DID NOT HOLD: $why"
		printf 'controls\t%s\tfail\t%s\t%s\n' "$plan" $(($(date +%s) - start)) "$why" >>"$tsv"
	fi
done
