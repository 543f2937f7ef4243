#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# vet PROFILE PLAN OUTDIR: every step for one boot: tree, configure, build
# kernel, modules and guest programs, initramfs, boot, verdict, report.
# Exits 0 if the run passed, 1 if it failed, 2 if no verdict could be
# reached (a step before the verdict failed).
. "$(dirname "$0")/lib.sh"
DIE_STATUS=2

profile=${1:?usage: vet.sh PROFILE PLAN OUTDIR}
plan=${2:?usage: vet.sh PROFILE PLAN OUTDIR}
out=${3:?usage: vet.sh PROFILE PLAN OUTDIR}
start=$(date +%s)
load_profile "$profile"
here=$RCUVET_ROOT/scripts
"$here/validate.sh" -p "$profile" -P "$plan" || exit 2
kernel_of "$profile" || exit 2
"$here/build-modules.sh" "$profile" || exit 2
"$here/build-guest.sh" || exit 2
"$here/initramfs.sh" "$profile" || exit 2
rm -rf "$out"
mkdir -p "$out"
cp "$KOBJ/.config" "$out/config"
# Which API members the tree has, for its coverage table (api-coverage.sh -t).
cp "$OBJ/tree-api/tree-api.tsv" "$out/" 2>/dev/null || true
boot_key "$plan" >"$out/boot.key"
boot=booted
if cached=$(boot_cached "$out"); then
	boot=cached
	note "boot $profile, plan $plan: nothing changed since its boot of $(date -r "$cached/console.log" '+%F %T'); judging that console again (FRESH=1 boots)"
	cp "$cached"/* "$out/"
elif [ -n "${RCUVET_LAVA_PASS:-}" ]; then
	# On a LAVA lab (scripts/lava.sh): queued, or its console collected.
	"$here/lava-boot.sh" "$profile" "$plan" "$out" || exit 2
else
	"$here/boot.sh" "$profile" "$plan" "$out" || [ $? -eq 3 ] || exit 2
fi
rc=0
"$here/verdict.sh" "$plan" "$out" || rc=$?
"$here/report.sh" "$profile" "$plan" "$out" "$start" "$boot" ||
	note "the report of $out failed (its results.tsv and verdict.txt are there)"
# A control's caller judges whether its run came out as wanted.
if [ $rc -eq 0 ] && ! grep -q '^control:' $(plan_files "$plan"); then
	boot_cache_keep "$out"
fi
exit $rc
