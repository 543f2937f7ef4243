#!/usr/bin/env bash
# scripts/lava.sh: a job LAVA ends Incomplete before the kernel started (an
# infrastructure error) is submitted once more, and the second job's
# console is judged.  A stand-in lab (tests/lib/lava-lab.sh).
# shellcheck source=../lib/lava-lab.sh
. "$(dirname "$0")/../lib/lava-lab.sh"

echo incomplete >"$STUB_LAVA/outcomes/b"
lava_run 60 || echo "lava.sh failed: $(tail -n 3 "$t/out" | paste -sd' ' -)"
[ "$(jobs_of b)" -eq 2 ] || echo "boot b took $(jobs_of b) jobs, not 2 (resubmitted once)"
grep -q 'job 2: infrastructure error: .*; submitting it again' "$t/out" ||
	echo "the resubmission is not said"
for b in a b c; do
	judged $b 0
	collected $b
done
true
