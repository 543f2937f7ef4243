# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Helpers of the bench scripts (bench.sh, bench-report.sh,
# bench-inline.sh); sourced after lib.sh, never run.

# config_options CONFIG: its options, "CONFIG_X=value" a line ("n" when
# not set), sorted.
config_options() {
	sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*\)=\(.*\)/\1=\2/p' \
		-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1=n/p' "$1" | LC_ALL=C sort
}

# config_differs OUTDIR A B: the options whose values differ between the
# configs of runs A and B (OUTDIR/NAME/config, as vet.sh keeps them),
# space-separated; "?" if either is missing.
config_differs() {
	local a=$1/$2/config b=$1/$3/config

	if [ ! -f "$a" ] || [ ! -f "$b" ]; then
		echo "?"
		return
	fi
	{ diff <(config_options "$a") <(config_options "$b") || true; } |
		sed -n 's/^[<>] \(CONFIG_[A-Za-z0-9_]*\)=.*/\1/p' | LC_ALL=C sort -u | paste -sd' ' -
}

# inline_option: the tree has CONFIG_RCU_INLINE_READ_LOCK, from the series
# (kernel/patches/0007-*; TREE=6.1's has none) or from KSRC itself.
# Without it a -noinline profile builds its base's kernel once more.
inline_option() {
	local opt='config RCU_INLINE_READ_LOCK'
	local -a patches

	if [ -n "${KSRC:-}" ] && grep -qsx "$opt" "$KSRC/kernel/rcu/Kconfig"; then
		return 0
	fi
	[ -z "${KSRC:-}" ] || [ "${PATCHES:-0}" = 1 ] || return 1
	mapfile -t patches < <(series_patches)
	[ ${#patches[@]} -gt 0 ] && grep -qsx "[+ ]$opt" "${patches[@]}"
}
