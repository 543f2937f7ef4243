# Benchmarks (make bench) on PREEMPT_NONE, without debugging options.
DESCRIPTION="PREEMPT_NONE, no debug options: for make bench"
FRAGMENTS="base rcu nopreempt"
BOOT_TIMEOUT=1800
