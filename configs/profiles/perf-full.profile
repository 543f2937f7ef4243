# Benchmarks (make bench) on PREEMPT (full), without debugging options;
# static keys patched as in a distribution kernel (jump-label).
DESCRIPTION="PREEMPT (full), no debug options: for make bench"
FRAGMENTS="base rcu preempt jump-label"
BOOT_TIMEOUT=1800
