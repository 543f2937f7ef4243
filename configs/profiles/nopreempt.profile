# The debug profile on a non-preemptible kernel: Tree RCU is RCU sched,
# rcu_read_lock() only disables preemption implicitly.
DESCRIPTION="PREEMPT_NONE, KASAN, PROVE_LOCKING+PROVE_RCU, kmemleak, debug objects"
FRAGMENTS="base net-bpf rcu debug nopreempt"
