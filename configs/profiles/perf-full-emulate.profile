# perf-full with the v4.19 emulation compiled in but not switched on
# (no rcutree.emulate_unconsolidated=1): make bench runs both, and
# bench.md's "compiled in, not enabled" table compares them, to measure
# what CONFIG_RCU_EMULATE_UNCONSOLIDATED=y costs when off, with the
# static keys patched and -O2 (jump-label, o2) as in a distribution kernel
# (docs/emulate-4.19.md, "Cost").  perf-full's profile, one fragment more.
# shellcheck source=perf-full.profile
. "${BASH_SOURCE[0]%/*}/perf-full.profile"
DESCRIPTION="perf-full + CONFIG_RCU_EMULATE_UNCONSOLIDATED=y, not enabled: for make bench"
FRAGMENTS="$FRAGMENTS emulate"
