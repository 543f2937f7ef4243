// SPDX-License-Identifier: GPL-2.0
/*
 * rcuvet_tasks: the RCU Tasks family as Linux 6.12 has it.
 *
 * RCU Tasks: a task is in a read-side critical section whenever it runs
 * in the kernel; only a voluntary context switch (or user-mode execution,
 * idle, or cond_resched_tasks_rcu_qs()) ends it.  A reader kthread on
 * CPU 1 loops with mdelay() and cond_resched() for hold_ms, publishes
 * "left" and only then sleeps; synchronize_rcu_tasks() on CPU 0 must find
 * "left" set when it returns.  Meanwhile a SCHED_FIFO kthread on CPU 1
 * wakes every millisecond or two and runs in the reader's place: on a
 * preemptible kernel it preempts the reader, on PREEMPT_NONE the reader's
 * cond_resched() switches to it.  Neither is a quiescent state, and the
 * case checks that the reader was switched out while inside at least
 * once, so that it shows this rather than assumes it.
 *
 * The article says that without CONFIG_PREEMPT synchronize_rcu_tasks() is
 * just synchronize_rcu(); 6.12 builds the real thing there too when it is
 * selected (here it is forced), which one case shows: synchronize_rcu()
 * returns while such a task is still looping, synchronize_rcu_tasks()
 * does not.
 *
 * RCU Tasks Rude: any context switch is a quiescent state, so a
 * preempt-disabled region holds synchronize_rcu_tasks_rude() off.  6.12
 * made call_rcu_tasks_rude() static and removed rcu_barrier_tasks_rude():
 * synchronize_rcu_tasks_rude() is the whole API, which one case checks
 * against the kernel's export table.
 *
 * RCU Tasks Trace: explicit rcu_read_lock_trace()/rcu_read_unlock_trace()
 * readers that may sleep.
 *
 * Negative controls (mutant=NAME):
 *  early_exit  every reader ends its section (sleeps voluntarily, enables
 *              preemption, or unlocks) right after saying it is inside,
 *              and says "left" only after the updater's wait returned: every
 *              waits-for-reader case must fail.
 *  no_barrier  rcu_barrier_tasks() and rcu_barrier_tasks_trace() are left
 *              out: the callback cases must fail, the callback cannot have
 *              run while its reader, which holds until the updater looked,
 *              still holds the grace period.
 *  qs_swap     the RCU Tasks readers call cond_resched_tasks_rcu_qs() where
 *              they should call cond_resched(), and the other way round,
 *              and loop until the updater's wait returned: every RCU Tasks
 *              case that loops must fail.  (The cond_resched_tasks_rcu_qs()
 *              reader, which then never reports a quiescent state, gives
 *              up after wait_ms.)
 * Each mutant reader that holds "until the updater looked" waits without a
 * deadline, so that no control holds or fails by the host's speed.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/debug_locks.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/rcupdate_trace.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "rcuvet.h"

static char *mutant = "";
module_param(mutant, charp, 0444);
MODULE_PARM_DESC(mutant, "Negative control: early_exit, no_barrier or qs_swap");

static unsigned int hold_ms = 200;
module_param(hold_ms, uint, 0444);
MODULE_PARM_DESC(hold_ms, "How long a reader stays in its critical section");

static unsigned int reps = 1;
module_param(reps, uint, 0444);
MODULE_PARM_DESC(reps, "Repetitions of each case (RCU Tasks grace periods are long)");

static unsigned int wait_ms = 10000;
module_param(wait_ms, uint, 0444);
MODULE_PARM_DESC(wait_ms, "Longest a reader waits for the updater before it gives up");

enum tr_mutant { M_NONE, M_EARLY_EXIT, M_NO_BARRIER, M_QS_SWAP };
static enum tr_mutant the_mutant;

/* What the reader kthread does while it is "inside". */
enum tr_kind {
	K_TASKS,	/* loops in the kernel for hold_ms */
	K_TASKS_RCU,	/* ... until synchronize_rcu() returned, then hold_ms */
	K_TASKS_QS,	/* loops on cond_resched_tasks_rcu_qs() until released */
	K_RUDE,		/* preempt-disabled for hold_ms */
	K_TRACE,	/* rcu_read_lock_trace(), sleeps hold_ms */
};

