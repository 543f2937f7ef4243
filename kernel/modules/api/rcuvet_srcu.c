// SPDX-License-Identifier: GPL-2.0
/*
 * rcuvet_srcu: the SRCU column of the RCU API table, member by member.
 *
 * SRCU readers may sleep, and each srcu_struct is its own domain: a
 * grace period of one srcu_struct waits only for the readers of that
 * srcu_struct.  The waits-for-reader cases follow rcuvet_smoke: a reader
 * kthread on RCUVET_READER_CPU enters its section, says "inside", sleeps
 * and publishes "left" as the last thing inside its section; the test, on
 * RCUVET_UPDATER_CPU, waits for "inside", runs the update-side primitive
 * and checks "left" the instant it returns.  The reader does not sleep for
 * a fixed time: it stays inside until it has seen, in ->srcu_gp_seq, a
 * grace period that began after it entered in progress, and hold_ms more
 * (rcuvet_gpw.h); a pair without that evidence is retried, then fails.
 *
 * Barriers: call_srcu_runs_after_reader queues callbacks from both CPUs
 * and runs srcu_barrier() on each of them in turn (its parameter), so that
 * a barrier that waits only for the callbacks of its own CPU's srcu_data
 * (or, for an srcu_struct still SRCU_SIZE_SMALL, of the boot CPU's) fails.
 *
 * long_ms bounds waits that a correct kernel ends much sooner (a cookie
 * that should complete, a reader that never sees its grace period).  It
 * is a minute: only a broken kernel reaches it, and a slow TCG host,
 * which stretches a grace period to a few hundred milliseconds at most,
 * must never; readers that only wait for the updater have no bound.
 *
 * Members the 2019 article names that 6.12 no longer has:
 * cleanup_srcu_struct_quiesced() was removed in v5.1 (there is nothing to
 * call); its checks now live in cleanup_srcu_struct(), which refuses (with
 * a WARN) to free an srcu_struct that still has readers, and
 * cleanup_srcu_struct_refuses_active_reader checks that.
 *
 * Members an older tree lacks (6.1: srcu_read_lock_nmisafe(),
 * srcu_down_read(), get_completed_synchronize_srcu()) skip their cases,
 * named (rcuvet_tree.h).
 *
 * Negative controls, mutant=NAME (configs/plans/ctl-srcu-*.plan):
 *   wrong_struct  the updater waits on (polls, barriers on, asks
 *                 srcu_read_lock_held() about) another srcu_struct than
 *                 the reader's; in the isolation case it waits on the
 *                 reader's struct B instead of A;
 *   early_exit    every reader leaves its section right after "inside",
 *                 before it publishes "left";
 *   bad_cond      srcu_dereference_check() outside a reader names a mutex
 *                 that is not held: an unannounced lockdep splat;
 *   no_mb         the store-buffering reader reads before its
 *                 srcu_read_unlock() + smp_mb__after_srcu_read_unlock().
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/srcu.h>
#include "rcuvet.h"
#include "rcuvet_gpw.h"
#include "rcuvet_tree.h"

static char *mutant = "";
module_param(mutant, charp, 0444);
MODULE_PARM_DESC(mutant, "Negative control: wrong_struct, early_exit, bad_cond, no_mb");

static unsigned int hold_ms = 200;
module_param(hold_ms, uint, 0444);
MODULE_PARM_DESC(hold_ms,
		 "How long a reader stays inside once it saw the grace period in progress");

static unsigned int long_ms = 60000;
module_param(long_ms, uint, 0444);
MODULE_PARM_DESC(long_ms, "Upper bound on waits that should end much sooner");

static unsigned int reps = 3;
module_param(reps, uint, 0444);
MODULE_PARM_DESC(reps, "Repetitions of each waits-for-reader case");

static unsigned int litmus_windows = 10000;
module_param(litmus_windows, uint, 0444);
MODULE_PARM_DESC(litmus_windows,
		 "Store-buffering iterations with both sides in the window that a pass needs");

static unsigned int litmus_max_ms = 60000;
module_param(litmus_max_ms, uint, 0444);
MODULE_PARM_DESC(litmus_max_ms,
		 "Time after which a litmus that saw too few windows fails as inconclusive");

static bool is_mutant(const char *name)
{
	return !strcmp(mutant, name);
}

/* A (DEFINE_SRCU) is the main domain, B and nmi are private to this file. */
DEFINE_SRCU(rcuvet_srcu_a);
DEFINE_STATIC_SRCU(rcuvet_srcu_b);
DEFINE_STATIC_SRCU(rcuvet_srcu_nmi);	/* only ever used by _nmisafe readers */

/*
 * The srcu_struct the updater uses for a reader of @ssp: @ssp itself, or
 * another one under mutant=wrong_struct.
 */
static struct srcu_struct *upd(struct srcu_struct *ssp)
{
	if (!is_mutant("wrong_struct"))
		return ssp;
	return ssp == &rcuvet_srcu_b ? &rcuvet_srcu_a : &rcuvet_srcu_b;
}

