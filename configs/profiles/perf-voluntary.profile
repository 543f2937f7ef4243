# Benchmarks (make bench) on PREEMPT_VOLUNTARY, without debugging options;
# static keys patched and -O2 as in a distribution kernel (jump-label, o2).
DESCRIPTION="PREEMPT_VOLUNTARY, no debug options: for make bench"
FRAGMENTS="base rcu voluntary jump-label o2"
BOOT_TIMEOUT=1800
