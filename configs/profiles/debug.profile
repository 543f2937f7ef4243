# Full preemption (PREEMPT_RCU) with every detector on: KASAN, lockdep
# and PROVE_RCU, debug objects, kmemleak, hung-task and lockup watchdogs.
DESCRIPTION="PREEMPT=y, KASAN, PROVE_LOCKING+PROVE_RCU, kmemleak, debug objects"
FRAGMENTS="base net-bpf rcu debug kasan preempt debug-preempt emulate"
