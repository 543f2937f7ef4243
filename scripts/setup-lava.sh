#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# setup-lava: install what validating LAVA jobs needs (lava-run, from
# Debian's lava-dispatcher); a no-op when it is there.  Only the LAVA
# targets call it: make lava-jobs needs nothing of LAVA.
. "$(dirname "$0")/lib.sh"

apt_install "LAVA's job validation" lava-dispatcher
command -v lava-run >/dev/null ||
	die "lava-dispatcher is installed, but there is no lava-run on PATH"
