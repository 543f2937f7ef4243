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
# The boot is the slow step.  When nothing it depends on changed since a
# boot whose run passed (or whose control held, controls.sh says), judge
# that boot's console again instead, as go test reuses a cached pass;
# FRESH=1 always boots.
inputs=$(hash_of "$KOBJ/arch/x86/boot/bzImage" "$OBJ/initramfs.cpio" \
	"$(profile_file "$profile")" "$here/boot.sh" \
	"$RCUVET_ROOT/configs/plans/$plan.plan")
if [ -z "${FRESH:-}" ] && [ "$(cat "$out/.boot-inputs" 2>/dev/null)" = "$inputs" ] &&
	{ grep -qs '^verdict: PASS' "$out/verdict.txt" || [ -f "$out/.held" ]; }; then
	note "boot $profile, plan $plan: unchanged since $(date -r "$out/console.log" '+%F %T'), judging its console again (FRESH=1 boots again)"
else
	rm -rf "$out"
	mkdir -p "$out"
	cp "$KOBJ/.config" "$out/config"
	"$here/boot.sh" "$profile" "$plan" "$out" || [ $? -eq 3 ]
	echo "$inputs" >"$out/.boot-inputs"
fi
rc=0
"$here/verdict.sh" "$plan" "$out" || rc=$?
"$here/report.sh" "$profile: plan $plan" "$out"
exit $rc
