#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# torture: the tree's rcutorture scenarios (tools/testing/selftests/
# rcutorture/configs/rcu/CFLIST, or SCENARIOS=A,B), each built from its
# own scenario files and booted under TCG through the pipeline, judged by
# rcutorture's rules (torture-judge.sh) and by the verdict; the later
# scenarios' kernels build in the background while the earlier ones boot.
# TORTURE_DURATION seconds each (default 60), at most TORTURE_MAX_CPUS
# vCPUs (default: the host's CPUs, as kvm.sh).  TORTURE_EMULATE=4.19:
# the kernels have v4.19's grace periods (kernel/patches/0001-*), and the
# scenarios with PREEMPT_RCU must fail.  The table goes to
# results/torture/summary.md and summary.tsv (docs/torture.md).
. "$(dirname "$0")/lib.sh"
here=$RCUVET_ROOT/scripts

duration=${TORTURE_DURATION:-60}
max_cpus=${TORTURE_MAX_CPUS:-$(nproc)}
case $duration in '' | *[!0-9]* | 0*) die "TORTURE_DURATION is '$duration', not a positive number of seconds" ;; esac
case $max_cpus in '' | *[!0-9]* | 0*) die "TORTURE_MAX_CPUS is '$max_cpus', not a positive number of vCPUs" ;; esac
case ${TORTURE_EMULATE:-} in
'' | 4.19) ;;
*) die "TORTURE_EMULATE is '$TORTURE_EMULATE': 4.19 (v4.19's grace periods) or empty" ;;
esac
[ -z "${TORTURE_EMULATE:-}" ] || tree_has_option RCU_EMULATE_UNCONSOLIDATED ||
	die "TORTURE_EMULATE=4.19 needs CONFIG_RCU_EMULATE_UNCONSOLIDATED (kernel/patches/0001-*), which this tree lacks: PATCHES=1 applies it to KSRC"
export TORTURE_DURATION=$duration TORTURE_MAX_CPUS=$max_cpus TORTURE_EMULATE=${TORTURE_EMULATE:-}
list=${SCENARIOS:-}
read -ra wanted <<<"${list//,/ }"
for s in "${wanted[@]}"; do
	[[ $s =~ ^[A-Za-z0-9][A-Za-z0-9-]*$ ]] || die "SCENARIOS names '$s', not a scenario name (TREE01, SRCU-P, ...)"
done
"$here/validate.sh"

# The scenarios are the tree's: the tree first (extracted and patched
# once; no build yet), unless TORTURE_CONFIGS names another folder.
if [ -z "${TORTURE_CONFIGS:-}" ]; then
	"$here/tree.sh"
	export TORTURE_CONFIGS=$TREE/tools/testing/selftests/rcutorture/configs/rcu
fi
configs=$TORTURE_CONFIGS
[ -f "$configs/CFLIST" ] || die "no rcutorture scenarios in $configs (no CFLIST)"
# known: every scenario file of the folder (CFLIST names the default run).
known=$(find "$configs" -maxdepth 1 -type f -regex '.*/[A-Z0-9][A-Z0-9-]*' -printf '%f\n' |
	grep -vx -e CFLIST -e CFcommon | sort | xargs)
[ ${#wanted[@]} -gt 0 ] || read -ra wanted <<<"$(sed 's/#.*//' "$configs/CFLIST" | xargs)"
for s in "${wanted[@]}"; do
	case " $known " in *" $s "*) ;; *) die "unknown rcutorture scenario '$s'; scenarios: $known" ;; esac
done

# An emulated run is a control of its own, beside the stock run's table.
out=$RESULTS/torture${TORTURE_EMULATE:+-emulate-$TORTURE_EMULATE}
rm -rf "$out"
mkdir -p "$out"
step "rcutorture scenarios: ${wanted[*]} (${duration} s each, at most $max_cpus vCPUs${TORTURE_EMULATE:+, v$TORTURE_EMULATE grace periods})"
run=() skipped=()
for s in "${wanted[@]}"; do
	rc=0
	"$here/torture-scenario.sh" "$s" || rc=$?
	case $rc in
	0) run+=("$(torture_name "$s")") ;;
	3) skipped+=("$(torture_name "$s")") ;;
	*) die "scenario $s: its profile and plan could not be written" ;;
	esac
