#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lava-jobs [OUTDIR]: a LAVA job definition for every boot make check runs
# (the check plan on each profile, the controls' boots, the other trees'
# boots of CHECK_TREES), as lava-job.sh
# writes one, to OUTDIR (default results/lava) as
#   jobs/<profile>/<plan>.yaml                 the check plan's boots
#   jobs/<tree>/<profile>/check-<tree>.yaml    another tree's (as results/:
#                                              <tree> is 6.1)
#   jobs/<profile>/controls/<plan|group>.yaml  the controls' (as results/)
#   jobs.tsv                                   job, profile, plan(s), the
#                                              results folder, seconds
#   artifacts/<tag>/<profile>/{bzImage,initramfs.cpio}
#                                              copies of what is built
#                                              (<tag>: the tree's build
#                                              folder, debian-6.1 for 6.1)
# ARTIFACT_URL (required), TSC_KHZ, LAVA_DEVICE_TYPE: see lava-job.sh.
# Nothing is built or booted.
LAVA_DIR=${1:-}
. "$(dirname "$0")/lava-job.sh"
. "$(dirname "$0")/control-groups.sh"

out=$LAVA_DIR
plan=${PLAN:-check}
read -ra profiles <<<"$CHECK_PROFILES"
ctl=${CONTROLS_PROFILE:-${profiles[0]}}
mapfile -t ctl_plans < <(control_plans)
"$RCUVET_ROOT/scripts/validate.sh" -p "${profiles[*]} $ctl" -P "$plan" -C "${ctl_plans[*]}"
check_tree_runs "${profiles[0]}" tree_runs
validate_tree_runs "${tree_runs[@]}"

# job PROFILE PLAN RESULTS LABEL: the job of one boot into its file under
# jobs/ (as RESULTS, relative to results/), and its row of jobs.tsv.
job() {
	local file

	case $3 in
	*/controls/*) file=$out/jobs/$3.yaml ;;
	*) file=$out/jobs/$3/$2.yaml ;;
	esac
	mkdir -p "$(dirname "$file")"
	lava_job "$@" >"$file"
	printf '%s\t%s\t%s\t%s\t%s\n' "${file#"$out"/}" "$PROFILE" "$2" "$3" "$LAVA_JOB_SECS" >>"$out/jobs.tsv"
}

step "LAVA jobs: ${out#"$RCUVET_ROOT"/}/jobs/ (artifacts from $url/)"
rm -rf "$out/jobs"
mkdir -p "$out/jobs"
: >"$out/jobs.tsv"
for p in "${profiles[@]}"; do
	job "$p" "$plan" "$p" "$p, plan $plan"
done
group_controls "$ctl" "${ctl_plans[@]}" || exit 1
# shared GROUP PLAN...: the job of a group of controls sharing a boot.
shared() {
	local group=$1

	shift
	[ $# -eq 0 ] ||
		job "$ctl" "$(IFS=+ && echo "$*")" "$ctl/controls/$group" \
			"$ctl, $# controls in one boot ($group)"
}
shared clean "${clean[@]}"
shared splats "${splats[@]}"
for p in "${alone[@]}"; do
	prof=$(profile_of "$RCUVET_ROOT/configs/plans/$p.plan" "$ctl")
	job "$prof" "$p" "$prof/controls/$p" "$prof, control $p"
done
# tree_job TREE PROFILE: the job of TREE's boot, in a subshell whose
# lib.sh, sourced again, names TREE's folders; prints what is not built.
tree_job() {
	(
		export RCUVET_TREE=$1
		# shellcheck source=lava-job.sh
		. "$RCUVET_ROOT/scripts/lava-job.sh"
		job "$2" "check-$1" "$1/$2" "$2, plan check-$1"
		[ ${#missing[@]} -eq 0 ] || printf '%s\n' "${missing[@]}"
	)
}
# Not "tree_job ... || exit": errexit would be off in its subshell.
unbuilt=$(mktemp)
trap 'rm -f "$unbuilt"' EXIT
for r in "${tree_runs[@]}"; do
	read -r t p <<<"$r"
	tree_job "$t" "$p" >"$unbuilt"
	mapfile -t -O ${#missing[@]} missing <"$unbuilt"
done
note "$(wc -l <"$out/jobs.tsv") jobs; serve ${out#"$RCUVET_ROOT"/}/artifacts/ at $url/"
if [ ${#missing[@]} -gt 0 ]; then
	note "not built yet, so their jobs carry no checksum and the lab has nothing to fetch; make check builds them (then make lava-jobs again):"
	printf '%s\n' "${missing[@]}" | sort -u | sed 's/^/      /'
fi