/*
 * Under mutant=wrong_struct the updater may wait on the very srcu_struct
 * a reader holds until the updater releases it (the isolation case waits
 * on B instead of A): such a reader leaves after SRDR_MUTANT_MS instead,
 * so that the wrong wait returns and the case fails instead of hanging.
 * Only the control takes this path; a correct run has no bound here.
 */
#define SRDR_MUTANT_MS	1000

static void srdr_mutant_wait(struct completion *c)
{
	wait_for_completion_timeout(c, msecs_to_jiffies(SRDR_MUTANT_MS));
}

struct srcu_obj {
	int val;
};

#define SRCU_OBJ_VAL 0x5c0

static struct srcu_obj srcu_target = { .val = SRCU_OBJ_VAL };
static struct srcu_obj __rcu *srcu_gp = RCU_INITIALIZER(&srcu_target);

enum srdr_kind { SRDR_LOCK, SRDR_NOTRACE, SRDR_NMISAFE };

/* One reader kthread and what it saw. */
struct srdr {
	struct srcu_struct *ssp;
	enum srdr_kind kind;
	bool until_release;	/* hold until ->release, however long */
	struct completion inside, release, done;
	struct rcuvet_gpw w;	/* of the srcu_struct the updater uses */
	int idx;
	bool held;
	int seen;
	bool left;
};

static void srdr_unlock(struct srdr *r, int idx)
{
	switch (r->kind) {
	case SRDR_NOTRACE:
		srcu_read_unlock_notrace(r->ssp, idx);
		break;
	case SRDR_NMISAFE:
		srcu_read_unlock_nmisafe(r->ssp, idx);
		break;
	default:
		srcu_read_unlock(r->ssp, idx);
	}
}

static int srdr_fn(void *arg)
{
	struct srdr *r = arg;
	struct srcu_obj *p;
	int idx;

	switch (r->kind) {
	case SRDR_NOTRACE:
		idx = srcu_read_lock_notrace(r->ssp);
		p = srcu_dereference_notrace(srcu_gp, r->ssp);
		break;
	case SRDR_NMISAFE:
		idx = srcu_read_lock_nmisafe(r->ssp);
		p = srcu_dereference(srcu_gp, r->ssp);
		break;
	default:
		idx = srcu_read_lock(r->ssp);
		p = srcu_dereference(srcu_gp, r->ssp);
		/* SRCU readers may sleep: no complaint here. */
		rcu_sleep_check();
	}
	r->idx = idx;
	r->held = srcu_read_lock_held(r->ssp);
	r->seen = p->val;
	complete(&r->inside);
	if (is_mutant("early_exit"))
		srdr_unlock(r, idx);
	if (is_mutant("wrong_struct"))
		srdr_mutant_wait(&r->release);
	else if (r->until_release || is_mutant("early_exit"))
		wait_for_completion(&r->release);	/* the updater has looked */
	else
		while (!rcuvet_gpw_may_leave(&r->w, completion_done(&r->release)))
			usleep_range(1000, 2000);
	WRITE_ONCE(r->left, true);
	if (!is_mutant("early_exit"))
		srdr_unlock(r, idx);
	kthread_complete_and_exit(&r->done, 0);
}

static unsigned long srcu_seq(void *ssp)
{
	return rcuvet_srcu_gp_seq((struct srcu_struct *)ssp);
}

/*
 * Start a reader of @ssp on the reader CPU, wait until it is inside and
 * arm its witness: the caller runs the primitive next.
 */
static void srdr_start(struct kunit *test, struct srdr *r, struct srcu_struct *ssp,
		       enum srdr_kind kind, bool until_release)
{
	struct task_struct *t;

	r->ssp = ssp;
	r->kind = kind;
	r->until_release = until_release;
	rcuvet_gpw_init(&r->w, srcu_seq, upd(ssp), hold_ms, long_ms);
	init_completion(&r->inside);
	init_completion(&r->release);
	init_completion(&r->done);
	r->idx = -1;
	r->held = false;
	r->seen = 0;
	r->left = false;
	t = kthread_run_on_cpu(srdr_fn, r, RCUVET_READER_CPU, "rcuvet_srcu/%u");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	wait_for_completion(&r->inside);
	rcuvet_gpw_arm(&r->w);
}

/*
 * Let a reader that holds for a time go once the updater has read "left":
 * under a mutant it holds until then, so that the updater finds "left"
 * clear however slow the host (rcuvet.h); then wait until it is done.
 */
static void srdr_finish(struct srdr *r)
{
	complete(&r->release);
	wait_for_completion(&r->done);
}

/* What every reader must have seen inside, checked after it is done. */
static void srdr_check_inside(struct kunit *test, struct srdr *r)
{
	KUNIT_EXPECT_TRUE(test, r->idx == 0 || r->idx == 1);
	KUNIT_EXPECT_EQ_MSG(test, r->seen, SRCU_OBJ_VAL,
			    "srcu_dereference() inside the reader");
	/* lockdep sees srcu_read_lock*() readers, never the _notrace one. */
	KUNIT_EXPECT_EQ_MSG(test, r->held, r->kind != SRDR_NOTRACE,
			    "srcu_read_lock_held() inside a kind %d reader", r->kind);
}