done
profiles=("${run[@]/#/torture-}")
if [ ${#run[@]} -gt 0 ]; then
	args=(-p "${profiles[*]}")
	for p in "${profiles[@]}"; do
		args+=(-P "$p")
	done
	"$here/validate.sh" "${args[@]}"
fi

tsv=$out/torture.tsv
rows=$out/summary.rows
: >"$tsv"
: >"$rows"
for s in "${skipped[@]}"; do
	why=$(cat "$BUILD/torture/$s/skip.txt")
	printf 'torture\t%s\tskip\t0\t%s\n' "$s" "$why" >>"$tsv"
	printf '%s\tskip\t-\t-\t-\t-\t-\t-\t-\t-\t%s\n' "$s" "$why" >>"$rows"
done

started=$(date +%s)
[ ${#run[@]} -eq 0 ] || prebuild "${profiles[@]}"
tsvs=("$tsv")
for s in "${run[@]}"; do
	p=torture-$s
	dir=$out/$s
	kobj=$(load_profile "$p" && printf '%s' "$KOBJ")
	t0=$(date +%s)
	built=0
	kernel_of "$p" || built=$?
	t1=$(date +%s)
	if [ "$built" -eq 0 ]; then
		vet_profile "$p" "$p" "$dir"
	else
		mkdir -p "$dir"
		printf '%s\tbuild-and-boot\tfail\t0\tthe kernel did not configure or build (%s)\n' \
			"$p" "${kobj#"$RCUVET_ROOT"/}" >"$dir/results.tsv"
	fi
	t2=$(date +%s)
	# An emulated boot must fail: its verdict's failures are expected.
	[ -n "$TORTURE_EMULATE" ] || tsvs+=("$dir/results.tsv")
	# Build seconds: of this run's build, else "up to date".
	secs="up to date"
	if [ "$built" -ne 0 ]; then
		secs=failed
	elif [ -f "$kobj/build-seconds" ] && [ "$(stat -c %Y "$kobj/build-seconds")" -ge "$started" ]; then
		secs=$(cat "$kobj/build-seconds")
	fi
	if [ "$built" -ne 0 ]; then
		result=fail end=- gps=- pipe=- splats=-
		why="the kernel did not configure or build (${kobj#"$RCUVET_ROOT"/}): its messages are above"
	else
		judged=$("$here/torture-judge.sh" ${TORTURE_EMULATE:+--must-fail} "$dir/console.log" \
			"$configs/../../bin/console-badness.sh" || true)
		IFS=$'\t' read -r result end gps pipe splats why <<<"$judged"
		[ -n "$result" ] || result=fail end=- gps=- pipe=- splats=- why="rcutorture's rules could not judge it"
		if [ -z "$TORTURE_EMULATE" ] && grep -qP '\tfail\t' "$dir/results.tsv"; then
			result=fail
			why="rcuvet's verdict failed${why:+; $why}"
		fi
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$s" "$result" "$end" "$gps" \
		"$pipe" "$splats" "$secs" $((t2 - t1)) "$(load_profile "$p" && echo "$QEMU_SMP")" \
		"$(paste -sd';' "$BUILD/torture/$s/reductions.txt")" "$why" >>"$rows"
	printf 'torture\t%s\t%s\t%s\t%s\n' "$s" "$result" $((t2 - t0)) "$why" >>"$tsv"
	note "$s: $result${why:+ ($why)}"
done

"$here/torture-summary.sh" "$rows" "$out/summary.md" "$out/summary.tsv" "$duration" "${TORTURE_EMULATE:-}"
note "table: ${out#"$RCUVET_ROOT"/}/summary.md"
finish "${tsvs[@]}"
