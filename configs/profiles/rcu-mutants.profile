# Kernel-side negative controls of the RCU API suites (issue 11): the debug
# kernel with grace-period bugs that the suites must catch.  Built in
# build/mutants/rcu-mutants/ (never borrowed, never the shared kernel);
# only the ctl-kernel-rcu-mutants plan boots it.
#
# gp-tick-ignores-preempt-count: the tick reports a quiescent state inside
# preempt-disabled regions (rcuvet_consol's normal-GP pairs with
# preemption-disabled readers fail, the others pass).
#
# srcu-ignores-readers: SRCU finds an index reader-free without summing
# its counters (rcuvet_srcu's waits-for-reader pairs fail).  srcutree.c is
# used by no rcuvet_consol case, and the tick by no SRCU grace period, so
# the plan tells the two apart: one kernel, two families.
DESCRIPTION="debug + kernel/patches/mutants/{gp-tick-ignores-preempt-count,srcu-ignores-readers}.patch (negative control only)"
MUTANT_OF=debug
MUTANT_PATCHES="mutants/gp-tick-ignores-preempt-count.patch mutants/srcu-ignores-readers.patch"
