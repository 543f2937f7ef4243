#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# profiles: the profiles and what each builds and boots.
. "$(dirname "$0")/lib.sh"

w=$(list_profiles | awk '{ if (length > w) w = length } END { print w }')
for p in $(list_profiles); do
	load_profile "$p"
	printf '%-*s %s\n' "$w" "$p" "$DESCRIPTION"
	used=$(fragments_used)
	printf '%-*s fragments: %s; QEMU: -smp %s -m %s%s\n' "$w" "" "$used" "$QEMU_SMP" "$QEMU_MEM" \
		"${QEMU_ICOUNT:+ -icount shift=$QEMU_ICOUNT}"
	[ "$used" = "$(xargs <<<"$FRAGMENTS")" ] ||
		printf '%-*s left out (the tree lacks their option): %s\n' "$w" "" \
			"$(comm -23 <(tr ' ' '\n' <<<"$FRAGMENTS" | sort) <(tr ' ' '\n' <<<"$used" | sort) | xargs)"
	[ -z "$CMDLINE" ] || printf '%-*s command line: %s\n' "$w" "" "$CMDLINE"
done