static int srcu_test_init(struct kunit *test)
{
	rcuvet_pin_updater(test);
	return 0;
}

/*
 * @sync on upd(@ssp) while a reader of @ssp sleeps inside: the reader
 * must have left when @sync returns.
 */
static void waits_for_reader(struct kunit *test, struct srcu_struct *ssp,
			     enum srdr_kind kind,
			     void (*sync)(struct srcu_struct *ssp), const char *what)
{
	enum rcuvet_gpw_verdict v;
	unsigned int i, try;
	struct srdr r;
	bool left;

	for (i = 0; i < reps; i++) {
		for (try = 1; ; try++) {
			srdr_start(test, &r, ssp, kind, false);
			sync(upd(ssp));
			left = READ_ONCE(r.left);
			srdr_finish(&r);
			srdr_check_inside(test, &r);
			v = rcuvet_gpw_judge(test, &r.w, left, i, try, what, RCUVET_GPW_RETURNED);
			if (v != RCUVET_GPW_INCONCLUSIVE)
				break;
		}
		if (v == RCUVET_GPW_FAIL)
			break;
	}
}

struct kind_param {
	const char *name;
	const char *covers;
};

static const struct kind_param kind_params[] = {
	{ "DEFINE_SRCU",
	  "DEFINE_SRCU srcu_read_lock srcu_read_unlock synchronize_srcu rcu_sleep_check" },
	{ "DEFINE_STATIC_SRCU",
	  "DEFINE_STATIC_SRCU srcu_read_lock srcu_read_unlock synchronize_srcu" },
	{ "init_srcu_struct",
	  "init_srcu_struct cleanup_srcu_struct srcu_read_lock srcu_read_unlock synchronize_srcu" },
};

