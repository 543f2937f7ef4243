# Kernel-side negative control of rcuvet_list: the debug kernel with
# list_del_rcu() poisoning the deleted entry's ->next
# (kernel/patches/mutants/list-del-rcu-poisons-next.patch).  A header
# mutant of modules scope: the debug kernel boots as it is, and only our
# test modules are compiled against the mutant rculist.h (no kernel
# build; scripts/lib.sh, load_profile).  Only ctl-kernel-list-mutant.plan
# boots it.
DESCRIPTION="debug kernel, test modules built with kernel/patches/mutants/list-del-rcu-poisons-next.patch (negative control only)"
MUTANT_OF=debug
MUTANT_PATCHES="mutants/list-del-rcu-poisons-next.patch"
MUTANT_SCOPE=modules
