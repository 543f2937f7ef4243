# Negative control of the XDP teardown stress: the debug kernel with a
# deliberately broken devmap and cpumap teardown (entries freed without a
# grace period).  Built in build/mutants/xdp-mutant/ (never borrowed, never
# the shared kernel); only the ctl-xdp-*.plan controls boot it.
DESCRIPTION="debug + kernel/patches/mutants/xdp-teardown-no-grace-period.patch (negative control only)"
MUTANT_OF=debug
MUTANT_PATCHES="mutants/xdp-teardown-no-grace-period.patch"
