#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# profiles: the profiles and what each builds and boots.
. "$(dirname "$0")/lib.sh"

w=$(list_profiles | awk '{ if (length > w) w = length } END { print w }')
for p in $(list_profiles); do
	load_profile "$p"
	printf '%-*s %s\n' "$w" "$p" "$DESCRIPTION"
	printf '%-*s fragments: %s; QEMU: -smp %s -m %s%s\n' "$w" "" "$(fragments_used)" \
		"$QEMU_SMP" "$QEMU_MEM" "${QEMU_ICOUNT:+ -icount shift=$QEMU_ICOUNT}"
	left=$(fragments_used left)
	[ -z "$left" ] || printf '%-*s left out (the tree lacks their option): %s\n' "$w" "" "$left"
	[ -z "$CMDLINE" ] || printf '%-*s command line: %s\n' "$w" "" "$CMDLINE"
done
