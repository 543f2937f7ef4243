# Benchmarks (make bench) on PREEMPT_VOLUNTARY, without debugging options.
DESCRIPTION="PREEMPT_VOLUNTARY, no debug options: for make bench"
FRAGMENTS="base rcu voluntary"
BOOT_TIMEOUT=1800
