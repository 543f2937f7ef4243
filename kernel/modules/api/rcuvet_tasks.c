// SPDX-License-Identifier: GPL-2.0
/*
 * rcuvet_tasks: the RCU Tasks family as Linux 6.12 has it.
 *
 * RCU Tasks: a task is in a read-side critical section whenever it runs
 * in the kernel; only a voluntary context switch (or user-mode execution,
 * idle, or cond_resched_tasks_rcu_qs()) ends it.  A reader kthread on
 * CPU 1 loops with mdelay() and cond_resched(), publishes "left" and only
 * then sleeps; synchronize_rcu_tasks() on CPU 0 must find "left" set when
 * it returns.  Meanwhile a SCHED_FIFO kthread on CPU 1 wakes every
 * millisecond or two and runs in the reader's place: on a preemptible
 * kernel it preempts the reader, on PREEMPT_NONE the reader's
 * cond_resched() switches to it.  Neither is a quiescent state.  The
 * reader shows this rather than assumes it: it stays inside until the
 * grace period put it on its holdout list (->rcu_tasks_holdout), it was
 * then switched out involuntarily (its own ->nivcsw), and the
 * grace-period kthread has since scanned the holdouts (slept twice more);
 * it must still be a holdout then.
 *
 * Every waits-for-reader pair (and every callback case) passes only if
 * its reader saw, in the flavor's grace-period sequence number
 * (rcu_tasks*_get_gp_data()), a grace period that began after it entered
 * in progress, and stayed inside hold_ms more (rcuvet_gpw.h); otherwise
 * the pair is retried and then fails.  That also makes the callback cases
 * sensitive to the grace period although Tasks callbacks are lazy (the
 * grace period starts up to lazy_jiffies, HZ/4, after call_rcu_tasks*()):
 * the reader waits for it instead of sleeping a fixed time.  Callbacks
 * are queued from both CPUs, and the barrier runs on each CPU in turn.
 *
 * The article says that without CONFIG_PREEMPT synchronize_rcu_tasks() is
 * just synchronize_rcu(); 6.12 builds the real thing there too when it is
 * selected (here it is forced), which one case shows: synchronize_rcu()
 * returns while such a task is still looping, synchronize_rcu_tasks()
 * does not.
 *
 * A tree that does not export those sequence numbers (6.1) gives other
 * evidence (rcuvet_gpw.h's ->started()): an RCU Tasks reader stays
 * inside until a grace period put it on its holdout list, a Tasks Trace
 * reader until one marked it TRC_NEED_QS, each then hold_ms more; a Rude
 * reader, which no grace period marks, hold_ms after the updater armed
 * it.  Without the grace-period kthread (get_rcu_tasks_gp_kthread()) the
 * preempted reader does not wait for its scans either.
 *
 * RCU Tasks Rude: any context switch is a quiescent state, so a
 * preempt-disabled region holds synchronize_rcu_tasks_rude() off.  6.12
 * made call_rcu_tasks_rude() static and removed rcu_barrier_tasks_rude():
 * synchronize_rcu_tasks_rude() is the whole API, which one case checks
 * against the kernel's export table (an API-shape check: it claims no
 * coverage, no kernel bug in the grace period could make it fail); on a
 * tree that still declares both (6.1), it checks that they are exported,
 * and another case tests them as the callback cases of the other flavors.
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
#include <linux/sched/task.h>
#include <linux/string.h>

#include "rcuvet.h"
#include "rcuvet_gpw.h"
#include "rcuvet_tree.h"

static char *mutant = "";
module_param(mutant, charp, 0444);
MODULE_PARM_DESC(mutant, "Negative control: early_exit, no_barrier or qs_swap");

static unsigned int hold_ms = 200;
module_param(hold_ms, uint, 0444);
MODULE_PARM_DESC(hold_ms,
		 "How long a reader stays inside once it saw the grace period in progress");

static unsigned int reps = 1;
module_param(reps, uint, 0444);
MODULE_PARM_DESC(reps, "Repetitions of each case (RCU Tasks grace periods are long)");

static unsigned int wait_ms = 10000;
module_param(wait_ms, uint, 0444);
MODULE_PARM_DESC(wait_ms,
		 "Longest a reader waits for the updater or its grace period before it gives up");

enum tr_mutant { M_NONE, M_EARLY_EXIT, M_NO_BARRIER, M_QS_SWAP };
static enum tr_mutant the_mutant;

/* What the reader kthread does while it is "inside". */
enum tr_kind {
	K_TASKS,	/* loops in the kernel (witness) */
	K_TASKS_RCU,	/* ... until synchronize_rcu() returned, then witness */
	K_TASKS_QS,	/* loops on cond_resched_tasks_rcu_qs() until released */
	K_RUDE,		/* preempt-disabled (witness) */
	K_TRACE,	/* rcu_read_lock_trace(), sleeps (witness) */
};

