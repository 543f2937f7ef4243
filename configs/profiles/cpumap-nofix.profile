# The debug kernel without our cpumap fix (kernel/patches/0003-*): the
# page_pool direct-return bug of Debian's 6.12.118 is back.  Built in
# build/mutants/cpumap-nofix/ (never borrowed, never the shared kernel);
# only `make cpumap-bug` (configs/plans/xdp-bug-nofix.plan) boots it, to
# show the cpumap_direct_return scenario failing without the fix.
DESCRIPTION="debug without kernel/patches/0003-* (the cpumap direct-return bug; make cpumap-bug only)"
MUTANT_OF=debug
MUTANT_PATCHES="mutants/revert-0003-cpumap-direct-return-fix.patch"