static void kind_param_desc(const struct kind_param *p, char *desc)
{
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(kind, kind_params, kind_param_desc);

/*
 * synchronize_srcu() waits for a reader that sleeps inside srcu_read_lock(),
 * for each way of getting an srcu_struct: DEFINE_SRCU(),
 * DEFINE_STATIC_SRCU(), and a kmalloc()ed one set up by init_srcu_struct(),
 * used, then released by cleanup_srcu_struct().
 */
static void synchronize_srcu_waits_for_sleeping_reader(struct kunit *test)
{
	const struct kind_param *p = test->param_value;
	struct srcu_struct *ssp;

	rcuvet_covers(test, p->covers);
	rcuvet_covers(test, "srcu_dereference srcu_read_lock_held");
	if (!strcmp(p->name, "DEFINE_SRCU")) {
		waits_for_reader(test, &rcuvet_srcu_a, SRDR_LOCK, synchronize_srcu,
				 "synchronize_srcu()");
		return;
	}
	if (!strcmp(p->name, "DEFINE_STATIC_SRCU")) {
		waits_for_reader(test, &rcuvet_srcu_b, SRDR_LOCK, synchronize_srcu,
				 "synchronize_srcu()");
		return;
	}
	ssp = kzalloc(sizeof(*ssp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ssp);
	if (init_srcu_struct(ssp)) {
		kfree(ssp);
		KUNIT_FAIL(test, "init_srcu_struct() failed");
		return;
	}
	waits_for_reader(test, ssp, SRDR_LOCK, synchronize_srcu, "synchronize_srcu()");
	cleanup_srcu_struct(ssp);
	/* It was idle, so cleanup_srcu_struct() freed what init allocated. */
	KUNIT_EXPECT_NULL(test, rcuvet_srcu_alloc(ssp));
	KUNIT_EXPECT_NULL(test, ssp->sda);
	kfree(ssp);
}

static void synchronize_srcu_expedited_waits_for_reader(struct kunit *test)
{
	rcuvet_covers(test, "synchronize_srcu_expedited srcu_read_lock srcu_read_unlock");
	waits_for_reader(test, &rcuvet_srcu_a, SRDR_LOCK, synchronize_srcu_expedited,
			 "synchronize_srcu_expedited()");
}

static void synchronize_srcu_waits_for_nmisafe_reader(struct kunit *test)
{
	rcuvet_need(test, SRCU_NMISAFE, "srcu_read_lock_nmisafe()");
	rcuvet_covers(test, "srcu_read_lock_nmisafe srcu_read_unlock_nmisafe synchronize_srcu");
	waits_for_reader(test, &rcuvet_srcu_nmi, SRDR_NMISAFE, synchronize_srcu,
			 "synchronize_srcu()");
}

/*
 * A _notrace reader is invisible to lockdep (srcu_read_lock_held() says
 * false inside), which is why srcu_dereference_notrace() does not check;
 * synchronize_srcu() still waits for it.
 */
static void synchronize_srcu_waits_for_notrace_reader(struct kunit *test)
{
	rcuvet_covers(test, "srcu_read_lock_notrace srcu_read_unlock_notrace");
	rcuvet_covers(test, "srcu_dereference_notrace synchronize_srcu");
	waits_for_reader(test, &rcuvet_srcu_a, SRDR_NOTRACE, synchronize_srcu,
			 "synchronize_srcu()");
}

/*
 * The reason SRCU has srcu_structs: synchronize_srcu(&A) waits for A's
 * reader and returns while B's reader, which entered first and stays until
 * told, however long that takes, is still inside.
 */
static void synchronize_srcu_ignores_other_srcu_struct(struct kunit *test)
{
	enum rcuvet_gpw_verdict v;
	unsigned int i, try;
	bool a_left, b_left;
	struct srdr ra, rb;

	rcuvet_covers(test, "synchronize_srcu srcu_read_lock srcu_read_unlock");
	rcuvet_covers(test, "DEFINE_SRCU DEFINE_STATIC_SRCU");
	for (i = 0; i < reps; i++) {
		for (try = 1; ; try++) {
			srdr_start(test, &rb, &rcuvet_srcu_b, SRDR_LOCK, true);
			srdr_start(test, &ra, &rcuvet_srcu_a, SRDR_LOCK, false);
			synchronize_srcu(is_mutant("wrong_struct") ? &rcuvet_srcu_b
								   : &rcuvet_srcu_a);
			a_left = READ_ONCE(ra.left);
			b_left = READ_ONCE(rb.left);
			srdr_finish(&rb);
			srdr_finish(&ra);
			srdr_check_inside(test, &ra);
			srdr_check_inside(test, &rb);
			KUNIT_EXPECT_FALSE_MSG(test, b_left,
					       "rep %u: synchronize_srcu(&A) waited for B's reader",
					       i);
			v = rcuvet_gpw_judge(test, &ra.w, a_left, i, try, "synchronize_srcu(&A)",
					     RCUVET_GPW_RETURNED);
			if (v != RCUVET_GPW_INCONCLUSIVE)
				break;
		}
		if (v == RCUVET_GPW_FAIL || b_left)
			break;
	}
}

struct srcu_cb {
	struct rcu_head rh;
	struct srdr *r;
	bool ran, saw_left;
};

static void srcu_cb_fn(struct rcu_head *rh)
{
	struct srcu_cb *cb = container_of(rh, struct srcu_cb, rh);

	cb->saw_left = READ_ONCE(cb->r->left);
	WRITE_ONCE(cb->ran, true);
}

static void srcu_cb_init(struct srcu_cb *cb, struct srdr *r)
{
	init_rcu_head_on_stack(&cb->rh);
	cb->r = r;
	cb->ran = false;
	cb->saw_left = false;
}

/* Move the test to @cpu (callbacks and barriers issued from there). */
RCUVET_DEFINE_BARRIER_CPU_PARAM();

/*
 * call_srcu() invokes its callbacks after the reader that was inside left;
 * srcu_barrier() returns only after they ran.  One callback is queued from
 * each CPU, and srcu_barrier() runs on the CPU the parameter names
 * (mutant=wrong_struct waits on the wrong srcu_struct's callbacks).
 */
static void call_srcu_runs_after_reader(struct kunit *test)
{
	int bcpu = *(const int *)test->param_value;
	enum rcuvet_gpw_verdict v;
	struct srcu_cb cb[2];
	unsigned int i, try;
	bool ran, left;
	struct srdr r;

	rcuvet_covers(test, "call_srcu srcu_barrier srcu_read_lock srcu_read_unlock");
	for (i = 0; i < reps; i++) {
		for (try = 1; ; try++) {
			srcu_cb_init(&cb[0], &r);
			srcu_cb_init(&cb[1], &r);
			srdr_start(test, &r, &rcuvet_srcu_a, SRDR_LOCK, false);
			call_srcu(&rcuvet_srcu_a, &cb[0].rh, srcu_cb_fn);
			rcuvet_move_to(test, RCUVET_READER_CPU);
			call_srcu(&rcuvet_srcu_a, &cb[1].rh, srcu_cb_fn);
			rcuvet_move_to(test, bcpu);
			srcu_barrier(upd(&rcuvet_srcu_a));
			ran = READ_ONCE(cb[0].ran) && READ_ONCE(cb[1].ran);
			rcuvet_move_to(test, RCUVET_UPDATER_CPU);
			complete(&r.release);
			srcu_barrier(&rcuvet_srcu_a);	/* whatever the mutant did */
			wait_for_completion(&r.done);
			destroy_rcu_head_on_stack(&cb[0].rh);
			destroy_rcu_head_on_stack(&cb[1].rh);
			srdr_check_inside(test, &r);
			KUNIT_EXPECT_TRUE_MSG(test, ran,
					      "rep %u: srcu_barrier() on CPU %d returned before the callbacks ran (CPU 0's %d, CPU 1's %d)",
					      i, bcpu, cb[0].ran, cb[1].ran);
			left = cb[0].saw_left && cb[1].saw_left;
			v = rcuvet_gpw_judge(test, &r.w, left, i, try, "a call_srcu() callback",
					     RCUVET_GPW_RAN);
			if (v != RCUVET_GPW_INCONCLUSIVE)
				break;
		}
		if (v == RCUVET_GPW_FAIL || !ran)
			break;
	}
}

/*
 * Wait until a new reader of @ssp gets another index than @idx, or
 * @cookie of upd(@ssp) completed (mutant=wrong_struct: no flip of @ssp).
 */
static int srcu_other_index(struct srcu_struct *ssp, int idx, unsigned long cookie)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(long_ms);
	int new;

	do {
		new = srcu_read_lock(ssp);
		srcu_read_unlock(ssp, new);
		if (new != idx || poll_state_synchronize_srcu(upd(ssp), cookie))
			break;
		schedule_timeout_uninterruptible(1);
	} while (!time_after(jiffies, deadline));
	return new;
}

/*
 * A grace period is in progress, already past its flip, and held up by
 * a reader r1 of the old index; r2 enters on the new index, which that
 * grace period does not wait for, and call_srcu() is called.  Its
 * callback needs the next grace period, which waits for r2: it must not
 * run when the current one ends, while r2 is still inside.
 */
static void call_srcu_mid_grace_period_waits_for_new_reader(struct kunit *test)
{
	struct srcu_struct *ssp = &rcuvet_srcu_a;
	enum rcuvet_gpw_verdict v;
	bool ran, gp1_running;
	unsigned int i, try;
	struct srdr r1, r2;
	struct srcu_cb cb;
	int idx;

	rcuvet_covers(test, "call_srcu srcu_barrier start_poll_synchronize_srcu");
	for (i = 0; i < reps; i++) {
		for (try = 1; ; try++) {
			srcu_cb_init(&cb, &r2);
			srdr_start(test, &r1, ssp, SRDR_LOCK, false);
			idx = srcu_other_index(ssp, r1.idx, start_poll_synchronize_srcu(ssp));
			srdr_start(test, &r2, ssp, SRDR_LOCK, false);
			call_srcu(upd(ssp), &cb.rh, srcu_cb_fn);
			/* The first grace period was still running at call_srcu(). */
			gp1_running = !rcuvet_seq_done(srcu_seq(ssp), r1.w.snap);
			srcu_barrier(upd(ssp));
			ran = READ_ONCE(cb.ran);
			srdr_finish(&r1);
			srdr_finish(&r2);
			srcu_barrier(ssp);	/* whatever the mutant did */
			destroy_rcu_head_on_stack(&cb.rh);
			srdr_check_inside(test, &r1);
			srdr_check_inside(test, &r2);
			KUNIT_EXPECT_TRUE_MSG(test, ran,
					      "rep %u: srcu_barrier() returned before the callback ran",
					      i);
			if (idx == r1.idx || !gp1_running)
				r2.w.witnessed = false;	/* no mid-GP reader: retry */
			v = rcuvet_gpw_judge(test, &r2.w, cb.saw_left, i, try,
					     "a call_srcu() callback queued mid-grace-period",
					     RCUVET_GPW_RAN);
			if (v != RCUVET_GPW_INCONCLUSIVE)
				break;
		}
		if (v == RCUVET_GPW_FAIL || !ran)
			break;
	}
}

/*
 * Wait (at most long_ms) for @cookie of @ssp; return whether the reader
 * had left by the time the cookie was seen complete.
 */
static bool poll_until_complete(struct kunit *test, struct srcu_struct *ssp,
				unsigned long cookie, struct srdr *r)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(long_ms);

	while (!poll_state_synchronize_srcu(ssp, cookie)) {
		if (time_after(jiffies, deadline)) {
			KUNIT_FAIL(test, "the cookie did not complete in %u ms", long_ms);
			return READ_ONCE(r->left);
		}
		schedule_timeout_uninterruptible(1);
	}
	/* poll_state_synchronize_srcu() returned true: ordered after the GP. */
	return READ_ONCE(r->left);
}

