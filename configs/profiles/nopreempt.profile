# The debug profile on a non-preemptible kernel: Tree RCU is RCU sched,
# rcu_read_lock() only disables preemption implicitly.  Without KASAN,
# which the debug kernel has: it costs ~40 % more compile time, and cold
# make check is bound by the CPU of its kernels (issue 10).  rcuvet_kfree
# sees slab frees through KASAN's shadow: here its slab cases check only
# that the reader left first, and its batch case skips with the reason.
DESCRIPTION="PREEMPT_NONE, PROVE_LOCKING+PROVE_RCU, kmemleak, debug objects (no KASAN)"
FRAGMENTS="base net-bpf rcu debug reliance nopreempt"