struct tr_reader {
	enum tr_kind kind;
	struct completion inside, done, preempter_done;
	struct task_struct *task, *preempter;
	struct rcuvet_gpw w;	/* of the flavor the kind belongs to */
	bool left;		/* the last thing the reader does inside */
	bool rcu_returned;	/* the updater's synchronize_rcu() returned */
	bool released;		/* the updater's wait returned */
	bool until_released;	/* hold until then, not the witness */
	bool held;		/* rcu_read_lock_trace_held() at the end */
	/* K_TASKS with a preempter: the holdout evidence (tr_tasks_extra()) */
	bool on_holdouts;	/* seen ->rcu_tasks_holdout set */
	bool preempted;		/* switched out involuntarily since */
	unsigned long nivcsw0, gp_nvcsw0;
	unsigned long preemptions;	/* involuntary switches in the GP */
};

/* A callback and the reader it must find gone. */
struct tr_cb {
	struct rcu_head rh;
	struct tr_reader *r;
	bool ran, saw_left;
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

static bool tr_may_leave(struct tr_reader *r)
{
	/* Pairs with rcuvet_signal() in tr_finish(). */
	return rcuvet_gpw_may_leave(&r->w, smp_load_acquire(&r->released));
}

static void tr_section(struct tr_reader *r)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(wait_ms);

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
		while (!tr_may_leave(r))
			tr_tick(false);
		if (r->preempted)
			r->preemptions = current->nivcsw - r->nivcsw0;
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
		while (!tr_may_leave(r))
			mdelay(1);
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
			while (!tr_may_leave(r))
				usleep_range(1000, 2000);
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

	while (!READ_ONCE(r->left))
		usleep_range(1000, 2000);
	kthread_complete_and_exit(&r->preempter_done, 0);
}

static unsigned long tr_seq_tasks(void *arg)
{
	unsigned long seq;
	int flags;

	rcu_tasks_get_gp_data(&flags, &seq);
	return seq;
}

static unsigned long tr_seq_rude(void *arg)
{
	unsigned long seq;
	int flags;

	rcu_tasks_rude_get_gp_data(&flags, &seq);
	return seq;
}

static unsigned long tr_seq_trace(void *arg)
{
	unsigned long seq;
	int flags;

	rcu_tasks_trace_get_gp_data(&flags, &seq);
	return seq;
}

/*
 * Without a sequence number: the evidence, looked at from inside, that a
 * grace period which must wait for this reader is in progress.
 */
static bool tr_started_tasks(struct rcuvet_gpw *w)
{
	return READ_ONCE(current->rcu_tasks_holdout);
}

static bool tr_marked(struct task_struct *t)
{
	return READ_ONCE(t->trc_reader_special.b.need_qs) & TRC_NEED_QS;
}

static bool tr_started_trace(struct rcuvet_gpw *w)
{
	return tr_marked(current);
}

/* Nothing marks a Rude reader: the margin counts from the arming. */
static bool tr_started_rude(struct rcuvet_gpw *w)
{
	return true;
}

