#!/usr/bin/env bash
# scripts/bench-sys-report.sh on canned rows of three boots of two
# profiles: each cell is the median over the boots and its range, the
# multiple of getuid() is taken boot by boot (boot 3 runs twice as slow
# and must not move it), the ratio column is the median of the boots'
# ratios and, beside it, that of the boots' ns, a boot without getuid()
# counts for the ns cells only, and a
# CSV with no sched-bench row says that nothing was measured.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# row BOOT PROFILE MEASURE NS
row() {
	printf '%s,%s,sched-bench,sys_ns,%s,%s,0,0,11,ns\n' "$@"
}
{
	row 1 a ctxsw 30000; row 1 a getuid 3000; row 1 b ctxsw 33000; row 1 b getuid 3000
	row 2 a ctxsw 31000; row 2 a getuid 3100; row 2 b ctxsw 31000; row 2 b getuid 3100
	row 3 a ctxsw 60000; row 3 a getuid 6000; row 3 b ctxsw 72000; row 3 b getuid 6000
	row 4 a ctxsw 99000; row 4 b ctxsw 99000
	echo '1,a,rcuvet,pair,rcu,1,1,1,1,ns'
} >"$work/sys.csv"
"$root/scripts/bench-sys-report.sh" "$work/sys.csv" "a b" >"$work/out.md"

expect() {
	grep -qF -- "$1" "$work/out.md" || { echo "bench-sys.md lacks '$1':"; cat "$work/out.md"; }
}
expect '### System level, 4 boots of each profile'
# ns: 30000 31000 60000 99000 -> median 45500; x getuid: 10 10 10.
expect '| ctxsw | 45500 (30000 to 99000, 4 boots) | x10.0 (x10.0 to x10.0, 3 boots) |'
# b: 11 10 12 -> x11.0; a / b: 10/11 10/10 10/12 -> median 0.909.
expect '| x11.0 (x10.0 to x12.0, 3 boots) | x0.909 (x0.833 to x1.000, 3 boots) |'
# a / b in ns, boot by boot: 0.909 1 0.833 1 -> x0.955, all 4 boots.
expect '| x0.909 (x0.833 to x1.000, 3 boots) | x0.955 (x0.833 to x1.000, 4 boots) |'
expect '| getuid | 3100 (3000 to 6000, 3 boots) |'
grep -q '| pair |' "$work/out.md" && echo "a row that is not sched-bench's made a measure"

echo '1,a,rcuvet,pair,rcu,1,1,1,1,ns' >"$work/none.csv"
"$root/scripts/bench-sys-report.sh" "$work/none.csv" "a b" | grep -q 'measured nothing' ||
	echo "no sched-bench row did not say that nothing was measured"
