#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lava CMD ARG...: run an entry script (run.sh, check.sh, controls-only.sh,
# mutants.sh) with its boots on the LAVA lab LAVA (lava-lib.sh) instead of
# this machine's QEMU, make run|check|controls|mutants LAVA=URI:
#   1. lava-preflight.sh: the lab, its token and device type, and the
#      artifacts' URL, before anything is built.  Without ARTIFACT_URL,
#      results/lava/artifacts/ is served over http on 127.0.0.1
#      (LAVA_ARTIFACT_PORT, default 8010) while the run lasts: for a lab
#      on this machine.
#   2. CMD once with RCUVET_LAVA_PASS=queue: everything built as usual,
#      and each boot written as a LAVA job instead of booted (lava-boot.sh);
#      its output in results/lava/queue.log, its steps on the terminal.
#   3. lava-submit.sh: every boot submitted at once; lava-wait.sh: their
#      progress, each log collected, an infrastructure error resubmitted
#      once.
#   4. CMD again with RCUVET_LAVA_PASS=judge: nothing left to build; each
#      boot's console is the one the lab recorded, judged, reported and
#      counted as a local boot's.
# Interrupted, it loses nothing (results/lava/boots/): run it again and it
# submits only what was not, and collects what finished.
. "$(dirname "$0")/lava-lib.sh"

[ $# -gt 0 ] || die "usage: lava.sh CMD ARG... (make run|check|controls|mutants LAVA=URI)"
command -v lavacli >/dev/null || "$RCUVET_ROOT/scripts/setup-lava.sh" submit
mkdir -p "$LAVA_DIR/artifacts"
if [ -z "${ARTIFACT_URL:-}" ]; then
	port=${LAVA_ARTIFACT_PORT:-8010}
	export ARTIFACT_URL=http://127.0.0.1:$port
	/usr/bin/python3 -m http.server --bind 127.0.0.1 --directory "$LAVA_DIR/artifacts" "$port" \
		>"$LAVA_DIR/http.log" 2>&1 &
	# shellcheck disable=SC2064 # the server's pid, now
	trap "kill $! 2>/dev/null || true" EXIT
	for ((i = 0; i < 50; i++)); do
		url_answers "$ARTIFACT_URL/" && break
		sleep 0.1
	done
fi
"$RCUVET_ROOT/scripts/lava-preflight.sh"

step "LAVA: build and queue every boot of $* (log: ${LAVA_DIR#"$RCUVET_ROOT"/}/queue.log)"
: >"$LAVA_DIR/run.keys"
RCUVET_LAVA_PASS=queue "$@" 2>&1 | tee "$LAVA_DIR/queue.log" |
	grep --line-buffered -E '^==> |rcuvet: error|queued for the LAVA lab' || true
"$RCUVET_ROOT/scripts/lava-submit.sh"
"$RCUVET_ROOT/scripts/lava-wait.sh"

step "LAVA: every boot collected; judged as if booted here"
RCUVET_LAVA_PASS=judge "$@"
