#!/usr/bin/env bash
# scripts/lava.sh: a run's three boots submitted to the lab at once, their
# progress shown (queued, running, done), each job's console collected and
# handed to the judge pass as a local boot's.  A stand-in lab
# (tests/lib/lava-lab.sh): no LAVA, no kernel.
# shellcheck source=../lib/lava-lab.sh
. "$(dirname "$0")/../lib/lava-lab.sh"

lava_run 60 || echo "lava.sh failed: $(tail -n 3 "$t/out" | paste -sd' ' -)"
[ "$(submitted)" -eq 3 ] || echo "$(submitted) jobs submitted, not 3"
grep -q 'submit 3 job(s)' "$t/out" || echo "the boots were not submitted at once"
for b in a b c; do
	judged $b 0
	collected $b
	[ "$(jobs_of $b)" -eq 1 ] || echo "boot $b took $(jobs_of $b) jobs"
done
for s in '3 queued, 0 running, 0 done' '0 queued, 3 running, 0 done' '0 queued, 0 running, 3 done' \
	'b (debug, plan check): job 2: Running'; do
	grep -qF "$s" "$t/out" || echo "no progress line '$s'"
done
true
