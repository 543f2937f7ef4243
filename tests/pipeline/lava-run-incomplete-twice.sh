#!/usr/bin/env bash
# scripts/lava.sh: a boot whose job LAVA ends Incomplete before the kernel
# twice is an infrastructure error: no console, no verdict (lava-boot.sh
# exits 3, vet.sh 2), its reason in the row vet_profile writes; never a
# pass nor a test failure.  A stand-in lab (tests/lib/lava-lab.sh).
# shellcheck source=../lib/lava-lab.sh
. "$(dirname "$0")/../lib/lava-lab.sh"

printf 'incomplete\nincomplete\n' >"$STUB_LAVA/outcomes/b"
lava_run 60 || echo "lava.sh failed: $(tail -n 3 "$t/out" | paste -sd' ' -)"
[ "$(jobs_of b)" -eq 2 ] || echo "boot b took $(jobs_of b) jobs, not 2"
[ "$(submitted)" -eq 4 ] || echo "$(submitted) jobs submitted, not 4"
judged a 0
judged b 3
judged c 0
[ ! -e "$RESULTS/b/console.log" ] || echo "boot b has a console to judge"
why=$(. "$root/scripts/lib.sh" && vet_stopped "$RESULTS/b" 2)
case $why in
"LAVA job(s) 2,4: infrastructure error: LAVA job Incomplete (Job error: sha256 for"*) ;;
*) echo "boot b's row does not say its infrastructure error: $why" ;;
esac
true
