# Kernel-side negative controls of the RCU API suites (issue 11): the debug
# kernel with grace-period bugs that the suites must catch.  Built in
# build/mutants/rcu-mutants/ (never borrowed, never the shared kernel);
# only the ctl-kernel-rcu-mutants plan boots it.
#
# gp-tick-ignores-preempt-count: the tick reports a quiescent state inside
# preempt-disabled regions (rcuvet_consol's normal-GP pairs with
# preemption-disabled readers fail, the others pass).
#
# One kernel may carry several mutants if each breaks a different family
# and the plan tells them apart: the SRCU helper is to add
# mutants/srcu-ignores-readers.patch here (srcutree.c, which no consol case
# uses), with its own control lines in ctl-kernel-rcu-mutants.plan.
DESCRIPTION="debug + kernel/patches/mutants/gp-tick-ignores-preempt-count.patch (negative control only)"
MUTANT_OF=debug
MUTANT_PATCHES="mutants/gp-tick-ignores-preempt-count.patch"
