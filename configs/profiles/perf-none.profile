# Benchmarks (make bench) on PREEMPT_NONE, without debugging options;
# static keys patched as in a distribution kernel (jump-label).
DESCRIPTION="PREEMPT_NONE, no debug options: for make bench"
FRAGMENTS="base rcu nopreempt jump-label"
BOOT_TIMEOUT=1800
