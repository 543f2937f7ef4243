#!/usr/bin/env bash
# scripts/boot.sh's boot_cmdline: told the host's TSC frequency, the
# guest trusts it (tsc_early_khz=, tsc=reliable) and gets its loops per
# jiffy from it, TSC kHz * 1000 / the kernel's CONFIG_HZ (lpj=: under TCG
# a secondary CPU's own calibration came out hundreds of times too
# small); without a frequency neither, without CONFIG_HZ no lpj=.  The
# plan, the CPU count and the profile's CMDLINE are always there.  A
# profile with QEMU_ICOUNT=SHIFT runs single-threaded TCG under -icount
# shift=SHIFT,sleep=off with a TSC of 10^6 kHz (a tick a guest ns,
# whatever the shift); one without keeps
# multi-threaded TCG, no -icount.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# cmdline HZ-LINE TSC_KHZ: boot_cmdline's line, KOBJ's .config holding
# HZ-LINE alone.
cmdline() {
	printf '%s\n' "$1" >"$t/.config"
	# shellcheck disable=SC2016 # expanded by the inner shell
	BUILD=$t/build bash -c '
		. "$1/scripts/boot.sh"
		KOBJ=$2 CMDLINE=rcuvet.x=1 QEMU_SMP=2
		boot_cmdline check "$3"' - "$root" "$t" "$2" 2>&1
}

# has LINE WORD...: each WORD is a word of LINE.
has() {
	local line=$1 w

	shift
	for w; do
		[[ " $line " == *" $w "* ]] || echo "no '$w' in: $line"
	done
}

# 2,995,200 kHz at HZ=250: 11,980,800 loops a jiffy; at HZ=1000 a quarter.
line=$(cmdline CONFIG_HZ=250 2995200)
has "$line" tsc_early_khz=2995200 tsc=reliable lpj=11980800 rcuvet_plan=check rcuvet_cpus=2 rcuvet.x=1
has "$(cmdline CONFIG_HZ=1000 2995200)" lpj=2995200
line=$(cmdline CONFIG_HZ=250 '')
case $line in *tsc* | *lpj=*) echo "no TSC frequency, yet: $line" ;; esac
has "$line" rcuvet_plan=check
line=$(cmdline '# CONFIG_HZ is not set' 2995200)
case $line in *lpj=*) echo "no CONFIG_HZ, yet: $line" ;; esac
has "$line" tsc_early_khz=2995200

# machine ICOUNT: "TSC-KHZ QEMU-ARGS..." of a profile with QEMU_ICOUNT.
machine() {
	# shellcheck disable=SC2016 # expanded by the inner shell
	BUILD=$t/build bash -c '
		. "$1/scripts/boot.sh"
		QEMU_ICOUNT=$2
		icount_machine
		echo "$(guest_tsc_khz) ${QEMU_MACHINE[*]}"' - "$root" "$1" 2>&1
}
m=$(machine 0)
has "$m" 1000000 tcg,thread=single -icount shift=0,sleep=off
[ "$(machine 2 | cut -d' ' -f1)" = 1000000 ] || echo "QEMU_ICOUNT=2: TSC not 1000000 kHz: $(machine 2)"
has "$(machine 2)" -icount shift=2,sleep=off
m=$(machine '')
has "$m" tcg,thread=multi
case $m in *icount*) echo "no QEMU_ICOUNT, yet: $m" ;; esac
exit 0