/* The sequence number of @kind's flavor, or what shows its grace period. */
static void tr_witness_init(struct rcuvet_gpw *w, enum tr_kind kind,
			    unsigned int max_ms)
{
	unsigned long (*seq)(void *arg) = NULL;
	bool (*started)(struct rcuvet_gpw *w);

	switch (kind) {
	case K_RUDE:
		if (RCUVET_HAVE_RCU_TASKS_RUDE_GP_DATA)
			seq = tr_seq_rude;
		started = tr_started_rude;
		break;
	case K_TRACE:
		if (RCUVET_HAVE_RCU_TASKS_TRACE_GP_DATA)
			seq = tr_seq_trace;
		started = tr_started_trace;
		break;
	default:
		if (RCUVET_HAVE_RCU_TASKS_GP_DATA)
			seq = tr_seq_tasks;
		started = tr_started_tasks;
	}
	rcuvet_gpw_init(w, seq, NULL, hold_ms, max_ms);
	if (!seq)
		w->started = started;
}

/* Is the grace period @r's witness was armed for still running? */
static bool tr_gp_running(struct tr_reader *r)
{
	if (r->w.seq)
		return !rcuvet_seq_done(r->w.seq(NULL), r->w.snap);
	/* Tasks Trace, without its sequence number: still waiting for @r. */
	return tr_marked(r->task);
}

/*
 * The RCU Tasks reader with a preempter, at each look once it saw the
 * grace period: it may leave only once the grace period put it on its
 * holdout list, it was then preempted (->nivcsw), and the grace-period
 * kthread has since gone to sleep twice, so that it scanned the holdouts
 * in between (it sleeps once per scan in rcu_tasks_wait_gp(), or in the
 * synchronize_rcu() after the last).  Still a holdout then, or it is a
 * kernel bug: preemption was taken for a quiescent state.  A tree that
 * does not export the kthread (6.1) gets the witness's margin instead of
 * the two scans.
 */
static bool tr_tasks_extra(struct rcuvet_gpw *w)
{
	struct tr_reader *r = container_of(w, struct tr_reader, w);
	const bool scans = RCUVET_HAVE_RCU_TASKS_GP_KTHREAD;
	struct task_struct *gp = scans ? get_rcu_tasks_gp_kthread() : NULL;
	bool holdout = READ_ONCE(current->rcu_tasks_holdout);

	if (!r->on_holdouts) {
		r->on_holdouts = holdout;
		r->nivcsw0 = current->nivcsw;
		return false;
	}
	if (!r->preempted) {
		if (current->nivcsw == r->nivcsw0 || (scans && !gp))
			return false;
		r->preempted = true;
		r->gp_nvcsw0 = gp ? READ_ONCE(gp->nvcsw) : 0;
		return false;
	}
	if (!holdout) {
		w->why = "dropped from the holdout list while inside, without a voluntary switch";
		return false;
	}
	return !gp || READ_ONCE(gp->nvcsw) - r->gp_nvcsw0 >= 2;
}

/*
 * Start a reader of @kind, wait until it is inside and arm its witness
 * (the caller runs the primitive next).  Under qs_swap the RCU Tasks
 * readers (whose every tick is then a quiescent state), and under
 * no_barrier the readers of the callback cases (@cb), hold until the
 * updater's wait returned instead: neither holds up the wait it is
 * released by.
 */
static void tr_start(struct kunit *test, struct tr_reader *r,
		     enum tr_kind kind, bool preempter, bool cb)
{
	unsigned int max_ms = wait_ms;
	struct task_struct *t;

	if (kind == K_RUDE)
		max_ms = min(wait_ms, 10000U);	/* preemption is off meanwhile */
	r->kind = kind;
	r->until_released = (the_mutant == M_QS_SWAP &&
			     (kind == K_TASKS || kind == K_TASKS_RCU)) ||
			    (cb && the_mutant == M_NO_BARRIER);
	init_completion(&r->inside);
	init_completion(&r->done);
	init_completion(&r->preempter_done);
	tr_witness_init(&r->w, kind, max_ms);
	if (preempter)
		r->w.extra = tr_tasks_extra;
	r->preempter = NULL;
	r->left = false;
	r->rcu_returned = false;
	r->released = false;
	r->held = false;
	r->on_holdouts = false;
	r->preempted = false;
	r->preemptions = 0;
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
	get_task_struct(t);
	r->task = t;
	wait_for_completion(&r->inside);
	if (r->preempter)
		wake_up_process(r->preempter);
	rcuvet_gpw_arm(&r->w);
}

