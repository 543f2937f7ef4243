#!/usr/bin/env bash
# guest/rcu-reliance on canned reports (tests/rcu-reliance/*.txt): "site
# NAME" matches a function whole, as FUNCTION+0x.., a clone's
# FUNCTION.suffix+0x.. or FILE:FUNCTION; "absent" needs a report that lost
# nothing; "bh site" is "site", or "absent site" on PREEMPT_RT; a report
# without its summary line, or without a site when no check is given,
# fails; bad usage exits 2.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=$root/tests/rcu-reliance
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -O2 -Wall -Wextra -Werror -o "$work/rcu-reliance" "$root/guest/rcu-reliance.c" ||
	{ echo "guest/rcu-reliance.c does not compile"; exit 0; }

# expect STATUS REPORT ARGS...: rcu-reliance ARGS on REPORT exits STATUS.
expect() {
	local want=$1 file=$2 rc=0
	shift 2
	RCU_RELIANCE_REPORT=$dir/$file "$work/rcu-reliance" "$@" >"$work/out" 2>&1 || rc=$?
	[ "$rc" = "$want" ] || { echo "rcu-reliance $* on $file exited $rc, not $want:"; sed 's/^/  /' "$work/out"; }
}

expect 0 complete.txt
expect 0 complete.txt site bq_flush_to_queue
expect 0 complete.txt site kernel/bpf/cpumap.c:bq_flush_to_queue
expect 1 complete.txt site kernel/bpf/cpumap.c:bq_flush
expect 1 complete.txt site bq_flush
expect 0 complete.txt site __dev_map_lookup_elem site __dev_flush
expect 1 complete.txt site __dev_map_lookup
expect 0 complete.txt site helper
expect 0 complete.txt absent site __cpu_map_lookup_elem
expect 1 complete.txt absent site __dev_flush
expect 1 complete.txt absent site bq_flush_to_queue_x
expect 0 complete.txt absent site bq_flush_to
expect 0 complete.txt absent __cpu_map __dev_map_lookup_elem
expect 1 complete.txt absent __dev_map
expect 2 complete.txt absent site
expect 2 complete.txt site
expect 2 complete.txt absent
expect 2 complete.txt ''
expect 1 lost.txt absent site __cpu_map_lookup_elem
expect 0 lost.txt site __dev_flush
expect 1 unknown.txt absent site __cpu_map_lookup_elem
expect 1 lockdep-off.txt absent site __cpu_map_lookup_elem
expect 0 lockdep-off.txt site __dev_flush
expect 1 truncated.txt
expect 1 truncated.txt site __dev_map_lookup_elem
expect 1 empty.txt
expect 1 empty.txt site __dev_flush
expect 0 empty.txt absent site __dev_flush
expect 0 old-format.txt site reader_fn
# "bh site NAME": listed, but absent on PREEMPT_RT.
RCU_RELIANCE_PREEMPT_RT=0 expect 0 complete.txt bh site __dev_flush
RCU_RELIANCE_PREEMPT_RT=1 expect 1 complete.txt bh site __dev_flush
RCU_RELIANCE_PREEMPT_RT=1 expect 0 complete.txt bh site bq_flush_to
RCU_RELIANCE_PREEMPT_RT=0 expect 1 complete.txt bh site bq_flush_to
RCU_RELIANCE_PREEMPT_RT=1 expect 1 lost.txt bh site bq_flush_to
expect 2 complete.txt bh __dev_flush
RCU_RELIANCE_PREEMPT_RT=yes expect 2 complete.txt bh site __dev_flush
expect 2 complete.txt bh
expect 1 no-such-file.txt
# Count lines keep the "site(s)" word that scripts/report.sh skips.
RCU_RELIANCE_REPORT=$dir/complete.txt "$work/rcu-reliance" site __dev_flush absent site x >"$work/out"
grep -q "^rcu-reliance: 1 site(s) matching site in function '__dev_flush'$" "$work/out" ||
	{ echo "no count line for site __dev_flush:"; sed 's/^/  /' "$work/out"; }
exit 0
