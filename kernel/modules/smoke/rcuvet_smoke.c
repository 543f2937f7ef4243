// SPDX-License-Identifier: GPL-2.0
/*
 * rcuvet_smoke: two RCU guarantees, checked across CPUs, small enough to
 * prove the pipeline end to end.
 *
 * A reader kthread pinned to CPU 1 enters rcu_read_lock(), announces it is
 * inside, holds the section for hold_ms and, as the last thing it does
 * inside, publishes "left".  The test, pinned to CPU 0, waits until the
 * reader is inside, waits for a grace period and checks "left": a grace
 * period that returned early would find it still clear.
 *
 * mutant=1 is the negative control: the reader leaves its critical section
 * right away and publishes "left" only once the test has checked it, so
 * both cases fail however fast or slow the host.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include "rcuvet.h"
#include "rcuvet_tree.h"

static bool mutant;
module_param(mutant, bool, 0444);
MODULE_PARM_DESC(mutant, "Reader leaves its section before it says so (negative control)");

static unsigned int hold_ms = 200;
module_param(hold_ms, uint, 0444);
MODULE_PARM_DESC(hold_ms, "How long the reader stays in its critical section");

static unsigned int reps = 3;
module_param(reps, uint, 0444);
MODULE_PARM_DESC(reps, "Repetitions of each case");

struct smoke_reader {
	struct completion inside, done;
	bool left;
	bool left_seen_by_cb;
	bool checked;		/* the test has read "left" */
	struct rcu_head rh;
};

static int smoke_reader_fn(void *arg)
{
	struct smoke_reader *r = arg;

	rcu_read_lock();
	complete(&r->inside);
	if (mutant) {
		rcu_read_unlock();
		rcuvet_wait_for(&r->checked);
	} else {
		mdelay(hold_ms);
	}
	WRITE_ONCE(r->left, true);
	if (!mutant)
		rcu_read_unlock();
	kthread_complete_and_exit(&r->done, 0);
}

static void smoke_start_reader(struct kunit *test, struct smoke_reader *r)
{
	struct task_struct *t;

	init_completion(&r->inside);
	init_completion(&r->done);
	r->left = false;
	r->left_seen_by_cb = false;
	r->checked = false;
	t = kthread_run_on_cpu(smoke_reader_fn, r, RCUVET_READER_CPU, "rcuvet_smoke/%u");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	wait_for_completion(&r->inside);
}

static int smoke_init(struct kunit *test)
{
	rcuvet_pin_updater(test);
	return 0;
}

/* synchronize_rcu() returns only after a reader that began before it ended. */
static void synchronize_rcu_waits_for_reader(struct kunit *test)
{
	struct smoke_reader r;
	unsigned int i;
	bool left;

	for (i = 0; i < reps; i++) {
		smoke_start_reader(test, &r);
		synchronize_rcu();
		left = READ_ONCE(r.left);
		rcuvet_signal(&r.checked);
		KUNIT_EXPECT_TRUE_MSG(test, left,
				      "rep %u: synchronize_rcu() returned inside the reader",
				      i);
		wait_for_completion(&r.done);
	}
}

static void smoke_cb(struct rcu_head *rh)
{
	struct smoke_reader *r = container_of(rh, struct smoke_reader, rh);

	WRITE_ONCE(r->left_seen_by_cb, READ_ONCE(r->left));
}

/* A call_rcu() callback runs after the reader; rcu_barrier() waits for it. */
static void call_rcu_runs_after_reader(struct kunit *test)
{
	struct smoke_reader r;
	unsigned int i;
	bool cb_saw_left;

	for (i = 0; i < reps; i++) {
		init_rcu_head_on_stack(&r.rh);
		smoke_start_reader(test, &r);
		call_rcu(&r.rh, smoke_cb);
		rcu_barrier();
		rcuvet_signal(&r.checked);
		cb_saw_left = READ_ONCE(r.left_seen_by_cb);
		KUNIT_EXPECT_TRUE_MSG(test, cb_saw_left,
				      "rep %u: callback ran while the reader was inside", i);
		wait_for_completion(&r.done);
		destroy_rcu_head_on_stack(&r.rh);
	}
}

static struct kunit_case smoke_cases[] = {
	KUNIT_CASE_SLOW(synchronize_rcu_waits_for_reader),
	KUNIT_CASE_SLOW(call_rcu_runs_after_reader),
	{}
};

static struct kunit_suite smoke_suite = {
	.name = "rcuvet_smoke",
	.init = smoke_init,
	.test_cases = smoke_cases,
};
kunit_test_suite(smoke_suite);

MODULE_DESCRIPTION("rcuvet: smoke test of the RCU grace-period guarantee");
MODULE_LICENSE("GPL");
