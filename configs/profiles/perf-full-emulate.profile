# perf-full with the v4.19 emulation compiled in but not switched on:
# make bench PROFILES="perf-full perf-full-emulate" BENCH_NAME=bench-emulate
# measures what CONFIG_RCU_EMULATE_UNCONSOLIDATED=y costs when the boot
# parameter is not given (docs/emulate-4.19.md).
DESCRIPTION="perf-full + CONFIG_RCU_EMULATE_UNCONSOLIDATED=y, not enabled: for make bench"
FRAGMENTS="base rcu preempt emulate"
BOOT_TIMEOUT=1800
