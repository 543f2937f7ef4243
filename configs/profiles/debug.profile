# Full preemption (PREEMPT_RCU) with every detector on: KASAN, lockdep
# and PROVE_RCU, debug objects, kmemleak, hung-task and lockup watchdogs.
DESCRIPTION="PREEMPT=y, KASAN, PROVE_LOCKING+PROVE_RCU, kmemleak, debug objects"
FRAGMENTS="base net-bpf rcu debug kasan preempt debug-preempt emulate"
# Every suite, control and emulate-4.19 boot runs on the inlined reader
# (kernel/patches/0007-*), which is 6.12's only.
[ "$RCUVET_TREE" != 6.12 ] || FRAGMENTS="$FRAGMENTS inline"
