#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# controls-only PREFIX: just the control plans whose names start with
# PREFIX, on the first profile, and their closing line.
. "$(dirname "$0")/lib.sh"

prefix=${1:?usage: controls-only.sh PREFIX}
profiles=${PROFILES:-debug}
p=${profiles%% *}
mapfile -t plans < <(basename -s .plan "$RCUVET_ROOT"/configs/plans/"$prefix"*.plan)
"$RCUVET_ROOT/scripts/validate.sh" -p "$p" -C "${plans[*]}"
"$RCUVET_ROOT/scripts/controls.sh" "$p" "$RESULTS/$p/controls.tsv" "${plans[@]}"
finish "$RESULTS/$p/controls.tsv"
