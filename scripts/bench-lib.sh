# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Helpers of the bench report scripts (bench-report.sh, bench-inline.sh);
# sourced after lib.sh, never run.

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
