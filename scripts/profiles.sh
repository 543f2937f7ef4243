#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# profiles: the profiles and what each builds and boots.
. "$(dirname "$0")/lib.sh"

for p in $(list_profiles); do
	load_profile "$p"
	printf '%-12s %s\n' "$p" "$DESCRIPTION"
	printf '%-12s fragments: %s; QEMU: -smp %s -m %s\n' "" "$FRAGMENTS" "$QEMU_SMP" "$QEMU_MEM"
	[ -z "$CMDLINE" ] || printf '%-12s command line: %s\n' "" "$CMDLINE"
done
