# Benchmarks (make bench) on PREEMPT_NONE, without debugging options;
# static keys patched and -O2 as in a distribution kernel (jump-label, o2).
DESCRIPTION="PREEMPT_NONE, no debug options: for make bench"
FRAGMENTS="base rcu nopreempt jump-label o2"
BOOT_TIMEOUT=1800