struct tr_reader {
	enum tr_kind kind;
	struct completion inside, done, preempter_done;
	struct task_struct *preempter;
	bool left;		/* the last thing the reader does inside */
	bool rcu_returned;	/* the updater's synchronize_rcu() returned */
	bool released;		/* the updater's wait returned */
	bool until_released;	/* hold until then, not for hold_ms */
	bool held;		/* rcu_read_lock_trace_held() at the end */
	unsigned int preemptions;	/* preempter runs while !left */
	bool cb_ran, cb_saw_left;
	struct rcu_head rh;
};

/* One millisecond in the kernel, then cond_resched() or its Tasks variant. */
static void tr_tick(bool tasks_qs)
{
	bool swap = the_mutant == M_QS_SWAP;

	mdelay(1);
	if (tasks_qs != swap)
		cond_resched_tasks_rcu_qs();
	else
		cond_resched();
}

static void tr_section(struct tr_reader *r)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(wait_ms);
	unsigned int i;

	switch (r->kind) {
	case K_TASKS:
	case K_TASKS_RCU:
		complete(&r->inside);
		if (the_mutant == M_EARLY_EXIT) {
			/* A voluntary context switch inside the "section". */
			rcuvet_wait_for(&r->released);
			break;
		}
		if (r->kind == K_TASKS_RCU)
			while (!READ_ONCE(r->rcu_returned) &&
			       time_before(jiffies, deadline))
				tr_tick(false);
		if (r->until_released) {
			/* Hold until the wait returns, however long it takes. */
			while (!smp_load_acquire(&r->released))
				tr_tick(false);
			break;
		}
		/* hold_ms, and until the preempter ran at least once inside */
		for (i = 0; i < hold_ms ||
			    (r->preempter && !READ_ONCE(r->preemptions)); i++)
			tr_tick(false);
		break;
	case K_TASKS_QS:
		complete(&r->inside);
		while (!READ_ONCE(r->released) &&
		       time_before(jiffies, deadline))
			tr_tick(true);
		break;
	case K_RUDE:
		preempt_disable();
		complete(&r->inside);
		if (the_mutant == M_EARLY_EXIT) {
			preempt_enable();
			rcuvet_wait_for(&r->released);
			WRITE_ONCE(r->left, true);
			return;
		}
		mdelay(hold_ms);
		WRITE_ONCE(r->left, true);
		preempt_enable();
		return;
	case K_TRACE:
		rcu_read_lock_trace();
		complete(&r->inside);
		if (the_mutant == M_EARLY_EXIT) {
			rcu_read_unlock_trace();
			rcuvet_wait_for(&r->released);
			r->held = rcu_read_lock_trace_held();
			WRITE_ONCE(r->left, true);
			return;
		}
		/* Tasks Trace readers may sleep. */
		if (r->until_released)
			rcuvet_wait_for(&r->released);
		else
			msleep(hold_ms);
		r->held = rcu_read_lock_trace_held();
		WRITE_ONCE(r->left, true);
		rcu_read_unlock_trace();
		return;
	}
	WRITE_ONCE(r->left, true);
}

static int tr_reader_fn(void *arg)
{
	struct tr_reader *r = arg;

	tr_section(r);
	/* A voluntary context switch: an RCU Tasks quiescent state. */
	schedule_timeout_uninterruptible(1);
	kthread_complete_and_exit(&r->done, 0);
}

/*
 * SCHED_FIFO on the reader's CPU: each time it runs while the reader is
 * inside, the reader was switched out involuntarily (preempted, or in
 * cond_resched()).
 */
static int tr_preempter_fn(void *arg)
{
	struct tr_reader *r = arg;

	while (!READ_ONCE(r->left)) {
		r->preemptions++;
		usleep_range(1000, 2000);
	}
	kthread_complete_and_exit(&r->preempter_done, 0);
}

/*
 * Start a reader of @kind and wait until it is inside.  Under qs_swap the
 * RCU Tasks readers (whose every tick is then a quiescent state), and under
 * no_barrier the readers of the callback cases (@cb), hold until the
 * updater's wait returned instead of for hold_ms: neither holds up the
 * wait it is released by.
 */
static void tr_start(struct kunit *test, struct tr_reader *r,
		     enum tr_kind kind, bool preempter, bool cb)
{
	struct task_struct *t;