/* The updater's wait returned: a mutant reader may now say it left. */
static void tr_finish(struct tr_reader *r)
{
	rcuvet_signal(&r->released);
	wait_for_completion(&r->done);
	if (r->preempter)
		wait_for_completion(&r->preempter_done);
	put_task_struct(r->task);
}

static void tr_cb(struct rcu_head *rh)
{
	struct tr_cb *cb = container_of(rh, struct tr_cb, rh);

	cb->saw_left = READ_ONCE(cb->r->left);
	WRITE_ONCE(cb->ran, true);
}

static void tr_cb_init(struct tr_cb *cb, struct tr_reader *r)
{
	init_rcu_head_on_stack(&cb->rh);
	cb->r = r;
	cb->ran = false;
	cb->saw_left = false;
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

/* Run @sync while a reader of @kind is inside, judge it, retry. */
static void tr_waits_for_reader(struct kunit *test, enum tr_kind kind, bool preempter,
				void (*sync)(void), const char *what)
{
	enum rcuvet_gpw_verdict v;
	struct tr_reader r;
	unsigned int i, try;
	bool left;

	for (i = 0; i < reps; i++) {
		for (try = 1; ; try++) {
			tr_start(test, &r, kind, preempter, false);
			sync();
			left = READ_ONCE(r.left);
			tr_finish(&r);
			v = rcuvet_gpw_judge(test, &r.w, left, i, try, what, RCUVET_GPW_RETURNED);
			if (v != RCUVET_GPW_INCONCLUSIVE)
				break;
		}
		if (preempter && the_mutant == M_NONE) {
			kunit_info(test, "rep %u: reader preempted %lu times during the grace period\n",
				   i, r.preemptions);
			KUNIT_EXPECT_GT_MSG(test, r.preemptions, 0,
					    "rep %u: the reader was never switched out inside", i);
		}
		if (v == RCUVET_GPW_FAIL)
			break;
	}
}

/*
 * synchronize_rcu_tasks() waits for a task that is running in the kernel
 * until it switches voluntarily; neither cond_resched() nor preemption
 * ends its section.
 */
static void synchronize_rcu_tasks_waits_for_voluntary_switch(struct kunit *test)
{
	rcuvet_covers(test, "synchronize_rcu_tasks");
	tr_waits_for_reader(test, K_TASKS, true, synchronize_rcu_tasks,
			    "synchronize_rcu_tasks()");
}

/*
 * 6.12 builds RCU Tasks on non-preemptible kernels too (when selected):
 * synchronize_rcu() does not wait for a task that loops in the kernel
 * through cond_resched(), synchronize_rcu_tasks() does.
 */
static void synchronize_rcu_tasks_is_not_synchronize_rcu(struct kunit *test)
{
	enum rcuvet_gpw_verdict v;
	bool left_rcu, left_tasks;
	struct tr_reader r;
	unsigned int i, try;

	rcuvet_covers(test, "synchronize_rcu_tasks synchronize_rcu");
	for (i = 0; i < reps; i++) {
		for (try = 1; ; try++) {
			tr_start(test, &r, K_TASKS_RCU, false, false);
			synchronize_rcu();
			left_rcu = READ_ONCE(r.left);
			rcuvet_gpw_arm(&r.w);	/* for synchronize_rcu_tasks() */
			WRITE_ONCE(r.rcu_returned, true);
			synchronize_rcu_tasks();
			left_tasks = READ_ONCE(r.left);
			tr_finish(&r);
			KUNIT_EXPECT_FALSE_MSG(test, left_rcu,
					       "rep %u: synchronize_rcu() waited for a task looping in the kernel",
					       i);
			v = rcuvet_gpw_judge(test, &r.w, left_tasks, i, try,
					     "synchronize_rcu_tasks()", RCUVET_GPW_RETURNED);
			if (v != RCUVET_GPW_INCONCLUSIVE)
				break;
		}
		if (v == RCUVET_GPW_FAIL || left_rcu)
			break;
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

/* Move the test to @cpu (callbacks and barriers issued from there). */
RCUVET_DEFINE_BARRIER_CPU_PARAM();

/*
 * One callback queued from each CPU while a reader of @kind is inside,
 * then @barrier_fn on the CPU the parameter names: both callbacks must have
 * run, each after the reader left.
 */
static void tr_callbacks(struct kunit *test, enum tr_kind kind,
			 void (*call)(struct rcu_head *rh, rcu_callback_t fn),
			 void (*barrier_fn)(void), const char *what)
{
	int bcpu = *(const int *)test->param_value;
	enum rcuvet_gpw_verdict v;
	struct tr_reader r;
	unsigned int i, try;
	struct tr_cb cb[2];
	bool ran;

	for (i = 0; i < reps; i++) {
		for (try = 1; ; try++) {
			tr_cb_init(&cb[0], &r);
			tr_cb_init(&cb[1], &r);
			tr_start(test, &r, kind, false, true);
			call(&cb[0].rh, tr_cb);
			rcuvet_move_to(test, RCUVET_READER_CPU);
			call(&cb[1].rh, tr_cb);
			rcuvet_move_to(test, bcpu);
			if (the_mutant != M_NO_BARRIER)
				barrier_fn();
			ran = READ_ONCE(cb[0].ran) && READ_ONCE(cb[1].ran);
			rcuvet_move_to(test, RCUVET_UPDATER_CPU);
			tr_finish(&r);
			barrier_fn();	/* cb[] dies with this frame */
			destroy_rcu_head_on_stack(&cb[0].rh);
			destroy_rcu_head_on_stack(&cb[1].rh);
			KUNIT_EXPECT_TRUE_MSG(test, ran,
					      "rep %u: the barrier on CPU %d returned before the callbacks ran (CPU 0's %d, CPU 1's %d)",
					      i, bcpu, cb[0].ran, cb[1].ran);
			v = rcuvet_gpw_judge(test, &r.w, cb[0].saw_left && cb[1].saw_left, i, try,
					     what, RCUVET_GPW_RAN);
			if (v != RCUVET_GPW_INCONCLUSIVE)
				break;
		}
		if (v == RCUVET_GPW_FAIL || !ran)
			break;
	}
}

/* call_rcu_tasks() callbacks run after the task switched voluntarily. */
static void call_rcu_tasks_runs_after_voluntary_switch(struct kunit *test)
{
	rcuvet_covers(test, "call_rcu_tasks rcu_barrier_tasks");
	tr_callbacks(test, K_TASKS, call_rcu_tasks, rcu_barrier_tasks,
		     "a call_rcu_tasks() callback");
}

/* synchronize_rcu_tasks_rude() waits for a preempt-disabled region. */
static void synchronize_rcu_tasks_rude_waits_for_preempt_disabled(struct kunit *test)
{
	rcuvet_covers(test, "synchronize_rcu_tasks_rude");
	tr_waits_for_reader(test, K_RUDE, false, synchronize_rcu_tasks_rude,
			    "synchronize_rcu_tasks_rude()");
}

/*
 * call_rcu_tasks_rude() callbacks run after a preempt-disabled reader left,
 * and rcu_barrier_tasks_rude() waits for them: only on a tree that still
 * has both (6.1; 6.12 made the first static and removed the second, and
 * the case is then not in the suite).  While the reader is inside, its
 * CPU runs nothing else: the callback queued from CPU 1 is queued once it
 * left, and only CPU 0's is queued while it is inside.
 */
static void __maybe_unused call_rcu_tasks_rude_runs_after_preempt_disabled(struct kunit *test)
{
	rcuvet_need(test, CALL_RCU_TASKS_RUDE, "call_rcu_tasks_rude()");
	rcuvet_covers(test, "call_rcu_tasks_rude rcu_barrier_tasks_rude");
	tr_callbacks(test, K_RUDE, call_rcu_tasks_rude, rcu_barrier_tasks_rude,
		     "a call_rcu_tasks_rude() callback");
}

/*
 * 6.12: synchronize_rcu_tasks_rude() is exported, call_rcu_tasks_rude() is
 * static and rcu_barrier_tasks_rude() is gone.  The lookup that finds the
 * first (and the other flavors' call_rcu) must find neither of the others;
 * on a tree that still declares them (6.1), it must find them too.  This
 * checks the API's shape, not a grace period: it covers nothing.
 */
static void rude_api_is_synchronize_only(struct kunit *test)
{
	static const char *const always[] = {
		"synchronize_rcu_tasks_rude", "call_rcu_tasks",
		"rcu_barrier_tasks", "call_rcu_tasks_trace",
	};
	static const char *const rude[] = {
		"call_rcu_tasks_rude", "rcu_barrier_tasks_rude",
	};
	const bool declared = RCUVET_HAVE_CALL_RCU_TASKS_RUDE;
	unsigned int i;
	void *sym;

	for (i = 0; i < ARRAY_SIZE(always); i++) {
		sym = __symbol_get(always[i]);
		KUNIT_EXPECT_NOT_NULL_MSG(test, sym, "%s is not exported", always[i]);
		if (sym)
			__symbol_put(always[i]);
	}
	for (i = 0; i < ARRAY_SIZE(rude); i++) {
		sym = __symbol_get(rude[i]);
		KUNIT_EXPECT_EQ_MSG(test, !!sym, declared,
				    "the tree %s %s, but its kernel %s it",
				    declared ? "declares" : "does not declare", rude[i],
				    sym ? "exports" : "does not export");
		if (sym)
			__symbol_put(rude[i]);
	}
}

static bool tr_lockdep_on(void)
{
	return IS_ENABLED(CONFIG_DEBUG_LOCK_ALLOC) && debug_locks;
}

/* synchronize_rcu_tasks_trace() waits for a reader that sleeps inside. */
static void synchronize_rcu_tasks_trace_waits_for_sleeping_reader(struct kunit *test)
{
	enum rcuvet_gpw_verdict v;
	bool left, held_here;
	struct tr_reader r;
	unsigned int i, try;

	rcuvet_covers(test,
		      "rcu_read_lock_trace rcu_read_unlock_trace synchronize_rcu_tasks_trace rcu_read_lock_trace_held");
	for (i = 0; i < reps; i++) {
		for (try = 1; ; try++) {
			tr_start(test, &r, K_TRACE, false, false);
			held_here = rcu_read_lock_trace_held();
			synchronize_rcu_tasks_trace();
			left = READ_ONCE(r.left);
			tr_finish(&r);
			v = rcuvet_gpw_judge(test, &r.w, left, i, try,
					     "synchronize_rcu_tasks_trace()", RCUVET_GPW_RETURNED);
			if (v != RCUVET_GPW_INCONCLUSIVE)
				break;
		}
		if (tr_lockdep_on()) {
			KUNIT_EXPECT_TRUE_MSG(test, r.held,
					      "rep %u: rcu_read_lock_trace_held() false in the reader",
					      i);
			KUNIT_EXPECT_FALSE_MSG(test, held_here,
					       "rep %u: rcu_read_lock_trace_held() true in the updater",
					       i);
		}
		if (v == RCUVET_GPW_FAIL)
			break;
	}
}

/* call_rcu_tasks_trace() callbacks run after the reader left. */
static void call_rcu_tasks_trace_runs_after_reader(struct kunit *test)
{
	rcuvet_covers(test,
		      "call_rcu_tasks_trace rcu_barrier_tasks_trace rcu_read_lock_trace rcu_read_unlock_trace");
	tr_callbacks(test, K_TRACE, call_rcu_tasks_trace, rcu_barrier_tasks_trace,
		     "a call_rcu_tasks_trace() callback");
}

/* Wait (at most wait_ms) until the Tasks Trace grace period marked @t a reader. */
static bool tr_marked_reader(struct task_struct *t)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(wait_ms);

	while (!(READ_ONCE(t->trc_reader_special.b.need_qs) & TRC_NEED_QS)) {
		if (time_after(jiffies, deadline))
			return false;
		schedule_timeout_uninterruptible(1);
	}
	return true;
}

/*
 * A Tasks Trace grace period is in progress, held up by reader r1, and
 * has already inspected r1 (marked it TRC_NEED_QS), so it is past the scan
 * that finds its readers; r2 enters after that, so that grace period does
 * not wait for it, and a callback is queued.  The callback needs the next
 * grace period, which waits for r2: it must not run once the current one
 * ends, while r2 is still inside.
 */
static void call_rcu_tasks_trace_mid_grace_period_waits_for_new_reader(struct kunit *test)
{
	bool ran, marked, gp1_running;
	struct tr_reader r1, r2;
	enum rcuvet_gpw_verdict v;
	unsigned int i, try;
	struct tr_cb cb[2];

	rcuvet_covers(test, "call_rcu_tasks_trace rcu_barrier_tasks_trace");
	for (i = 0; i < reps; i++) {
		for (try = 1; ; try++) {
			tr_cb_init(&cb[0], &r1);
			tr_cb_init(&cb[1], &r2);
			tr_start(test, &r1, K_TRACE, false, true);
			call_rcu_tasks_trace(&cb[0].rh, tr_cb);
			marked = the_mutant != M_NONE || tr_marked_reader(r1.task);
			tr_start(test, &r2, K_TRACE, false, true);
			call_rcu_tasks_trace(&cb[1].rh, tr_cb);
			gp1_running = tr_gp_running(&r1);
			if (the_mutant != M_NO_BARRIER)
				rcu_barrier_tasks_trace();
			ran = READ_ONCE(cb[0].ran) && READ_ONCE(cb[1].ran);
			tr_finish(&r1);
			tr_finish(&r2);
			rcu_barrier_tasks_trace();	/* cb[] dies with this frame */
			destroy_rcu_head_on_stack(&cb[0].rh);
			destroy_rcu_head_on_stack(&cb[1].rh);
			KUNIT_EXPECT_TRUE_MSG(test, ran,
					      "rep %u: rcu_barrier_tasks_trace() returned before the callbacks ran",
					      i);
			if (!marked || !gp1_running)
				r2.w.witnessed = false;	/* r2 did not enter mid-GP: retry */
			v = rcuvet_gpw_judge(test, &r2.w, cb[1].saw_left, i, try,
					     "a call_rcu_tasks_trace() callback queued mid-grace-period",
					     RCUVET_GPW_RAN);
			if (v != RCUVET_GPW_INCONCLUSIVE)
				break;
		}
		if (v == RCUVET_GPW_FAIL || !ran)
			break;
	}
}

/* rcu_read_lock_trace_held() follows the (nested) section of this task. */
static void rcu_read_lock_trace_held_tracks_nesting(struct kunit *test)
{
	rcuvet_covers(test, "rcu_read_lock_trace_held rcu_read_lock_trace rcu_read_unlock_trace");
	if (!tr_lockdep_on())
		rcuvet_skip(test, "rcu_read_lock_trace_held() needs lockdep on");
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
	KUNIT_CASE_PARAM_ATTR(call_rcu_tasks_runs_after_voluntary_switch, barrier_cpu_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE_SLOW(synchronize_rcu_tasks_rude_waits_for_preempt_disabled),
#if RCUVET_HAVE_CALL_RCU_TASKS_RUDE
	KUNIT_CASE_PARAM_ATTR(call_rcu_tasks_rude_runs_after_preempt_disabled,
			      barrier_cpu_gen_params, { .speed = KUNIT_SPEED_SLOW }),
#endif
	KUNIT_CASE(rude_api_is_synchronize_only),
	KUNIT_CASE_SLOW(synchronize_rcu_tasks_trace_waits_for_sleeping_reader),
	KUNIT_CASE_PARAM_ATTR(call_rcu_tasks_trace_runs_after_reader, barrier_cpu_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE_SLOW(call_rcu_tasks_trace_mid_grace_period_waits_for_new_reader),
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
