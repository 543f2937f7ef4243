#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# torture-judge CONSOLE BADNESS: an rcutorture run's console judged by
# rcutorture's own rules (the tree's bin/parse-console.sh and
# kvm-recheck-rcu.sh), BADNESS being the tree's bin/console-badness.sh:
#   - the last "End of test:" line must say SUCCESS (FAILURE, RCU_HOTPLUG
#     or none at all fail);
#   - no "-torture:" line may say "!!!", and the last Reader Pipe may
#     count no reader beyond its second bucket (a too-short grace period);
#   - the grace-period numbers of the statistics ("ver:") must increase
#     from one line to the next (parse-console.sh's "GP HANG", "BAD SEQ");
#   - console-badness.sh must find nothing in the whole console (WARNING,
#     BUG, Oops, Call Trace, lockdep, stalls, "!!!", ...).
# Prints one line, tab-separated: pass or fail, the End of test word,
# grace periods (the last "ver:"), the last Reader Pipe, the number of
# splat lines, the reasons ("; " between them).  Exits 1 on fail.
# --must-fail judges a negative control (make torture TORTURE_EMULATE=):
# it passes only when a reader outlived a grace period (the Reader Pipe
# rule), whatever else failed, and fails otherwise.
set -euo pipefail

must_fail=
[ "${1:-}" != --must-fail ] || { must_fail=1; shift; }
console=${1:?usage: torture-judge.sh [--must-fail] CONSOLE BADNESS}
badness=${2:?usage: torture-judge.sh [--must-fail] CONSOLE BADNESS}
why=()
late=0

[ -f "$badness" ] || { echo "torture-judge.sh: no $badness" >&2; exit 2; }
[ -f "$console" ] || { printf 'fail\tnone\t-\t-\t0\tno console\n'; exit 1; }
end=$(grep -a -o 'End of test: [A-Z_]*' "$console" | tail -n 1 | cut -d' ' -f4 || true)
case $end in
SUCCESS) ;;
'') end=none why+=("no End of test") ;;
*) why+=("End of test: $end") ;;
esac

nbang=$(grep -a -c -e '-torture:.*!!!' "$console" || true)
[ "$nbang" -eq 0 ] || why+=("$nbang statistics lines with !!!")

pipe=$(grep -a 'torture:.*Reader Pipe:' "$console" | tail -n 1 | sed 's/.*Reader Pipe: *//' || true)
if [ -n "$pipe" ]; then
	# shellcheck disable=SC2086 # the counts, a word each
	late=$(printf '%s\n' $pipe | awk 'NR > 2 { s += $1 } END { print s + 0 }')
	[ "$late" -eq 0 ] || why+=("Reader Pipe: $late readers beyond the second bucket")
fi
pipe=${pipe:--}

# The grace-period numbers, as parse-console.sh reads them.
vers=$(grep -a 'torture:.*ver:' "$console" | grep -a -E -v '\(null\)|rtc: 000000000* ' |
	sed -e 's/^.*ver: //' -e 's/ .*//' || true)
# Grace periods: the last statistics line's, "VER:" too (rcutorture
# capitalizes it when the writer made no progress since the line before,
# as at rmmod, where the writer has stopped).
gps=$(grep -a -E 'torture:.*(ver|VER): ' "$console" | sed -E -e 's/^.*(ver|VER): //' -e 's/ .*//' |
	tail -n 1 || true)
seq=$(printf '%s\n' "$vers" | sed '/^$/d' | awk '
	!bad && ($1 + 0 != $1 || $1 <= ver) { bad = 1; a = ver; b = $1; at = NR }
	{ ver = $1 }
	END {
		if (bad && a == b && b == ver) print "GP HANG at " ver " torture stat " at
		else if (bad) print "BAD SEQ " a ":" b " last:" ver " version " at
	}')
[ -z "$seq" ] || why+=("$seq")
gps=${gps:--}

splats=$(bash "$badness" <"$console" | grep -c . || true)
if [ "$splats" -gt 0 ]; then
	first=$(bash "$badness" <"$console" | head -n 1 | sed 's/^\[[^]]*\] *//' | cut -c1-100 || true)
	why+=("$splats splat lines, the first: $first")
fi

reason=
[ ${#why[@]} -eq 0 ] || reason=$(printf '%s; ' "${why[@]}")
reason=${reason%; }
result=pass
if [ -n "$must_fail" ] && [ "$late" -gt 0 ]; then
	reason="failed as it must: $reason"
elif [ -n "$must_fail" ]; then
	result=fail reason="no reader outlived a grace period${reason:+: $reason}"
elif [ -n "$reason" ]; then
	result=fail
fi
printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$result" "$end" "$gps" "$pipe" "$splats" "$reason" | tr -d '\r'
[ "$result" = pass ]