	r->kind = kind;
	r->until_released = (the_mutant == M_QS_SWAP &&
			     (kind == K_TASKS || kind == K_TASKS_RCU)) ||
			    (cb && the_mutant == M_NO_BARRIER);
	init_completion(&r->inside);
	init_completion(&r->done);
	init_completion(&r->preempter_done);
	r->preempter = NULL;
	r->left = false;
	r->rcu_returned = false;
	r->released = false;
	r->held = false;
	r->preemptions = 0;
	r->cb_ran = false;
	r->cb_saw_left = false;
	if (preempter) {
		/* Created now, woken once the reader is inside. */
		t = kthread_create_on_cpu(tr_preempter_fn, r, RCUVET_READER_CPU,
					  "rcuvet_tasks_p/%u");
		KUNIT_ASSERT_FALSE(test, IS_ERR(t));
		sched_set_fifo(t);
		r->preempter = t;
	}
	t = kthread_run_on_cpu(tr_reader_fn, r, RCUVET_READER_CPU,
			       "rcuvet_tasks/%u");
	if (IS_ERR(t) && r->preempter)
		kthread_stop(r->preempter);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	wait_for_completion(&r->inside);
	if (r->preempter)
		wake_up_process(r->preempter);
}

/* The updater's wait returned: a mutant reader may now say it left. */
static void tr_finish(struct tr_reader *r)
{
	rcuvet_signal(&r->released);
	wait_for_completion(&r->done);
	if (r->preempter)
		wait_for_completion(&r->preempter_done);
}

static void tr_cb(struct rcu_head *rh)
{
	struct tr_reader *r = container_of(rh, struct tr_reader, rh);

	r->cb_saw_left = READ_ONCE(r->left);
	WRITE_ONCE(r->cb_ran, true);
}

static int tr_init(struct kunit *test)
{
	rcuvet_pin_updater(test);
	return 0;
}

static int tr_suite_init(struct kunit_suite *suite)
{
	if (!*mutant)
		the_mutant = M_NONE;
	else if (!strcmp(mutant, "early_exit"))
		the_mutant = M_EARLY_EXIT;
	else if (!strcmp(mutant, "no_barrier"))
		the_mutant = M_NO_BARRIER;
	else if (!strcmp(mutant, "qs_swap"))
		the_mutant = M_QS_SWAP;
	else
		return -EINVAL;
	return 0;
}

/*
 * synchronize_rcu_tasks() waits for a task that is running in the kernel
 * until it switches voluntarily; neither cond_resched() nor preemption
 * ends its section.
 */
static void synchronize_rcu_tasks_waits_for_voluntary_switch(struct kunit *test)
{
	struct tr_reader r;
	unsigned int i;
	bool left;

	rcuvet_covers(test, "synchronize_rcu_tasks");
	for (i = 0; i < reps; i++) {
		tr_start(test, &r, K_TASKS, true, false);
		synchronize_rcu_tasks();
		left = READ_ONCE(r.left);
		tr_finish(&r);
		KUNIT_EXPECT_TRUE_MSG(test, left,
				      "rep %u: synchronize_rcu_tasks() returned before the task switched voluntarily",
				      i);
		kunit_info(test, "rep %u: reader switched out %u times inside",
			   i, r.preemptions);
		if (the_mutant != M_EARLY_EXIT)
			KUNIT_EXPECT_GT_MSG(test, r.preemptions, 0,
					    "rep %u: the reader was never switched out inside",
					    i);
	}
}

/*
 * 6.12 builds RCU Tasks on non-preemptible kernels too (when selected):
 * synchronize_rcu() does not wait for a task that loops in the kernel
 * through cond_resched(), synchronize_rcu_tasks() does.
 */
static void synchronize_rcu_tasks_is_not_synchronize_rcu(struct kunit *test)
{
	struct tr_reader r;
	bool left_rcu, left_tasks;
	unsigned int i;

	rcuvet_covers(test, "synchronize_rcu_tasks synchronize_rcu");
	for (i = 0; i < reps; i++) {
		tr_start(test, &r, K_TASKS_RCU, false, false);
		synchronize_rcu();
		left_rcu = READ_ONCE(r.left);
		WRITE_ONCE(r.rcu_returned, true);
		synchronize_rcu_tasks();
		left_tasks = READ_ONCE(r.left);
		tr_finish(&r);
		KUNIT_EXPECT_FALSE_MSG(test, left_rcu,
				       "rep %u: synchronize_rcu() waited for a task looping in the kernel",
				       i);
		KUNIT_EXPECT_TRUE_MSG(test, left_tasks,
				      "rep %u: synchronize_rcu_tasks() returned while the task was looping",
				      i);
	}
}

