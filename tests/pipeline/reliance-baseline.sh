#!/usr/bin/env bash
# scripts/reliance-baseline.sh: "keys" names each site of a console's
# rcu-reliance lines by its function (offsets and clone suffixes gone, a
# module kept, FILE:FUNCTION whole), once; "subtract" leaves out the
# report rows whose site the baseline names and says which.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$root/scripts/reliance-baseline.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

{
	echo '[    9.1] rcuvet: begin rcu-reliance'
	sed 's/^/[    9.2] rcu-reliance: /' "$root/tests/rcu-reliance/complete.txt"
	echo '[    9.3] rcu-reliance: 5 preempt sched_held helper.isra.0+0x10/0x40'
} >"$work/console.log"
"$bin" keys "$work/console.log" >"$work/keys"
want='__dev_map_lookup_elem
bq_flush_to_queue_x [m]
helper
kernel/bpf/cpumap.c:bq_flush_to_queue
kernel/bpf/devmap.c:__dev_flush'
[ "$(cat "$work/keys")" = "$want" ] ||
	printf 'keys gave\n%s\nnot\n%s\n' "$(cat "$work/keys")" "$want"

printf '# the kernel of an idle boot\n__dev_map_lookup_elem\nhelper\n' >"$work/base"
printf '%s\t%s\t%s\t%s\n' \
	39821 bh+rcu_read_lock_bh bh_held '__dev_map_lookup_elem+0x9e/0xe4' \
	17188 softirq marked kernel/bpf/cpumap.c:bq_flush_to_queue \
	5 preempt sched_held 'helper.constprop.0+0x1a/0x40' \
	3 preempt sched_held 'bq_flush_to_queue_x+0x1a/0x40 [m]' >"$work/tsv"
got=$("$bin" subtract "$work/base" "$work/tsv")
want=$(printf '%s\t%s\t%s\t%s\n' \
	17188 softirq marked kernel/bpf/cpumap.c:bq_flush_to_queue \
	3 preempt sched_held 'bq_flush_to_queue_x+0x1a/0x40 [m]'
	echo "# 2 site(s) also in the idle boot ($work/base), left out: __dev_map_lookup_elem helper")
[ "$got" = "$want" ] || printf 'subtract gave\n%s\nnot\n%s\n' "$got" "$want"
"$bin" subtract "$work/nope" "$work/tsv" 2>/dev/null && echo "subtract without a baseline passed"
"$bin" 2>/dev/null && echo "no arguments passed"
exit 0
