#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# vet PROFILE PLAN OUTDIR: every step for one boot: tree, configure, build
# kernel, modules and guest programs, initramfs, boot, verdict, report.
# Exits 0 if the run passed, 1 if it failed, other values if a step before
# the boot failed.
. "$(dirname "$0")/lib.sh"

profile=${1:?usage: vet.sh PROFILE PLAN OUTDIR}
plan=${2:?usage: vet.sh PROFILE PLAN OUTDIR}
out=${3:?usage: vet.sh PROFILE PLAN OUTDIR}
load_profile "$profile"
[ -f "$RCUVET_ROOT/configs/plans/$plan.plan" ] ||
	die "unknown plan '$plan'; plans: $(basename -s .plan "$RCUVET_ROOT"/configs/plans/*.plan | xargs)"

here=$RCUVET_ROOT/scripts
"$here/tree.sh" "$profile"
"$here/configure.sh" "$profile"
"$here/build-kernel.sh" "$profile"
"$here/build-modules.sh" "$profile"
"$here/build-guest.sh"
"$here/initramfs.sh" "$profile"
rm -rf "$out"
mkdir -p "$out"
cp "$KOBJ/.config" "$out/config"
"$here/boot.sh" "$profile" "$plan" "$out" || [ $? -eq 3 ]
rc=0
"$here/verdict.sh" "$plan" "$out" || rc=$?
"$here/report.sh" "$profile: plan $plan" "$out"
exit $rc
