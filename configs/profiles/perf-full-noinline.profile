# perf-full with rcu_read_lock()/rcu_read_unlock() out of line
# (CONFIG_RCU_INLINE_READ_LOCK off, kernel/patches/0007-*): make bench
# runs both, and bench.md compares them (system level, kernel text and
# call sites) to measure what the inlining gains and costs.  perf-full's
# profile, one fragment more.
# shellcheck source=perf-full.profile
. "${BASH_SOURCE[0]%/*}/perf-full.profile"
DESCRIPTION="perf-full + CONFIG_RCU_INLINE_READ_LOCK off: for make bench"
FRAGMENTS="$FRAGMENTS noinline"
