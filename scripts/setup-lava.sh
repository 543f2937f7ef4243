#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# setup-lava [validate|submit]: install what the LAVA targets need, a
# no-op when it is there: validating jobs, lava-run (Debian's
# lava-dispatcher; the default); submitting them to a lab, lavacli.
# make lava-jobs needs nothing of LAVA.
. "$(dirname "$0")/lib.sh"

case ${1:-validate} in
validate)
	apt_install "LAVA's job validation" lava-dispatcher
	command -v lava-run >/dev/null ||
		die "lava-dispatcher is installed, but there is no lava-run on PATH"
	;;
submit)
	apt_install "submitting jobs to a LAVA lab" lavacli
	command -v lavacli >/dev/null ||
		die "lavacli is installed, but there is no lavacli on PATH"
	;;
*) die "usage: setup-lava.sh [validate|submit]" ;;
esac
