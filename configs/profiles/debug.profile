# Full preemption (PREEMPT_RCU) with every detector on: KASAN, lockdep
# and PROVE_RCU, debug objects, kmemleak, hung-task and lockup watchdogs.
DESCRIPTION="PREEMPT=y, KASAN, PROVE_LOCKING+PROVE_RCU, kmemleak, debug objects"
# Every suite, control and emulate-4.19 boot runs on the inlined reader
# (kernel/patches/0007-*), where the tree has it (fragment inline).
FRAGMENTS="base net-bpf rcu debug reliance kasan preempt debug-preempt emulate inline"
