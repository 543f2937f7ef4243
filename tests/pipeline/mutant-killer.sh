#!/usr/bin/env bash
# scripts/mutant-killer.sh: a mutant is killed by the failed tests its
# Killed-by: glob names, the count of named cases that failed shows a
# partial kill, and the report's table carries that count in a column.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/scripts/mutant-killer.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# row TEST RESULT: a results.tsv row.
row() {
	printf 'rcuvet_consol\t%s\t%s\t0.100\t\t\n' "$1" "$2"
}

# expect NAME GLOB WANT: killer says WANT of the run in $work.
expect() {
	local got

	got=$(killer "$work" "$2")
	[ "$got" = "$3" ] || printf '%s: killer said\n%s\nnot\n%s\n' "$1" "$got" "$3"
}

echo 'FAIL: rcuvet_consol.b_pair: test failed' >"$work/verdict.txt"
{
	row rcuvet_consol.a_pair pass
	row rcuvet_consol.b_pair fail
	row rcuvet_consol.c_pair fail
	row rcuvet_consol.other fail
} >"$work/results.tsv"
expect 'partial kill' 'rcuvet_consol.*_pair' \
	'killed by rcuvet_consol.b_pair,rcuvet_consol.c_pair (2 of 3 named cases failed)'
expect 'whole kill' 'rcuvet_consol.[bc]_pair' \
	'killed by rcuvet_consol.b_pair,rcuvet_consol.c_pair (2 of 2 named cases failed)'
expect 'killed by another case' 'rcuvet_consol.a_pair' \
	"not by 'rcuvet_consol.a_pair' but: rcuvet_consol.b_pair: test failed"
expect 'splat' 'splat: b_pair: test' 'killed by rcuvet_consol.b_pair: test failed'

printf 'mutants\tm-part\tpass\t90\tkilled by x.a,x.b (9 of 10 named cases failed)\n' >"$work/mutants.tsv"
printf 'mutants\tm-splat\tpass\t80\tkilled by step ended\n' >>"$work/mutants.tsv"
printf 'mutants\tm-live\tfail\t70\tSURVIVED: p passed\n' >>"$work/mutants.tsv"
got=$(mutants_table "$work/mutants.tsv" | tail -3)
want='| m-part | yes | killed by x.a,x.b | 9 of 10 | 90 |
| m-splat | yes | killed by step ended | - | 80 |
| m-live | NO | SURVIVED: p passed | - | 70 |'
[ "$got" = "$want" ] || printf 'table:\n%s\nnot\n%s\n' "$got" "$want"
