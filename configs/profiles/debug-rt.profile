# PREEMPT_RT with the detectors RT allows: KASAN, lockdep and PROVE_RCU,
# debug objects, kmemleak, hung-task and lockup watchdogs.  On RT,
# bottom-half-disabled regions are preemptible and local_bh_disable()
# enters an RCU read-side critical section: the consolidation guarantees
# are reached by another path, which this profile checks.  No emulate
# (CONFIG_RCU_EMULATE_UNCONSOLIDATED depends on !PREEMPT_RT).
DESCRIPTION="PREEMPT_RT, KASAN, PROVE_LOCKING+PROVE_RCU, kmemleak, debug objects"
FRAGMENTS="base net-bpf rcu debug reliance kasan rt debug-preempt inline"
