#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lava-boot PROFILE PLAN OUTDIR: vet.sh's boot step when the run's boots
# go to a LAVA lab (scripts/lava.sh, RCUVET_LAVA_PASS).  The boot is the
# store folder of OUTDIR/boot.key (lava-lib.sh).
#   queue  its job written (lava-job.sh), the boot added to the run's;
#          exits 4: nothing to judge yet
#   judge  the console the lab recorded copied to OUTDIR/console.log, as
#          boot.sh leaves a local boot's (exits 0); an infrastructure error
#          is said and exits 3, a boot never collected 2
. "$(dirname "$0")/lava-lib.sh"

profile=${1:?usage: lava-boot.sh PROFILE PLAN OUTDIR}
plan=${2:?usage: lava-boot.sh PROFILE PLAN OUTDIR}
out=${3:?usage: lava-boot.sh PROFILE PLAN OUTDIR}
key=$(cat "$out/boot.key")
dir=$LAVA_DIR/boots/$key
rel=${out#"$RESULTS"/}

case ${RCUVET_LAVA_PASS:-} in
queue)
	echo "$key" >>"$LAVA_DIR/run.keys"
	lava_final "$dir" && exit 4
	mkdir -p "$dir"
	# Written again each time: a job submitted again fetches its
	# artifacts from this run's ARTIFACT_URL.
	printf '%s\t%s\t%s\n' "$profile" "$plan" "$rel" >"$dir/boot"
	"$RCUVET_ROOT/scripts/lava-job.sh" "$profile" "$plan" "$rel" >"$dir/job.yaml.new"
	mv "$dir/job.yaml.new" "$dir/job.yaml"
	note "boot $profile, plan $plan: queued for the LAVA lab"
	exit 4
	;;
judge) ;;
*) die "RCUVET_LAVA_PASS=${RCUVET_LAVA_PASS:-}: not queue or judge (scripts/lava.sh sets it)" ;;
esac

jobs=$(paste -sd, "$dir/jobs" 2>/dev/null || true)
if [ -f "$dir/console.log" ]; then
	cp "$dir/console.log" "$out/"
	{ echo "LAVA job(s) $jobs on $(cat "$dir/lab")"; cat "$dir/lava.txt"; } >"$out/lava.txt"
	step "boot $profile, plan $plan: on the LAVA lab, job $(tail -n 1 "$dir/jobs") ($(cat "$dir/lava.txt"))"
	exit 0
fi
if [ -f "$dir/infra.txt" ]; then
	{ printf 'LAVA job(s) %s: ' "$jobs"; cat "$dir/infra.txt"; } | tee "$out/infra.txt" >&2
	exit 3
fi
DIE_STATUS=2 die "boot $profile, plan $plan was not collected from the LAVA lab (${dir#"$RCUVET_ROOT"/}): run again to collect it"
