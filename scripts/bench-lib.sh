# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Helpers of the bench scripts (bench.sh, bench-report.sh, bench-inline.sh,
# bench-code.sh, bench-text.sh); sourced after lib.sh, never run.

# profile_vmlinux PROFILE: the path of its kernel's vmlinux (there or not).
profile_vmlinux() {
	(load_profile "$1" && printf '%s' "$KOBJ/vmlinux")
}

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

# inline_option: the tree has CONFIG_RCU_INLINE_READ_LOCK (kernel/patches/
# 0007-*; TREE=6.1's series has none), lib.sh's tree_has_option.
# Without it a -noinline profile builds its base's kernel once more.
inline_option() {
	tree_has_option RCU_INLINE_READ_LOCK
}
