#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# prebuild PROFILE...: tree, configuration and kernel of each profile, one
# after the other; run in the background by lib.sh's prebuild.  A
# PROFILE written TREE:PROFILE is that profile on another tree (TREE=).  A
# failure is left for the foreground's own build of that kernel to report.
. "$(dirname "$0")/lib.sh"

for p in "$@"; do
	case $p in
	*:*) RCUVET_TREE=${p%%:*} "$0" "${p#*:}" ;;
	*) kernel_of "$p" || note "kernel of '$p' failed to build here; the foreground will say why" ;;
	esac
done
