#!/usr/bin/env bash
# configs/plans/mutants-xdp-reliance.plan, the plan of the mutants that
# unmark an XDP flush, checks what check.plan requires after its XDP
# stress: its "program rcu-reliance bh site ..." step is check.plan's,
# verbatim, so a mutant it kills fails make check's requirement too.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
plans=$root/configs/plans
want=$(grep '^program rcu-reliance bh site ' "$plans/check.plan")
got=$(grep '^program rcu-reliance bh site ' "$plans/mutants-xdp-reliance.plan")
[ -n "$want" ] || echo "check.plan has no 'program rcu-reliance bh site ...' step"
[ "$got" = "$want" ] ||
	printf 'mutants-xdp-reliance.plan checks\n  %s\nnot check.plan'"'"'s\n  %s\n' "$got" "$want"
exit 0
