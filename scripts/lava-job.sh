#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lava-job PROFILE PLAN RESULTS: the LAVA job definition of one boot, for
# LAVA's QEMU device type, on stdout: PLAN booted on PROFILE, its results
# folder RESULTS (relative to results/).  It deploys the profile's kernel
# and initramfs from ARTIFACT_URL/<tree>/<profile>/ (the URL prefix under
# which the lab fetches LAVA_DIR/artifacts/, required; LAVA_DIR defaults
# to results/lava), copying them there when built, boots them with
# boot.sh's command line, machine, vCPUs and memory under TCG, and watches
# the console from /init's first line to its end marker within the plan's
# limits.  LAVA's own verdict decides nothing: the console it records is
# judged by rcuvet's (scripts/lava-log.sh, docs/scale-out.md).  Nothing is
# built or booted.
# TSC_KHZ: the guest's TSC frequency, as boot.sh measures it on this host
# (the default); "none" lets the kernel calibrate it, for a lab whose
# workers' TSC differs.  LAVA_DEVICE_TYPE: the lab's name for its QEMU
# device type (default qemu).
# Sourced (lava-jobs.sh), it defines lava_job and writes nothing.
. "$(dirname "${BASH_SOURCE[0]}")/boot.sh"

LAVA_DIR=${LAVA_DIR:-$RESULTS/lava}
device_type=${LAVA_DEVICE_TYPE:-qemu}
# Seconds LAVA may take to fetch a boot's kernel and initramfs, and to
# end a job once its console is read.
deploy_s=600 margin_s=600

[ -n "${ARTIFACT_URL:-}" ] ||
	die "ARTIFACT_URL is not set: the URL prefix under which the LAVA lab fetches the kernels and initramfs laid out in ${LAVA_DIR#"$RCUVET_ROOT"/}/artifacts/ (e.g. ARTIFACT_URL=https://host/rcuvet make lava-jobs)"
case $ARTIFACT_URL in
http://?* | https://?* | file:///*) ;;
*) die "ARTIFACT_URL=$ARTIFACT_URL: not an http://, https:// or file:/// URL prefix" ;;
esac
url=${ARTIFACT_URL%/}
case ${TSC_KHZ:=$("$(host_tool tsc-khz)")} in
none) tsc= ;;
'' | *[!0-9]* | 0*) die "TSC_KHZ=$TSC_KHZ: not a frequency in kHz (a positive integer) or 'none'" ;;
*) tsc=$TSC_KHZ ;;
esac
missing=()

# yq TEXT: TEXT as a single-quoted YAML scalar.
yq() {
	printf "'%s'" "${1//\'/\'\'}"
}

# mebibytes SIZE: QEMU's -m SIZE (2G, 512M, 512) in MiB, LAVA's memory.
mebibytes() {
	case $1 in
	*[Gg]) echo $((${1%?} * 1024)) ;;
	*[Mm]) echo "${1%?}" ;;
	*[!0-9]* | '') die "profile '$PROFILE': QEMU_MEM=$1 is not a size LAVA's memory takes (N, NM or NG)" ;;
	*) echo "$1" ;;
	esac
}

# artifact FILE NAME: copy the loaded profile's FILE to artifacts/ as NAME
# (when built) and print its deploy entry's url and checksum lines.
artifact() {
	local dir=$LAVA_DIR/artifacts/$TREE_TAG/$PROFILE

	printf '        url: %s\n' "$(yq "$url/$TREE_TAG/$PROFILE/$2")"
	if [ ! -f "$1" ]; then
		missing+=("$PROFILE: ${1#"$RCUVET_ROOT"/}")
		return 0
	fi
	mkdir -p "$dir"
	cmp -s "$1" "$dir/$2" || cp "$1" "$dir/$2"
	printf '        sha256sum: %s\n' "$(sha256sum "$dir/$2" | cut -d' ' -f1)"
}

# monitor NAME START END SECONDS: a monitors test action that reads the
# console from START to END, at most SECONDS, its timeout skipped: a
# guest that hangs ends the job Complete with its console, which the
# verdict fails for the missing end marker, as it fails a local boot's.
monitor() {
	cat <<EOF
- test:
    timeout: {seconds: $4, skip: true}
    monitors:
    - name: $1
      start: $(yq "$2")
      end: $(yq "$3")
      pattern: 'rcuvet: end (?P<test_case_id>\S+) status=(?P<result>[-0-9])'
      fixupdict: {'0': pass, '-': fail, '1': fail, '2': fail, '3': fail, '4': fail,
        '5': fail, '6': fail, '7': fail, '8': fail, '9': fail}
EOF
}