/*
 * srcu_read_lock() returns the index of the counter it incremented, which
 * a grace period flips: a reader that enters once a grace period waits for
 * the sleeping reader gets the other index, so each reader must hand its
 * own index to srcu_read_unlock(); the grace period then ends when the
 * first reader unlocks its index.
 */
static void srcu_read_lock_index_follows_grace_period(struct kunit *test)
{
	struct srcu_struct *ssp = &rcuvet_srcu_a;
	enum rcuvet_gpw_verdict v;
	unsigned long cookie;
	unsigned int i, try;
	struct srdr r;
	int idx = -1;
	bool left;

	rcuvet_covers(test, "srcu_read_lock srcu_read_unlock start_poll_synchronize_srcu");
	for (i = 0; i < reps; i++) {
		for (try = 1; ; try++) {
			srdr_start(test, &r, ssp, SRDR_LOCK, false);
			cookie = start_poll_synchronize_srcu(upd(ssp));
			idx = srcu_other_index(ssp, r.idx, cookie);
			left = poll_until_complete(test, upd(ssp), cookie, &r);
			srdr_finish(&r);
			synchronize_srcu(upd(ssp));
			srdr_check_inside(test, &r);
			v = rcuvet_gpw_judge(test, &r.w, left, i, try,
					     "start_poll_synchronize_srcu()'s cookie",
					     RCUVET_GPW_COMPLETED);
			if (v != RCUVET_GPW_INCONCLUSIVE)
				break;
		}
		KUNIT_EXPECT_NE_MSG(test, idx, r.idx,
				    "rep %u: no new reader got the other index", i);
		if (idx == r.idx || v == RCUVET_GPW_FAIL)
			break;
	}
}

