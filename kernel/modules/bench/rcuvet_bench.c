// SPDX-License-Identifier: GPL-2.0
/*
 * rcuvet_bench: what refscale and rcuscale do not measure, in one boot.
 *
 *  - reader_cost: nanoseconds per enter/exit pair of every reader kind a
 *    consolidated grace period honours, and of an empty loop, so that
 *    ratios between kinds come from the same boot;
 *  - gp_latency: how long each update primitive takes to declare a grace
 *    period over (synchronous waits, call_rcu() to its callback, polled
 *    completion, SRCU, RCU Tasks);
 *  - gp_under_readers: synchronize_rcu()'s latency while the other CPU
 *    runs back-to-back readers of one kind, each hold_us long, against the
 *    other CPU idle and busy outside readers: the cost of consolidation
 *    for the update side.
 *
 * Every measurement is runs repetitions; each prints one line
 *   # <case>: rcuvet-bench <metric> <kind> median=<ns> min=<ns> max=<ns> n=<runs>
 * that the host turns into CSV, tables and plots.  Timings under TCG are
 * emulated: compare ratios within a boot, not nanoseconds across machines.
 * The KUnit verdict only says the measurement ran (so that make check can
 * keep this code from rotting with tiny counts); it asserts no timing.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/rcupdate_trace.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/srcu.h>
#include "rcuvet.h"
#include "rcuvet_tree.h"

static unsigned int loops = 100000;
module_param(loops, uint, 0444);
MODULE_PARM_DESC(loops, "Reader enter/exit pairs per timed run");

static unsigned int runs = 11;
module_param(runs, uint, 0444);
MODULE_PARM_DESC(runs, "Timed runs per measurement (median, min and max are reported)");

static unsigned int hold_us = 1000;
module_param(hold_us, uint, 0444);
MODULE_PARM_DESC(hold_us, "Length of each back-to-back reader in gp_under_readers");

DEFINE_STATIC_SRCU(bench_srcu);
DEFINE_STATIC_SRCU(bench_srcu_nmi);

static int bench_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static void bench_report(struct kunit *test, const char *metric,
			 const char *kind, u64 *v, unsigned int n)
{
	sort(v, n, sizeof(*v), bench_cmp, NULL);
	kunit_info(test, "rcuvet-bench %s %s median=%llu min=%llu max=%llu n=%u",
		   metric, kind, v[n / 2], v[0], v[n - 1], n);
}

/* ---- reader cost ---------------------------------------------------- */

struct bench_reader {
	const char *name;
	const char *covers;
	/* One timed run: loops enter/exit pairs; returns nanoseconds. */
	u64 (*run)(unsigned int loops);
	const char *absent;	/* RCUVET_ABSENT(): what the tree lacks */
};

#define READER_RUN(kind, enter, exit)				\
static u64 run_##kind(unsigned int n)				\
{								\
	unsigned long flags __maybe_unused;			\
	int idx __maybe_unused;					\
	u64 t0 = ktime_get_ns();				\
								\
	while (n--) {						\
		enter;						\
		barrier();					\
		exit;						\
	}							\
	return ktime_get_ns() - t0;				\
}

READER_RUN(empty, barrier(), barrier())
READER_RUN(preempt_disable, preempt_disable(), preempt_enable())
READER_RUN(rcu_read_lock, rcu_read_lock(), rcu_read_unlock())
READER_RUN(rcu_read_lock_bh, rcu_read_lock_bh(), rcu_read_unlock_bh())
READER_RUN(rcu_read_lock_sched, rcu_read_lock_sched(), rcu_read_unlock_sched())
READER_RUN(local_bh_disable, local_bh_disable(), local_bh_enable())
READER_RUN(local_irq_save, local_irq_save(flags), local_irq_restore(flags))
READER_RUN(srcu_read_lock, idx = srcu_read_lock(&bench_srcu),
	   srcu_read_unlock(&bench_srcu, idx))
READER_RUN(srcu_read_lock_nmisafe, idx = srcu_read_lock_nmisafe(&bench_srcu_nmi),
	   srcu_read_unlock_nmisafe(&bench_srcu_nmi, idx))
READER_RUN(rcu_read_lock_trace, rcu_read_lock_trace(), rcu_read_unlock_trace())

#define READER(kind, covers, ...) { #kind, covers, run_##kind, __VA_ARGS__ }

