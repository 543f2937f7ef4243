# The debug profile on a non-preemptible kernel: Tree RCU is RCU sched,
# rcu_read_lock() only disables preemption implicitly.  Without KASAN,
# which the debug kernel has: it costs ~40 % more compile time, and cold
# make check is bound by the CPU of its kernels (issue 10).  rcuvet_kfree's
# cases that see frees through KASAN's shadow skip here, with the reason.
DESCRIPTION="PREEMPT_NONE, PROVE_LOCKING+PROVE_RCU, kmemleak, debug objects (no KASAN)"
FRAGMENTS="base net-bpf rcu debug nopreempt"
