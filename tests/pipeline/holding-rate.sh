#!/usr/bin/env bash
# scripts/holding-rate.sh counts every repetition of a canned console: a
# trial holds when a v4.19 grace period ends early for a reader that is
# not rcu_read_lock() and waits for one that is; rcuvet_consol's pairs
# hold as often as their message says (never, without one), and other
# tests are not counted.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$("$root/scripts/holding-rate.sh" 2 "$root/tests/holding-rate/console.log")
rc=$?
out=$(sort <<<"$out")
want='6 pairs, 8 of 12 trials held
rcuvet_consol.call_rcu.local_bh_disable: held 1 of 2 trials
rcuvet_consol.call_rcu.preempt_disable: held 0 of 2 trials
rcuvet_emulate.synchronize_rcu.local_irq_disable: held 1 of 2 trials
3 passed, 3 failed'
[ "$out" = "$(sort <<<"$want")" ] || printf 'holding-rate.sh said:\n%s\nnot:\n%s\n' "$out" "$want"
[ $rc -eq 1 ] || echo "holding-rate.sh exited with $rc, not 1, when pairs did not hold"
