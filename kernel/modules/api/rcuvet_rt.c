// SPDX-License-Identifier: GPL-2.0
/*
 * rcuvet_rt: what PREEMPT_RT makes of RCU's readers and grace periods,
 * checked on every kernel against what that kernel's preemption model
 * says (docs/preempt-rt.md).
 *
 * Consolidation makes one grace period wait for every region that
 * disables bottom halves, preemption or interrupts.  On PREEMPT_RT most
 * of those regions are not what they are elsewhere: local_bh_disable()
 * (and so rcu_read_lock_bh() and every softirq handler, which runs in a
 * task inside such a section), spin_lock() and local_lock() leave the task
 * preemptible and enter rcu_read_lock() instead.  The guarantee holds by
 * another path: preemptible RCU's own reader tracking, not the CPU's
 * quiescent state.  These cases write that down, each as a check that
 * fails on a kernel that behaves otherwise:
 *
 *  - reader_kind: inside each kind of region, whether the task is
 *    preemptible() and whether it is in an rcu_read_lock() section
 *    (rcu_preempt_depth() > 0), against a table with a column for
 *    PREEMPT_RT and one for the other models.  migrate_disable() is the
 *    odd one: spin_lock() on RT implies it, but alone it is no reader.
 *  - migrate_disable_is_no_reader: synchronize_rcu() and
 *    synchronize_rcu_expedited() return while a task on the other CPU
 *    sleeps inside migrate_disable().  The reader leaves only when the
 *    updater says so (or, on a kernel that wrongly waits for it, after
 *    CONSOL_NO_READER_MS, which fails the case): a pass does not depend on
 *    the host's speed.
 *  - expedited_grace_period: on PREEMPT_RT, without NO_HZ_FULL,
 *    rcupdate.rcu_normal_after_boot is forced on, so after boot
 *    synchronize_rcu_expedited() runs a normal grace period: the normal
 *    sequence number moves by at least a full grace period and the
 *    expedited one does not move at all.  Elsewhere (rcu_normal not set)
 *    the expedited sequence moves.
 *
 * That a grace period waits for each of these readers while it is
 * preempted is rcuvet_consol's waits_for_preempted_reader, run there for
 * every kind that is preemptible on the kernel under test.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include "rcuvet.h"
#include "rcuvet_gpw.h"
#include "rcuvet_readers.h"

#define PREEMPT_RCU IS_ENABLED(CONFIG_PREEMPT_RCU)
/* How long a migrate_disable() reader waits to be released. */
#define RT_NO_READER_MS 60000

/* Neither is a reader on any kernel; rcuvet_readers.h has the rest. */
static DEFINE_RAW_SPINLOCK(rt_raw_spinlock);

RCUVET_SECTION(raw_spin_lock, raw_spin_lock(&rt_raw_spinlock), raw_spin_unlock(&rt_raw_spinlock))
RCUVET_SECTION(migrate_disable, migrate_disable(), migrate_enable())

struct rt_kind;

struct rt_seen {
	struct rcuvet_section sec;
	const struct rt_kind *kind;
	struct completion done;
	bool preemptible;
	int depth;
};

static void rt_record(struct rcuvet_section *sec)
{
	struct rt_seen *s = container_of(sec, struct rt_seen, sec);

	s->preemptible = preemptible();
	s->depth = rcu_preempt_depth();
}

struct rt_kind {
	const char *name;
	void (*run)(struct rcuvet_section *s);
	bool preemptible;	/* preemptible() inside */
	bool reader;		/* inside rcu_read_lock(): rcu_preempt_depth() > 0 */
};

/*
 * With PREEMPT_RCU; a kernel without it has no rcu_read_lock() depth, and
 * its rcu_read_lock() disables preemption.
 */
static const struct rt_kind rt_kinds[] = {
	/* name                 run                         preemptible  reader */
	{ "rcu_read_lock",      rcuvet_run_rcu_read_lock,    true,        true },
	{ "rcu_read_lock_bh",   rcuvet_run_rcu_read_lock_bh, ON_RT,       ON_RT },
	{ "local_bh_disable",   rcuvet_run_local_bh_disable, ON_RT,       ON_RT },
	{ "timer_softirq",      rcuvet_run_timer_softirq,    ON_RT,       ON_RT },
	{ "spin_lock",          rcuvet_run_spin_lock,        ON_RT,       ON_RT },
	{ "local_lock",         rcuvet_run_local_lock,       ON_RT,       ON_RT },
	{ "raw_spin_lock",      rcuvet_run_raw_spin_lock,    false,       false },
	{ "preempt_disable",    rcuvet_run_preempt_disable,  false,       false },
	{ "migrate_disable",    rcuvet_run_migrate_disable,  true,        false },
};

