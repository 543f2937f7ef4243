#!/usr/bin/env bash
# Every profile and every plan of the checkout (not the dev-*.plan files
# of its user) passes scripts/validate.sh: the up-front checks refuse no
# run that would work.  Plans with a 'control:' line are checked as
# controls.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
unset KSRC PATCHES JOBS REPEAT BENCH_NAME RCUVET_SERIES
args=(-p "$(basename -s .profile "$root"/configs/profiles/*.profile | xargs)")
for f in "$root"/configs/plans/*.plan; do
	case $(basename "$f") in dev-*) continue ;; esac
	if grep -q '^control:' "$f"; then
		args+=(-C "$(basename "$f" .plan)")
	else
		args+=(-P "$(basename "$f" .plan)")
	fi
done
"$root/scripts/validate.sh" "${args[@]}" 2>&1 || echo "validate.sh refused the checkout's own profiles and plans"
