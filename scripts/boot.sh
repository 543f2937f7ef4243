#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# boot PROFILE PLAN OUTDIR: boot the profile's kernel under TCG, let /init
# run the plan, keep the console in OUTDIR/console.log.  A guest that does
# not end within the profile's BOOT_TIMEOUT, or within the plan's own limit
# counted from its first step (a slow boot does not eat into it), is killed
# and the console's tail printed; the verdict then fails it for the missing
# end marker.
# Sourced (scripts/lava-jobs.sh), it defines the functions below and boots
# nothing: a boot elsewhere gets the same command line, machine and limits.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The machine: microvm's firmware writes an MP table listing every vCPU,
# so the kernel needs neither ACPI nor PCI (docs/design.md, "Configs").
# TCG only, multi-threaded: one host thread per vCPU.
QEMU_MACHINE=(-M "microvm,acpi=off,pit=on" -accel "tcg,thread=multi" -cpu max)

# icount_machine: a profile with QEMU_ICOUNT=SHIFT (the icount-* profiles
# of make bench) runs its guest under -icount shift=SHIFT,sleep=off: the
# guest's clock, its TSC included, advances 2^SHIFT ns per instruction
# executed (and jumps over idle time), so that a time measured in the
# guest counts instructions (the guest's, of both vCPUs; a rep-prefixed
# string instruction counts once an iteration), the same from boot to
# boot and host to host; icount needs single-threaded TCG (the vCPUs
# take turns).
icount_machine() {
	[ -n "${QEMU_ICOUNT:-}" ] || return 0
	QEMU_MACHINE=("${QEMU_MACHINE[@]/thread=multi/thread=single}"
		-icount "shift=$QEMU_ICOUNT,sleep=off")
}

# guest_tsc_khz: the guest's TSC frequency in kHz: the host's (tsc-khz.c),
# or under icount 10^6 whatever the shift: QEMU 7.2's TSC then reads the
# virtual clock's nanoseconds (cpu_get_ticks() is icount_get()), one
# tick a guest ns, 2^-SHIFT instructions.
guest_tsc_khz() {
	if [ -n "${QEMU_ICOUNT:-}" ]; then
		echo 1000000
	else
		"$(host_tool tsc-khz)"
	fi
}

# boot_plan_limit PLAN: the seconds a plan may run ("boot-timeout:
# SECONDS", a host-only line), counted from its first step; plans that
# share a boot share the sum of their limits, where a plan without one
# counts the loaded profile's BOOT_TIMEOUT, as it has alone.  0: no plan
# has a limit of its own (the boot has BOOT_TIMEOUT in all).
boot_plan_limit() {
	local f t limit=0 own=0

	for f in $(plan_files "$1"); do
		t=$(sed -n 's/^boot-timeout:[[:space:]]*//p' "$f")
		[ -z "$t" ] || own=1
		limit=$((limit + ${t:-$BOOT_TIMEOUT}))
	done
	[ $own = 1 ] || limit=0
	echo "$limit"
}