static void rt_kind_desc(const struct rt_kind *k, char *desc)
{
	strscpy(desc, k->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rt_kind, rt_kinds, rt_kind_desc);

/* A kthread bound to the reader's CPU: a handler kind arms its timer there. */
static int rt_reader_fn(void *arg)
{
	struct rt_seen *s = arg;

	s->kind->run(&s->sec);
	kthread_complete_and_exit(&s->done, 0);
}

static void reader_kind(struct kunit *test)
{
	const struct rt_kind *k = test->param_value;
	struct rt_seen *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	struct task_struct *t;

	if (!PREEMPT_RCU)
		rcuvet_skip(test, "rcu_read_lock() has a depth and leaves the task preemptible only with PREEMPT_RCU");
	KUNIT_ASSERT_NOT_NULL(test, s);
	s->kind = k;
	s->sec.body = rt_record;
	init_completion(&s->done);
	t = kthread_run_on_cpu(rt_reader_fn, s, RCUVET_READER_CPU, "rcuvet_rt/%u");
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(t), "cannot start the reader");
	wait_for_completion(&s->done);
	KUNIT_EXPECT_EQ_MSG(test, s->preemptible, k->preemptible,
			    "preemptible() inside %s%s", k->name,
			    ON_RT ? " on PREEMPT_RT" : "");
	KUNIT_EXPECT_EQ_MSG(test, s->depth > 0, k->reader,
			    "inside %s%s, rcu_preempt_depth() is %d", k->name,
			    ON_RT ? " on PREEMPT_RT" : "", s->depth);
}

struct rt_no_reader {
	struct completion inside;
	struct completion release;
	struct completion done;
	bool released;		/* the updater let it go, not its timeout */
};

static int rt_no_reader_fn(void *arg)
{
	struct rt_no_reader *r = arg;

	migrate_disable();
	complete(&r->inside);
	/* Sleeping: a task inside migrate_disable() may block. */
	r->released = wait_for_completion_timeout(&r->release,
						  msecs_to_jiffies(RT_NO_READER_MS));
	migrate_enable();
	kthread_complete_and_exit(&r->done, 0);
}

static void migrate_disable_is_no_reader(struct kunit *test)
{
	struct rt_no_reader *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct task_struct *t;
	bool inside;

	KUNIT_ASSERT_NOT_NULL(test, r);
	rcuvet_pin_updater(test);
	init_completion(&r->inside);
	init_completion(&r->release);
	init_completion(&r->done);
	t = kthread_run_on_cpu(rt_no_reader_fn, r, RCUVET_READER_CPU, "rcuvet_rt/%u");
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(t), "cannot start the reader");
	wait_for_completion(&r->inside);
	synchronize_rcu();
	synchronize_rcu_expedited();
	/* Still inside: its timeout has not expired. */
	inside = !completion_done(&r->done);
	complete(&r->release);
	wait_for_completion(&r->done);
	KUNIT_EXPECT_TRUE_MSG(test, inside && r->released,
			      "a grace period waited %u ms for a task inside migrate_disable()",
			      RT_NO_READER_MS);
}

/*
 * Which sequence an expedited grace period moves: on PREEMPT_RT after
 * boot, the normal one (rcu_gp_is_normal()); elsewhere the expedited one.
 */
static void expedited_grace_period(struct kunit *test)
{
	unsigned long gp, exp, snap;
	bool normal = rcu_gp_is_normal();

	rcuvet_covers(test, "synchronize_rcu_expedited");
	if (ON_RT && !IS_ENABLED(CONFIG_NO_HZ_FULL))
		KUNIT_EXPECT_TRUE_MSG(test, normal,
				      "PREEMPT_RT forces rcupdate.rcu_normal_after_boot: expedited grace periods must be normal ones");
	else if (!ON_RT)
		KUNIT_EXPECT_FALSE_MSG(test, normal,
				       "expedited grace periods are normal ones (rcupdate.rcu_normal?)");
	gp = rcu_get_gp_seq();
	exp = rcu_exp_batches_completed();
	snap = rcuvet_seq_snap(gp);
	synchronize_rcu_expedited();
	if (normal) {
		KUNIT_EXPECT_TRUE_MSG(test, rcuvet_seq_done(rcu_get_gp_seq(), snap),
				      "the normal sequence went from %lu to %lu, not past %lu",
				      gp, rcu_get_gp_seq(), snap);
		KUNIT_EXPECT_EQ_MSG(test, rcu_exp_batches_completed(), exp,
				    "an expedited grace period ran");
	} else {
		KUNIT_EXPECT_TRUE_MSG(test,
				      rcuvet_seq_done(rcu_exp_batches_completed(),
						      rcuvet_seq_snap(exp)),
				      "the expedited sequence went from %lu to %lu",
				      exp, rcu_exp_batches_completed());
	}
}

static struct kunit_case rt_cases[] = {
	KUNIT_CASE_PARAM(reader_kind, rt_kind_gen_params),
	KUNIT_CASE(migrate_disable_is_no_reader),
	KUNIT_CASE(expedited_grace_period),
	{}
};

static struct kunit_suite rt_suite = {
	.name = "rcuvet_rt",
	.test_cases = rt_cases,
};
kunit_test_suite(rt_suite);

MODULE_DESCRIPTION("rcuvet: RCU readers and grace periods on PREEMPT_RT and elsewhere");
MODULE_LICENSE("GPL");
