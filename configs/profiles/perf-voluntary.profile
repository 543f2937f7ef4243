# Benchmarks (make bench) on PREEMPT_VOLUNTARY, without debugging options;
# static keys patched as in a distribution kernel (jump-label).
DESCRIPTION="PREEMPT_VOLUNTARY, no debug options: for make bench"
FRAGMENTS="base rcu voluntary jump-label"
BOOT_TIMEOUT=1800
