# Benchmarks (make bench) on PREEMPT_RT, without debugging options;
# static keys patched and -O2 as in a distribution kernel (jump-label, o2).
DESCRIPTION="PREEMPT_RT, no debug options: for make bench"
FRAGMENTS="base rcu rt jump-label o2"
BOOT_TIMEOUT=1800
