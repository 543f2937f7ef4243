#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# build-guest: the static programs that run in the guest, /init among them.
. "$(dirname "$0")/lib.sh"

out=$BUILD/guest
mkdir -p "$out"
make -s -C "$RCUVET_ROOT/guest" O="$out" ||
	die "guest programs do not build (see the compiler's message above)"