/* cond_resched_tasks_rcu_qs() is an RCU Tasks quiescent state. */
static void cond_resched_tasks_rcu_qs_is_quiescent(struct kunit *test)
{
	struct tr_reader r;
	unsigned int i;
	bool left;

	rcuvet_covers(test, "cond_resched_tasks_rcu_qs synchronize_rcu_tasks");
	for (i = 0; i < reps; i++) {
		tr_start(test, &r, K_TASKS_QS, false, false);
		synchronize_rcu_tasks();
		left = READ_ONCE(r.left);
		tr_finish(&r);
		KUNIT_EXPECT_FALSE_MSG(test, left,
				       "rep %u: synchronize_rcu_tasks() waited for a task in cond_resched_tasks_rcu_qs()",
				       i);
	}
}

/* A call_rcu_tasks() callback runs after the task switched voluntarily. */
static void call_rcu_tasks_runs_after_voluntary_switch(struct kunit *test)
{
	struct tr_reader r;
	bool ran, saw_left;
	unsigned int i;

	rcuvet_covers(test, "call_rcu_tasks rcu_barrier_tasks");
	for (i = 0; i < reps; i++) {
		init_rcu_head_on_stack(&r.rh);
		tr_start(test, &r, K_TASKS, false, true);
		call_rcu_tasks(&r.rh, tr_cb);
		if (the_mutant != M_NO_BARRIER)
			rcu_barrier_tasks();
		ran = READ_ONCE(r.cb_ran);
		saw_left = r.cb_saw_left;
		tr_finish(&r);
		rcu_barrier_tasks();	/* r.rh dies with this frame */
		destroy_rcu_head_on_stack(&r.rh);
		KUNIT_EXPECT_TRUE_MSG(test, ran,
				      "rep %u: rcu_barrier_tasks() returned before the callback ran",
				      i);
		KUNIT_EXPECT_TRUE_MSG(test, saw_left,
				      "rep %u: the callback ran before the task switched voluntarily",
				      i);
	}
}

/* synchronize_rcu_tasks_rude() waits for a preempt-disabled region. */
static void synchronize_rcu_tasks_rude_waits_for_preempt_disabled(struct kunit *test)
{
	struct tr_reader r;
	unsigned int i;
	bool left;

	rcuvet_covers(test, "synchronize_rcu_tasks_rude");
	for (i = 0; i < reps; i++) {
		tr_start(test, &r, K_RUDE, false, false);
		synchronize_rcu_tasks_rude();
		left = READ_ONCE(r.left);
		tr_finish(&r);
		KUNIT_EXPECT_TRUE_MSG(test, left,
				      "rep %u: synchronize_rcu_tasks_rude() returned inside a preempt-disabled region",
				      i);
	}
}

/*
 * 6.12: synchronize_rcu_tasks_rude() is exported, call_rcu_tasks_rude() is
 * static and rcu_barrier_tasks_rude() is gone.  The lookup that finds the
 * first (and the other flavors' call_rcu) must find neither of the others.
 */
static void rude_api_is_synchronize_only(struct kunit *test)
{
	static const char *const present[] = {
		"synchronize_rcu_tasks_rude", "call_rcu_tasks",
		"rcu_barrier_tasks", "call_rcu_tasks_trace",
	};
	static const char *const absent[] = {
		"call_rcu_tasks_rude", "rcu_barrier_tasks_rude",
	};
	unsigned int i;
	void *sym;

	rcuvet_covers(test, "synchronize_rcu_tasks_rude");
	for (i = 0; i < ARRAY_SIZE(present); i++) {
		sym = __symbol_get(present[i]);
		KUNIT_EXPECT_NOT_NULL_MSG(test, sym, "%s is not exported", present[i]);
		if (sym)
			__symbol_put(present[i]);
	}
	for (i = 0; i < ARRAY_SIZE(absent); i++) {
		sym = __symbol_get(absent[i]);
		KUNIT_EXPECT_NULL_MSG(test, sym, "6.12 should not export %s", absent[i]);
		if (sym)
			__symbol_put(absent[i]);
	}
}

static bool tr_lockdep_on(void)
{
	return IS_ENABLED(CONFIG_DEBUG_LOCK_ALLOC) && debug_locks;
}

