# Benchmarks (make bench) on PREEMPT_RT, without debugging options.
DESCRIPTION="PREEMPT_RT, no debug options: for make bench"
FRAGMENTS="base rcu rt"
BOOT_TIMEOUT=1800