/*
 * The polled API: cookies from get_state_synchronize_srcu() and
 * start_poll_synchronize_srcu() are not while a reader that was inside
 * before them is still inside, and are once it left.
 */
static void poll_state_synchronize_srcu_waits_for_reader(struct kunit *test)
{
	struct srcu_struct *ssp = &rcuvet_srcu_a;
	enum rcuvet_gpw_verdict v;
	unsigned long c_get, c_start;
	unsigned int i, try;
	bool left, get_done;
	struct srdr r;

	rcuvet_covers(test, "get_state_synchronize_srcu start_poll_synchronize_srcu");
	rcuvet_covers(test, "poll_state_synchronize_srcu");
	for (i = 0; i < reps; i++) {
		for (try = 1; ; try++) {
			srdr_start(test, &r, ssp, SRDR_LOCK, false);
			c_get = get_state_synchronize_srcu(upd(ssp));
			c_start = start_poll_synchronize_srcu(upd(ssp));
			get_done = poll_state_synchronize_srcu(upd(ssp), c_get);
			left = poll_until_complete(test, upd(ssp), c_start, &r) && !get_done;
			/* c_get is older than c_start: complete too. */
			KUNIT_EXPECT_TRUE(test, poll_state_synchronize_srcu(upd(ssp), c_get));
			srdr_finish(&r);
			synchronize_srcu(upd(ssp));
			srdr_check_inside(test, &r);
			v = rcuvet_gpw_judge(test, &r.w, left, i, try, "a polled cookie",
					     RCUVET_GPW_COMPLETED);
			if (v != RCUVET_GPW_INCONCLUSIVE)
				break;
		}
		if (v == RCUVET_GPW_FAIL)
			break;
	}
	/* A cookie taken now completes once a grace period has passed. */
	c_get = get_state_synchronize_srcu(ssp);
	synchronize_srcu(ssp);
	KUNIT_EXPECT_TRUE(test, poll_state_synchronize_srcu(ssp, c_get));
}

/*
 * get_completed_synchronize_srcu()'s cookie is complete at once, even
 * while a reader that holds every grace period is inside.
 */
static void get_completed_synchronize_srcu_is_complete(struct kunit *test)
{
	struct srcu_struct *ssp = &rcuvet_srcu_a;
	struct srdr r;
	bool done;

	rcuvet_need(test, GET_COMPLETED_SYNCHRONIZE_SRCU,
		    "get_completed_synchronize_srcu()");
	rcuvet_covers(test, "get_completed_synchronize_srcu poll_state_synchronize_srcu");
	srdr_start(test, &r, ssp, SRDR_LOCK, true);
	done = poll_state_synchronize_srcu(ssp, get_completed_synchronize_srcu());
	srdr_finish(&r);
	srdr_check_inside(test, &r);
	KUNIT_EXPECT_TRUE_MSG(test, done,
			      "get_completed_synchronize_srcu()'s cookie was not complete");
}

/* srcu_down_read() in one task, srcu_up_read() in another. */
struct srcu_sem {
	struct completion handed, down_done, up_done;
	struct completion looked;	/* the updater has read "left" */
	struct rcuvet_gpw w;
	int idx;
	pid_t down_pid, up_pid;
	bool left;
};

static int srcu_down_fn(void *arg)
{
	struct srcu_sem *s = arg;

	s->down_pid = current->pid;
	s->idx = srcu_down_read(&rcuvet_srcu_a);
	complete(&s->handed);
	kthread_complete_and_exit(&s->down_done, 0);
}

static int srcu_up_fn(void *arg)
{
	struct srcu_sem *s = arg;

	s->up_pid = current->pid;
	wait_for_completion(&s->handed);
	if (is_mutant("early_exit") || is_mutant("wrong_struct")) {
		if (is_mutant("early_exit"))
			srcu_up_read(&rcuvet_srcu_a, s->idx);
		if (is_mutant("wrong_struct"))
			srdr_mutant_wait(&s->looked);
		else
			wait_for_completion(&s->looked);
	} else {
		while (!rcuvet_gpw_may_leave(&s->w, completion_done(&s->looked)))
			usleep_range(1000, 2000);
	}
	WRITE_ONCE(s->left, true);
	if (!is_mutant("early_exit"))
		srcu_up_read(&rcuvet_srcu_a, s->idx);
	kthread_complete_and_exit(&s->up_done, 0);
}

/*
 * A kthread on the reader CPU enters with srcu_down_read() and exits; a
 * second kthread, on the updater CPU, ends that section with srcu_up_read()
 * once it saw the grace period in progress for hold_ms.
 * synchronize_srcu(), started after the first one exited, must wait for
 * the srcu_up_read().
 */
