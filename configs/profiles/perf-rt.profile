# Benchmarks (make bench) on PREEMPT_RT, without debugging options;
# static keys patched as in a distribution kernel (jump-label).
DESCRIPTION="PREEMPT_RT, no debug options: for make bench"
FRAGMENTS="base rcu rt jump-label"
BOOT_TIMEOUT=1800
