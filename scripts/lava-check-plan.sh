#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lava-check-plan: the boots make lava-check runs both here and on the
# local LAVA lab (lava-check.sh): the check plan on the debug profile, and
# the XDP teardown control ctl-xdp-devmap-nogp (the xdp-mutant kernel,
# whose devmap frees entries without a grace period: it must fail, by
# KASAN's use-after-free).  A report and one closing line, as make check.
. "$(dirname "$0")/lib.sh"

ctl='ctl-xdp-devmap-nogp'
"$RCUVET_ROOT/scripts/validate.sh" -p debug -P check -C "$ctl"
mkdir -p "$RESULTS"
vet_profile debug check "$RESULTS/debug"
"$RCUVET_ROOT/scripts/controls.sh" debug "$RESULTS/debug/controls.tsv" "$ctl"
finish "$RESULTS/debug/results.tsv" "$RESULTS/debug/controls.tsv"