static void synchronize_srcu_waits_for_srcu_up_read(struct kunit *test)
{
	enum rcuvet_gpw_verdict v;
	struct task_struct *t;
	unsigned int i, try;
	struct srcu_sem s;
	bool left;

	rcuvet_need(test, SRCU_DOWN_READ, "srcu_down_read()");
	rcuvet_covers(test, "srcu_down_read srcu_up_read synchronize_srcu");
	for (i = 0; i < reps; i++) {
		for (try = 1; ; try++) {
			init_completion(&s.handed);
			init_completion(&s.down_done);
			init_completion(&s.up_done);
			init_completion(&s.looked);
			rcuvet_gpw_init(&s.w, srcu_seq, upd(&rcuvet_srcu_a), hold_ms, long_ms);
			s.left = false;
			s.idx = -1;
			t = kthread_run_on_cpu(srcu_down_fn, &s, RCUVET_READER_CPU,
					       "rcuvet_srcu_dn/%u");
			KUNIT_ASSERT_FALSE(test, IS_ERR(t));
			t = kthread_run_on_cpu(srcu_up_fn, &s, RCUVET_UPDATER_CPU,
					       "rcuvet_srcu_up/%u");
			if (IS_ERR(t)) {
				wait_for_completion(&s.handed);
				srcu_up_read(&rcuvet_srcu_a, s.idx);
				wait_for_completion(&s.down_done);
				KUNIT_FAIL(test, "cannot start the srcu_up_read() thread");
				return;
			}
			/* The task that entered is gone before the grace period starts. */
			wait_for_completion(&s.down_done);
			rcuvet_gpw_arm(&s.w);
			synchronize_srcu(upd(&rcuvet_srcu_a));
			left = READ_ONCE(s.left);
			complete(&s.looked);
			wait_for_completion(&s.up_done);
			KUNIT_EXPECT_TRUE(test, s.idx == 0 || s.idx == 1);
			KUNIT_EXPECT_NE(test, s.down_pid, s.up_pid);
			v = rcuvet_gpw_judge(test, &s.w, left, i, try, "synchronize_srcu()",
					     RCUVET_GPW_RETURNED);
			if (v != RCUVET_GPW_INCONCLUSIVE)
				break;
		}
		if (v == RCUVET_GPW_FAIL)
			break;
	}
}

/*
 * srcu_read_lock_held() is true inside a reader of that srcu_struct (also
 * nested), false for another srcu_struct and false outside.
 */
static void srcu_read_lock_held_inside_only(struct kunit *test)
{
	struct srcu_struct *ssp = &rcuvet_srcu_a;
	bool in, in_nested, in_other, after_inner, out_before, out_after;
	int idx, idx2;

	rcuvet_covers(test, "srcu_read_lock_held srcu_read_lock srcu_read_unlock");
	KUNIT_ASSERT_TRUE_MSG(test, debug_lockdep_rcu_enabled(),
			      "srcu_read_lock_held() needs lockdep (PROVE_RCU) on");
	out_before = srcu_read_lock_held(upd(ssp));
	idx = srcu_read_lock(ssp);
	if (is_mutant("early_exit"))
		srcu_read_unlock(ssp, idx);
	in = srcu_read_lock_held(upd(ssp));
	in_other = srcu_read_lock_held(&rcuvet_srcu_b);
	idx2 = srcu_read_lock(ssp);
	in_nested = srcu_read_lock_held(upd(ssp));
	srcu_read_unlock(ssp, idx2);
	after_inner = srcu_read_lock_held(upd(ssp));
	if (!is_mutant("early_exit"))
		srcu_read_unlock(ssp, idx);
	out_after = srcu_read_lock_held(upd(ssp));
	KUNIT_EXPECT_FALSE_MSG(test, out_before, "held before srcu_read_lock()");
	KUNIT_EXPECT_TRUE_MSG(test, in, "not held inside srcu_read_lock()");
	KUNIT_EXPECT_FALSE_MSG(test, in_other, "held for another srcu_struct");
	KUNIT_EXPECT_TRUE_MSG(test, in_nested, "not held inside a nested reader");
	KUNIT_EXPECT_TRUE_MSG(test, after_inner, "not held after the inner unlock");
	KUNIT_EXPECT_FALSE_MSG(test, out_after, "held after srcu_read_unlock()");
}

static DEFINE_MUTEX(srcu_update_mutex);
static DEFINE_MUTEX(srcu_unrelated_mutex);

/*
 * srcu_dereference_check() is legal inside a reader, or outside one when
 * its condition holds (here: the update-side mutex is held); either way it
 * returns the published pointer and lockdep stays quiet.  mutant=bad_cond
 * names a mutex that is not held: lockdep must complain, unannounced.
 */
