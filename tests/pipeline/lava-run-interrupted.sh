#!/usr/bin/env bash
# scripts/lava.sh interrupted while the lab runs its jobs loses nothing:
# the job ids are in results/lava/, and the rerun submits nothing again
# and collects every boot.  A stand-in lab (tests/lib/lava-lab.sh).
# shellcheck source=../lib/lava-lab.sh
. "$(dirname "$0")/../lib/lava-lab.sh"

touch "$STUB_LAVA/hold"
# lava.sh in a session of its own, stopped (all of it) once its three
# jobs run, or after 60 s.
(cd "$root" && exec setsid scripts/lava.sh "$t/entry.sh") >"$t/out" 2>&1 &
pid=$!
for ((i = 0; i < 600; i++)); do
	grep -qF '0 queued, 3 running, 0 done' "$t/out" && break
	sleep 0.1
done
kill -- "-$pid" 2>/dev/null || echo "lava.sh ended while its jobs ran"
wait $pid
grep -qF '0 queued, 3 running, 0 done' "$t/out" ||
	echo "the jobs never ran: $(tail -n 2 "$t/out" | paste -sd' ' -)"
[ "$(submitted)" -eq 3 ] || echo "$(submitted) jobs submitted before the interruption, not 3"
rm "$STUB_LAVA/hold"
lava_run 60 || echo "the rerun failed: $(tail -n 3 "$t/out" | paste -sd' ' -)"
[ "$(submitted)" -eq 3 ] || echo "the rerun submitted $(($(submitted) - 3)) job(s) again"
for b in a b c; do
	judged $b 0
	collected $b
done
true