/* synchronize_rcu_tasks_trace() waits for a reader that sleeps inside. */
static void synchronize_rcu_tasks_trace_waits_for_sleeping_reader(struct kunit *test)
{
	struct tr_reader r;
	bool left, held_here;
	unsigned int i;

	rcuvet_covers(test,
		      "rcu_read_lock_trace rcu_read_unlock_trace synchronize_rcu_tasks_trace rcu_read_lock_trace_held");
	for (i = 0; i < reps; i++) {
		tr_start(test, &r, K_TRACE, false, false);
		held_here = rcu_read_lock_trace_held();
		synchronize_rcu_tasks_trace();
		left = READ_ONCE(r.left);
		tr_finish(&r);
		KUNIT_EXPECT_TRUE_MSG(test, left,
				      "rep %u: synchronize_rcu_tasks_trace() returned inside a reader",
				      i);
		if (tr_lockdep_on()) {
			KUNIT_EXPECT_TRUE_MSG(test, r.held,
					      "rep %u: rcu_read_lock_trace_held() false in the reader",
					      i);
			KUNIT_EXPECT_FALSE_MSG(test, held_here,
					       "rep %u: rcu_read_lock_trace_held() true in the updater",
					       i);
		}
	}
}

/* A call_rcu_tasks_trace() callback runs after the reader left. */
static void call_rcu_tasks_trace_runs_after_reader(struct kunit *test)
{
	struct tr_reader r;
	bool ran, saw_left;
	unsigned int i;

	rcuvet_covers(test,
		      "call_rcu_tasks_trace rcu_barrier_tasks_trace rcu_read_lock_trace rcu_read_unlock_trace");
	for (i = 0; i < reps; i++) {
		init_rcu_head_on_stack(&r.rh);
		tr_start(test, &r, K_TRACE, false, true);
		call_rcu_tasks_trace(&r.rh, tr_cb);
		if (the_mutant != M_NO_BARRIER)
			rcu_barrier_tasks_trace();
		ran = READ_ONCE(r.cb_ran);
		saw_left = r.cb_saw_left;
		tr_finish(&r);
		rcu_barrier_tasks_trace();	/* r.rh dies with this frame */
		destroy_rcu_head_on_stack(&r.rh);
		KUNIT_EXPECT_TRUE_MSG(test, ran,
				      "rep %u: rcu_barrier_tasks_trace() returned before the callback ran",
				      i);
		KUNIT_EXPECT_TRUE_MSG(test, saw_left,
				      "rep %u: the callback ran inside the reader", i);
	}
}

/* rcu_read_lock_trace_held() follows the (nested) section of this task. */
static void rcu_read_lock_trace_held_tracks_nesting(struct kunit *test)
{
	rcuvet_covers(test, "rcu_read_lock_trace_held rcu_read_lock_trace rcu_read_unlock_trace");
	if (!tr_lockdep_on())
		kunit_skip(test, "rcu_read_lock_trace_held() needs lockdep on");
	KUNIT_EXPECT_FALSE(test, rcu_read_lock_trace_held());
	rcu_read_lock_trace();
	KUNIT_EXPECT_TRUE(test, rcu_read_lock_trace_held());
	rcu_read_lock_trace();
	KUNIT_EXPECT_TRUE(test, rcu_read_lock_trace_held());
	rcu_read_unlock_trace();
	KUNIT_EXPECT_TRUE(test, rcu_read_lock_trace_held());
	rcu_read_unlock_trace();
	KUNIT_EXPECT_FALSE(test, rcu_read_lock_trace_held());
}

static struct kunit_case tr_cases[] = {
	KUNIT_CASE_SLOW(synchronize_rcu_tasks_waits_for_voluntary_switch),
	KUNIT_CASE_SLOW(synchronize_rcu_tasks_is_not_synchronize_rcu),
	KUNIT_CASE_SLOW(cond_resched_tasks_rcu_qs_is_quiescent),
	KUNIT_CASE_SLOW(call_rcu_tasks_runs_after_voluntary_switch),
	KUNIT_CASE_SLOW(synchronize_rcu_tasks_rude_waits_for_preempt_disabled),
	KUNIT_CASE(rude_api_is_synchronize_only),
	KUNIT_CASE_SLOW(synchronize_rcu_tasks_trace_waits_for_sleeping_reader),
	KUNIT_CASE_SLOW(call_rcu_tasks_trace_runs_after_reader),
	KUNIT_CASE(rcu_read_lock_trace_held_tracks_nesting),
	{}
};

static struct kunit_suite tr_suite = {
	.name = "rcuvet_tasks",
	.suite_init = tr_suite_init,
	.init = tr_init,
	.test_cases = tr_cases,
};
kunit_test_suite(tr_suite);

MODULE_DESCRIPTION("rcuvet: RCU Tasks, Tasks Rude and Tasks Trace");
MODULE_LICENSE("GPL");