# lava_job PROFILE PLAN RESULTS LABEL: the job of one boot, its local
# results folder RESULTS (relative to results/), on stdout; LAVA_JOB_SECS
# is its boot's limit.
lava_job() {
	local plan=$2 rel=$3 label=$4 limit all cmdline extra i

	load_profile "$1"
	[ -z "$QEMU_ICOUNT" ] ||
		die "profile '$PROFILE' runs under QEMU's -icount (make bench), which the LAVA jobs do not carry"
	limit=$(boot_plan_limit "$plan")
	all=$((BOOT_TIMEOUT + limit))
	cmdline=$(boot_cmdline "$plan" "$tsc")
	case $cmdline in
	*[\"\\]*) die "profile '$PROFILE': its command line has a '\"' or '\\', which LAVA's -append cannot carry: $cmdline" ;;
	esac
	extra=()
	for ((i = 0; i < ${#QEMU_MACHINE[@]}; i += 2)); do
		extra+=("${QEMU_MACHINE[i]} ${QEMU_MACHINE[i + 1]}")
	done
	extra+=("-smp $QEMU_SMP" -no-reboot)
	{
		cat <<EOF
# rcuvet: $label, written by scripts/lava-jobs.sh; judged by rcuvet's
# verdict on the console LAVA records (scripts/lava-log.sh).
job_name: $(yq "rcuvet $TREE_NAME $label")
device_type: $device_type
visibility: public
priority: medium
metadata:
  rcuvet.tree: $(yq "$TREE_NAME")
  rcuvet.profile: $(yq "$PROFILE")
  rcuvet.plan: $(yq "$plan")
  rcuvet.results: $(yq "$rel")
timeouts:
  job: {seconds: $((deploy_s + all + margin_s))}
  connections:
    lava-test-monitor: {seconds: $((all + 60))}
context:
  arch: x86_64
  memory: $(mebibytes "$QEMU_MEM")
  extra_options:
EOF
		for i in "${extra[@]}"; do
			printf '  - %s\n' "$(yq "$i")"
		done
		cat <<EOF
actions:
- deploy:
    to: tmpfs
    timeout: {seconds: $deploy_s}
    images:
      kernel:
        image_arg: $(yq "-kernel {kernel} -append \"$cmdline\"")
EOF
		artifact "$KOBJ/arch/x86/boot/bzImage" bzImage
		cat <<EOF
      initrd:
        image_arg: '-initrd {initrd}'
EOF
		artifact "$OBJ/initramfs.cpio" initramfs.cpio
		# The boot action only starts QEMU; its timeout is also how long
		# the console may stay silent while the monitors read it.
		cat <<EOF
- boot:
    method: qemu
    media: tmpfs
    timeout: {seconds: $all}
EOF
		# A plan's own limit counts from its first step, as in boot.sh:
		# from /init's first line to that step, the profile's limit; from
		# there (the step's name is the next text) to the end, the plan's.
		if [ "$limit" -gt 0 ]; then
			monitor rcuvet-boot 'rcuvet: cpus online=' 'rcuvet: begin ' "$BOOT_TIMEOUT"
			monitor rcuvet-plan '\S' 'rcuvet: done errors=' "$limit"
		else
			monitor rcuvet 'rcuvet: cpus online=' 'rcuvet: done errors=' "$all"
		fi
	}
	# shellcheck disable=SC2034 # lava-jobs.sh reads it
	LAVA_JOB_SECS=$all
}

[ "${BASH_SOURCE[0]}" = "$0" ] || return 0

lava_job "${1:?usage: lava-job.sh PROFILE PLAN RESULTS}" "${2:?usage: lava-job.sh PROFILE PLAN RESULTS}" \
	"${3:?usage: lava-job.sh PROFILE PLAN RESULTS}" "${3}: plan $2"
[ ${#missing[@]} -eq 0 ] || die "not built: ${missing[*]}"
