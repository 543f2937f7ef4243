# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# judge-control.sh, sourced by controls.sh (and its host test): how a
# control's run is judged against its plan's "control:" lines.

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

# judge PLANFILE OUTDIR RC [LABEL]: print why the control did not hold, if
# it did not.  LABEL: the plan ran in a shared boot, its steps named
# "LABEL:STEP": its verdict lines are those of its own steps, and the boot
# must have come to its end with every step run.
judge() {
	local planfile=$1 out=$2 rc=$3 label=${4:-} kind arg text got

	# A control judged on its tests needs all of them: a boot that timed
	# out or crashed half way has not shown the tests it never ran.  Only
	# a control about the verdict itself (verdict-fails) may end early.
	if [ -n "$label" ] || ! grep -q '^control:[[:space:]]*verdict-fails' "$planfile"; then
		all_match "$out/results.tsv" boot-complete pass
		all_match "$out/results.tsv" plan-complete pass
	fi
	# An emulated boot whose RCU kthreads were not confined to an isolated
	# CPU (guest/init.c, guest/rcu-pin.c) may wait for readers that the
	# emulation must skip: it shows nothing, whatever the control wants.
	# Any plan's line counts: in a shared boot the first plan pins for all.
	! grep -qsF -- "RCU emulation requirement not met" "$out/verdict.txt" ||
		echo "the RCU emulation's requirements were not met (see the verdict)"
	while read -r kind arg; do
		case "$kind" in
		verdict-passes)
			if [ -n "$label" ]; then
				! grep -qsF -- "FAIL: $label:" "$out/verdict.txt" ||
					echo "the verdict failed its steps"
				awk -F'\t' '$1 != "harness" && $3 == "fail" { f = 1 } END { exit f }' \
					"$out/results.tsv" || echo "some of its tests failed"
				continue
			fi
			[ "$rc" -eq 0 ] || echo "the run failed"
			;;
		verdict-fails)
			if [ -n "$label" ]; then
				grep -sF -- "FAIL: $label:" "$out/verdict.txt" | grep -qF -- "$arg" ||
					echo "the verdict does not say '$arg' of its steps"
				continue
			fi
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
		console-counts)
			# "N TEXT": N lines of its console say TEXT (why its
			# cases failed, where the verdict keeps only where).
			text=${arg#* }
			got=$(grep -acF -- "$text" "$out/console.log" 2>/dev/null || true)
			[ "${got:-0}" = "${arg%% *}" ] ||
				echo "${got:-0} console lines say '$text', not ${arg%% *}"
			;;
		*)
			echo "unknown control line 'control: $kind'"
			;;
		esac
	done < <(sed -n 's/^control:[[:space:]]*//p' "$planfile")
}
