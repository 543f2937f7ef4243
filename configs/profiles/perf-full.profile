# Benchmarks (make bench) on PREEMPT (full), without debugging options;
# static keys patched and -O2 as in a distribution kernel (jump-label, o2).
DESCRIPTION="PREEMPT (full), no debug options: for make bench"
FRAGMENTS="base rcu preempt jump-label o2"
BOOT_TIMEOUT=1800