static const struct bench_reader bench_readers[] = {
	READER(empty, ""),
	READER(preempt_disable, "preempt_disable preempt_enable"),
	READER(rcu_read_lock, "rcu_read_lock rcu_read_unlock"),
	READER(rcu_read_lock_bh, "rcu_read_lock_bh rcu_read_unlock_bh"),
	READER(rcu_read_lock_sched, "rcu_read_lock_sched rcu_read_unlock_sched"),
	READER(local_bh_disable, "local_bh_disable local_bh_enable"),
	READER(local_irq_save, "local_irq_save local_irq_restore"),
	READER(srcu_read_lock, "srcu_read_lock srcu_read_unlock"),
	READER(srcu_read_lock_nmisafe, "srcu_read_lock_nmisafe srcu_read_unlock_nmisafe",
	       RCUVET_ABSENT(SRCU_NMISAFE, "srcu_read_lock_nmisafe()")),
	READER(rcu_read_lock_trace, "rcu_read_lock_trace rcu_read_unlock_trace"),
};

static void bench_reader_desc(const struct bench_reader *r, char *desc)
{
	strscpy(desc, r->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(bench_reader, bench_readers, bench_reader_desc);

static void reader_cost(struct kunit *test)
{
	const struct bench_reader *r = test->param_value;
	u64 *v = kunit_kcalloc(test, runs, sizeof(*v), GFP_KERNEL);
	unsigned int i;

	rcuvet_skip_absent(test, r->absent);
	KUNIT_ASSERT_NOT_NULL(test, v);
	if (*r->covers)
		rcuvet_covers(test, r->covers);
	r->run(loops / 10 + 1);		/* warm up */
	for (i = 0; i < runs; i++) {
		/* picoseconds per pair: TCG makes some pairs cost < 1 ns */
		v[i] = div_u64(r->run(loops) * 1000, loops);
		cond_resched();
	}
	bench_report(test, "reader_ps", r->name, v, runs);
	KUNIT_EXPECT_GT(test, v[runs - 1], 0ULL);
}

/* ---- grace-period latency ------------------------------------------- */

struct bench_cb {
	struct rcu_head rh;
	struct completion done;
	u64 t;
};

static void bench_cb_fn(struct rcu_head *rh)
{
	struct bench_cb *cb = container_of(rh, struct bench_cb, rh);

	cb->t = ktime_get_ns();
	complete(&cb->done);
}

static void bench_call_rcu(void)
{
	struct bench_cb cb;

	init_rcu_head_on_stack(&cb.rh);
	init_completion(&cb.done);
	call_rcu(&cb.rh, bench_cb_fn);
	wait_for_completion(&cb.done);
	destroy_rcu_head_on_stack(&cb.rh);
}

static void bench_rcu_barrier(void)
{
	struct bench_cb cb;

	init_rcu_head_on_stack(&cb.rh);
	init_completion(&cb.done);
	call_rcu(&cb.rh, bench_cb_fn);
	rcu_barrier();
	destroy_rcu_head_on_stack(&cb.rh);
}

static void bench_poll(void)
{
	unsigned long cookie = start_poll_synchronize_rcu();

	while (!poll_state_synchronize_rcu(cookie))
		schedule_timeout_uninterruptible(1);
}

static void bench_synchronize_srcu(void)
{
	synchronize_srcu(&bench_srcu);
}

static void bench_synchronize_srcu_expedited(void)
{
	synchronize_srcu_expedited(&bench_srcu);
}

struct bench_updater {
	const char *name;
	const char *covers;
	void (*wait)(void);
};

static const struct bench_updater bench_updaters[] = {
	{ "synchronize_rcu", "synchronize_rcu", synchronize_rcu },
	{ "synchronize_rcu_expedited", "synchronize_rcu_expedited",
	  synchronize_rcu_expedited },
	{ "call_rcu", "call_rcu", bench_call_rcu },
	{ "rcu_barrier", "rcu_barrier", bench_rcu_barrier },
	{ "poll_state_synchronize_rcu",
	  "start_poll_synchronize_rcu poll_state_synchronize_rcu", bench_poll },
	{ "synchronize_srcu", "synchronize_srcu", bench_synchronize_srcu },
	{ "synchronize_srcu_expedited", "synchronize_srcu_expedited",
	  bench_synchronize_srcu_expedited },
	{ "synchronize_rcu_tasks", "synchronize_rcu_tasks", synchronize_rcu_tasks },
	{ "synchronize_rcu_tasks_trace", "synchronize_rcu_tasks_trace",
	  synchronize_rcu_tasks_trace },
};

static void bench_updater_desc(const struct bench_updater *u, char *desc)
{
	strscpy(desc, u->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(bench_updater, bench_updaters, bench_updater_desc);

static void gp_latency(struct kunit *test)
{
	const struct bench_updater *u = test->param_value;
	u64 *v = kunit_kcalloc(test, runs, sizeof(*v), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, v);
	rcuvet_covers(test, u->covers);
	for (i = 0; i < runs; i++) {
		u64 t0 = ktime_get_ns();

		u->wait();
		v[i] = ktime_get_ns() - t0;
	}
	bench_report(test, "gp_ns", u->name, v, runs);
	KUNIT_EXPECT_GT(test, v[runs - 1], 0ULL);
}

/* ---- grace periods while the other CPU reads back to back ----------- */

struct bench_hog {
	const char *name;
	void (*hold)(void);	/* one reader of this kind, hold_us long */
};

#define HOLD(kind, enter, exit)					\
static void hold_##kind(void)					\
{								\
	unsigned long flags __maybe_unused;			\
								\
	enter;							\
	udelay(hold_us);					\
	exit;							\
}

HOLD(none, barrier(), barrier())
HOLD(rcu_read_lock, rcu_read_lock(), rcu_read_unlock())
HOLD(preempt_disable, preempt_disable(), preempt_enable())
HOLD(local_bh_disable, local_bh_disable(), local_bh_enable())
HOLD(local_irq_save, local_irq_save(flags), local_irq_restore(flags))

static const struct bench_hog bench_hogs[] = {
	{ "idle", NULL },		/* no thread at all on the other CPU */
	{ "none", hold_none },		/* busy, but outside any reader */
	{ "rcu_read_lock", hold_rcu_read_lock },
	{ "preempt_disable", hold_preempt_disable },
	{ "local_bh_disable", hold_local_bh_disable },
	{ "local_irq_save", hold_local_irq_save },
};

static void bench_hog_desc(const struct bench_hog *h, char *desc)
{
	strscpy(desc, h->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(bench_hog, bench_hogs, bench_hog_desc);

struct bench_hog_run {
	const struct bench_hog *hog;
	struct completion done;
	bool stop;
	unsigned long readers;
};

static int bench_hog_fn(void *arg)
{
	struct bench_hog_run *h = arg;

	/*
	 * A scheduling point between readers: without one, a non-preemptible
	 * kernel would never see this CPU pass a quiescent state at all.
	 */
	while (!READ_ONCE(h->stop)) {
		h->hog->hold();
		h->readers++;
		cond_resched();
	}
	kthread_complete_and_exit(&h->done, 0);
}

static void gp_under_readers(struct kunit *test)
{
	const struct bench_hog *hog = test->param_value;
	u64 *v = kunit_kcalloc(test, runs, sizeof(*v), GFP_KERNEL);
	struct bench_hog_run *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	struct task_struct *t;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, v);
	KUNIT_ASSERT_NOT_NULL(test, h);
	rcuvet_covers(test, "synchronize_rcu");
	rcuvet_pin_updater(test);
	h->hog = hog;
	init_completion(&h->done);
	if (hog->hold) {
		t = kthread_run_on_cpu(bench_hog_fn, h, RCUVET_READER_CPU,
				       "rcuvet_hog/%u");
		KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	} else {
		complete(&h->done);
	}
	msleep(20);
	for (i = 0; i < runs; i++) {
		u64 t0 = ktime_get_ns();

		synchronize_rcu();
		v[i] = ktime_get_ns() - t0;
	}
	WRITE_ONCE(h->stop, true);
	wait_for_completion(&h->done);
	bench_report(test, "gp_under_readers_ns", hog->name, v, runs);
	if (hog->hold)
		KUNIT_EXPECT_GT(test, h->readers, 0UL);
}

static struct kunit_case bench_cases[] = {
	KUNIT_CASE_PARAM(reader_cost, bench_reader_gen_params),
	KUNIT_CASE_PARAM(gp_latency, bench_updater_gen_params),
	KUNIT_CASE_PARAM(gp_under_readers, bench_hog_gen_params),
	{}
};

static struct kunit_suite bench_suite = {
	.name = "rcuvet_bench",
	.test_cases = bench_cases,
};
kunit_test_suite(bench_suite);

MODULE_DESCRIPTION("rcuvet: reader cost and grace-period latency of every kind");
MODULE_LICENSE("GPL");