static void srcu_dereference_check_reader_or_condition(struct kunit *test)
{
	struct srcu_obj *in, *locked;
	int idx;

	rcuvet_covers(test, "srcu_dereference_check srcu_dereference");
	idx = srcu_read_lock(&rcuvet_srcu_a);
	in = srcu_dereference_check(srcu_gp, &rcuvet_srcu_a,
				    lockdep_is_held(&srcu_update_mutex));
	KUNIT_EXPECT_PTR_EQ(test, srcu_dereference(srcu_gp, &rcuvet_srcu_a), &srcu_target);
	srcu_read_unlock(&rcuvet_srcu_a, idx);

	mutex_lock(&srcu_update_mutex);
	if (is_mutant("bad_cond"))
		locked = srcu_dereference_check(srcu_gp, &rcuvet_srcu_a,
						lockdep_is_held(&srcu_unrelated_mutex));
	else
		locked = srcu_dereference_check(srcu_gp, &rcuvet_srcu_a,
						lockdep_is_held(&srcu_update_mutex));
	mutex_unlock(&srcu_update_mutex);
	KUNIT_EXPECT_PTR_EQ(test, in, &srcu_target);
	KUNIT_EXPECT_PTR_EQ(test, locked, &srcu_target);
}

/* srcu_dereference() outside any SRCU reader: "suspicious RCU usage". */
static void srcu_dereference_outside_reader_splats(struct kunit *test)
{
	struct srcu_obj *p;

	rcuvet_covers(test, "srcu_dereference");
	KUNIT_ASSERT_TRUE_MSG(test, debug_lockdep_rcu_enabled(),
			      "the check needs lockdep (PROVE_RCU) on");
	rcuvet_expect_splat(1, "WARNING: suspicious RCU usage");
	p = srcu_dereference(srcu_gp, &rcuvet_srcu_a);
	rcuvet_end_expect();
	KUNIT_EXPECT_PTR_EQ(test, p, &srcu_target);
}

/*
 * The checks of the removed cleanup_srcu_struct_quiesced() are in 6.12's
 * cleanup_srcu_struct(): with a reader inside it WARNs and leaks the
 * srcu_struct instead of freeing it; after the reader left it frees it.
 */
static void cleanup_srcu_struct_refuses_active_reader(struct kunit *test)
{
	struct srcu_struct *ssp;
	bool refused;
	struct srdr r;

	rcuvet_covers(test, "cleanup_srcu_struct init_srcu_struct");
	ssp = kzalloc(sizeof(*ssp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ssp);
	if (init_srcu_struct(ssp)) {
		kfree(ssp);
		KUNIT_FAIL(test, "init_srcu_struct() failed");
		return;
	}
	srdr_start(test, &r, ssp, SRDR_LOCK, true);
	rcuvet_expect_splat(1, "WARNING: at kernel/rcu/srcutree.c cleanup_srcu_struct");
	cleanup_srcu_struct(ssp);
	rcuvet_end_expect();
	refused = rcuvet_srcu_alloc(ssp);
	complete(&r.release);
	wait_for_completion(&r.done);
	KUNIT_EXPECT_TRUE_MSG(test, refused,
			      "cleanup_srcu_struct() freed an srcu_struct with a reader inside");
	if (refused)
		cleanup_srcu_struct(ssp);
	KUNIT_EXPECT_NULL(test, rcuvet_srcu_alloc(ssp));
	kfree(ssp);
}

/* The store-buffering litmus of smp_mb__after_srcu_read_unlock(). */
#include "rcuvet_srcu_litmus.h"

static struct kunit_case srcu_cases[] = {
	KUNIT_CASE_PARAM_ATTR(synchronize_srcu_waits_for_sleeping_reader, kind_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE_SLOW(synchronize_srcu_ignores_other_srcu_struct),
	KUNIT_CASE_SLOW(synchronize_srcu_expedited_waits_for_reader),
	KUNIT_CASE_PARAM_ATTR(call_srcu_runs_after_reader, barrier_cpu_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE_SLOW(call_srcu_mid_grace_period_waits_for_new_reader),
	KUNIT_CASE_SLOW(srcu_read_lock_index_follows_grace_period),
	KUNIT_CASE_SLOW(poll_state_synchronize_srcu_waits_for_reader),
	KUNIT_CASE(get_completed_synchronize_srcu_is_complete),
	KUNIT_CASE_SLOW(synchronize_srcu_waits_for_nmisafe_reader),
	KUNIT_CASE_SLOW(synchronize_srcu_waits_for_srcu_up_read),
	KUNIT_CASE_SLOW(synchronize_srcu_waits_for_notrace_reader),
	KUNIT_CASE(srcu_read_lock_held_inside_only),
	KUNIT_CASE(srcu_dereference_check_reader_or_condition),
	KUNIT_CASE(srcu_dereference_outside_reader_splats),
	KUNIT_CASE(cleanup_srcu_struct_refuses_active_reader),
	KUNIT_CASE_SLOW(smp_mb__after_srcu_read_unlock_orders_store_buffering),
	{}
};

static struct kunit_suite srcu_suite = {
	.name = "rcuvet_srcu",
	.init = srcu_test_init,
	.test_cases = srcu_cases,
};
kunit_test_suite(srcu_suite);

MODULE_DESCRIPTION("rcuvet: the SRCU API family");
MODULE_LICENSE("GPL");
