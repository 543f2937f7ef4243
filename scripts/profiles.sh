#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# profiles: the profiles and what each builds and boots.
. "$(dirname "$0")/lib.sh"

w=$(list_profiles | awk '{ if (length > w) w = length } END { print w }')
for p in $(list_profiles); do
	load_profile "$p"
	printf '%-*s %s\n' "$w" "$p" "$DESCRIPTION"
	printf '%-*s fragments: %s; QEMU: -smp %s -m %s\n' "$w" "" "$FRAGMENTS" "$QEMU_SMP" "$QEMU_MEM"
	[ -z "$CMDLINE" ] || printf '%-*s command line: %s\n' "$w" "" "$CMDLINE"
done