# boot_cmdline PLAN TSC_KHZ: the kernel command line of the loaded
# profile's boot of PLAN, the guest's TSC running at TSC_KHZ (empty: the
# kernel calibrates it itself).
#
# Slow emulation must not trip the stall, hung-task and lockup detectors.
# reboot=t: microvm has neither ACPI nor a keyboard controller to reset
# through; a triple fault ends QEMU (-no-reboot) at once.  Under TCG the
# guest's TSC is the host's: the guest is told its frequency (tsc-khz.c)
# and trusts it (tsc=reliable), since calibrating it against the emulated
# PIT fails on a busy host and leaves the jiffies clocksource, too coarse
# for the suites' timings, and no HPET or PM timer is there to watch it.
# The delay loop gets its loops per jiffy from the same frequency (lpj=,
# the kernel's HZ from its .config): the boot CPU derives it from the TSC,
# but a secondary CPU without a nonstop TSC times its own against jiffies,
# and under TCG that came out hundreds of times too small (an
# emulate-4.19 boot of 2026-12-07: CPU 1 at ~13 BogoMIPS beside 4192), so
# that mdelay() there returned that much early and rcuvet_emulate's
# readers left before the grace periods they were to outlast.
boot_cmdline() {
	local tsc='' hz

	if [ -n "$2" ]; then
		tsc="tsc_early_khz=$2 tsc=reliable "
		hz=$(sed -n 's/^CONFIG_HZ=//p' "$KOBJ/.config" 2>/dev/null)
		[ -z "$hz" ] || tsc="${tsc}lpj=$(($2 * 1000 / hz)) "
	fi
	echo "console=ttyS0 printk.devkmsg=on panic=-1 reboot=t \
${tsc}rcupdate.rcu_cpu_stall_timeout=300 rcupdate.rcu_task_stall_timeout=120000 \
sysctl.kernel.hung_task_timeout_secs=600 watchdog_thresh=60 \
$CMDLINE rcuvet_plan=$1 rcuvet_cpus=$QEMU_SMP"
}

[ "${BASH_SOURCE[0]}" = "$0" ] || return 0

load_profile "${1:?usage: boot.sh PROFILE PLAN OUTDIR}"
plan=${2:?usage: boot.sh PROFILE PLAN OUTDIR}
out=${3:?usage: boot.sh PROFILE PLAN OUTDIR}
console=$out/console.log
mkdir -p "$out"
rm -f "$console"
plan_limit=$(boot_plan_limit "$plan")
# The whole boot's limit: the profile's, plus the plan's from its first step.
timeout_s=$((BOOT_TIMEOUT + plan_limit))
icount_machine
tsc_khz=$(guest_tsc_khz)
cmdline=$(boot_cmdline "$plan" "$tsc_khz")

if [ "$plan_limit" -gt 0 ]; then
	step "boot $PROFILE, plan $plan (timeout ${plan_limit}s from its first step)"
else
	step "boot $PROFILE, plan $plan (timeout ${timeout_s}s)"
fi
# One guest at a time per machine: timing-based tests need the cores.
exec 9>"$BOOT_LOCK"
flock 9
start=$(date +%s)
timeout --kill-after=10 "$timeout_s" \
	qemu-system-x86_64 "${QEMU_MACHINE[@]}" \
	-smp "$QEMU_SMP" -m "$QEMU_MEM" -nodefaults -display none -no-reboot \
	-kernel "$KOBJ/arch/x86/boot/bzImage" -initrd "$OBJ/initramfs.cpio" \
	-append "$cmdline" -serial "file:$console" &
pid=$!
began=
hung=0
while kill -0 $pid 2>/dev/null; do
	sleep 2
	now=$(date +%s)
	if [ "$plan_limit" -gt 0 ] && [ -z "$began" ] &&
		grep -aq 'rcuvet: begin ' "$console" 2>/dev/null; then
		began=$now
	fi
	if [ -n "$began" ] && [ $((now - began)) -ge "$plan_limit" ]; then
		timeout_s=$plan_limit
		hung=1
		kill $pid 2>/dev/null || true
		break
	fi
	if [ $(((now - start) % 60)) -lt 2 ]; then
		last=$(grep -ao 'rcuvet: begin [^ ]*' "$console" 2>/dev/null | tail -1 | cut -d' ' -f3 || true)
		note "guest running for $((now - start)) s, step: ${last:-booting}"
	fi
done
rc=0
wait $pid || rc=$?
note "guest ended after $(($(date +%s) - start)) s"
if [ $hung -eq 1 ] || [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	{
		printf 'rcuvet: guest hung: no end within %ss; last 50 console lines:\n' "$timeout_s"
		tail -n 50 "$console"
	} | tee "$out/boot.txt" >&2
	exit 3
elif [ $rc -ne 0 ]; then
	tail -n 20 "$console" >&2
	die "qemu-system-x86_64 failed with status $rc"
fi
