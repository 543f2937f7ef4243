# Benchmarks (make bench) on PREEMPT (full), without debugging options.
DESCRIPTION="PREEMPT (full), no debug options: for make bench"
FRAGMENTS="base rcu preempt"
BOOT_TIMEOUT=1800
