#!/usr/bin/env bash
# scripts/lava-jobs.sh: without ARTIFACT_URL it stops at once, naming it;
# with it, one job per boot of make check (6.1's too), each with boot.sh's
# command line, vCPUs and the plan's limits, its artifacts under the
# prefix, a checksum for what is built.  No kernel, no LAVA needed.
set -u
# shellcheck source=../lib/refused.sh
. "$(dirname "$0")/../lib/refused.sh"
refused "ARTIFACT_URL is not set" TSC_KHZ=1 scripts/lava-jobs.sh
refused "ARTIFACT_URL=lab:/x: not an http" ARTIFACT_URL=lab:/x TSC_KHZ=1 scripts/lava-jobs.sh

rm -rf "$BUILD" "$RESULTS"
# A debug kernel and initramfs as if built.
mkdir -p "$BUILD/debian/debug/kernel/arch/x86/boot"
echo kernel >"$BUILD/debian/debug/kernel/arch/x86/boot/bzImage"
echo initramfs >"$BUILD/debian/debug/initramfs.cpio"
(cd "$root" && ARTIFACT_URL=http://lab.invalid/r/ TSC_KHZ=1234567 scripts/lava-jobs.sh) \
	>"$t/out" 2>&1 || { echo "lava-jobs.sh failed: $(tail -n 3 "$t/out")"; exit 0; }
lava=$RESULTS/lava
grep -q 'make check builds them' "$t/out" || echo "the kernels not built are not named"
grep -q 'debug-rt/kernel/arch/x86/boot/bzImage' "$t/out" || echo "debug-rt's kernel is not named as missing"

(
	# shellcheck source=/dev/null
	. "$root/scripts/boot.sh"
	# shellcheck source=/dev/null
	. "$root/scripts/control-groups.sh"
	mapfile -t plans < <(control_plans)
	group_controls debug "${plans[@]}"
	# shellcheck disable=SC2154 # group_controls sets them
	read -ra check_profiles <<<"$CHECK_PROFILES"
	check_tree_runs debug tree_runs
	want=$((${#check_profiles[@]} + ${#alone[@]} + (${#clean[@]} > 0) + (${#splats[@]} > 0) +
		${#tree_runs[@]}))
	[ "$(wc -l <"$lava/jobs.tsv")" -eq "$want" ] ||
		echo "$(wc -l <"$lava/jobs.tsv") jobs, not one per boot of make check ($want)"
	while IFS=$'\t' read -r job profile plan rel secs; do
		f=$lava/$job
		[ -f "$f" ] || { echo "$job: missing"; continue; }
		tag=debian
		case $plan in
		check-*)
			tag=debian-${plan#check-}
			[ "$rel" = "${plan#check-}/$profile" ] || echo "$job: results folder $rel"
			rel=$profile
			;;
		esac
		load_profile "$profile"
		grep -qF -- "-append \"$(boot_cmdline "$plan" 1234567)\"" "$f" ||
			echo "$job: not boot.sh's command line"
		grep -qF -- "- '-smp $QEMU_SMP'" "$f" || echo "$job: not -smp $QEMU_SMP"
		grep -qF -- "- '-accel tcg,thread=multi'" "$f" || echo "$job: not TCG"
		grep -qF -- "url: 'http://lab.invalid/r/$tag/$profile/bzImage'" "$f" ||
			echo "$job: no kernel under ARTIFACT_URL"
		limit=$(boot_plan_limit "$plan")
		[ "$secs" -eq $((BOOT_TIMEOUT + limit)) ] || echo "$job: limit $secs s"
		if [ "$limit" -gt 0 ]; then
			grep -qF "timeout: {seconds: $limit, skip: true}" "$f" ||
				echo "$job: the plan's own limit is not its monitor's"
		fi
		grep -qF "end: 'rcuvet: done errors='" "$f" || echo "$job: not watched to /init's end marker"
		[ "$rel" = "$profile" ] || [[ $rel == "$profile/controls/"* ]] ||
			echo "$job: results folder $rel"
	done <"$lava/jobs.tsv"
)
sum=$(echo kernel | sha256sum | cut -d' ' -f1)
grep -q "sha256sum: $sum" "$lava/jobs/debug/check.yaml" || echo "the built kernel's job has no checksum"
cmp -s "$lava/artifacts/debian/debug/bzImage" "$BUILD/debian/debug/kernel/arch/x86/boot/bzImage" ||
	echo "the built kernel is not in artifacts/"
grep -q sha256sum "$lava/jobs/debug-rt/check.yaml" && echo "a kernel not built has a checksum"
grep -q 'debian-6.1/nopreempt/kernel/arch/x86/boot/bzImage' "$t/out" ||
	echo "6.1's nopreempt kernel is not named as missing"
grep -qF "rcuvet.tree: '6.1'" "$lava/jobs/6.1/nopreempt/check-6.1.yaml" 2>/dev/null ||
	echo "6.1's boot has no job of tree 6.1"
true
