/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rcuvet_gpw.h: a grace-period witness, so that a waits-for-reader pair
 * passes only if the reader was demonstrably inside while the grace
 * period it holds up was in progress, for at least a margin.
 *
 * The evidence is the flavor's grace-period sequence number (SRCU's
 * ->srcu_gp_seq, rcu_tasks*_get_gp_data(), RCU's rcu_get_gp_seq() and
 * rcu_exp_batches_completed()): the counter in its upper
 * bits, a nonzero state in its low two bits while a grace period runs.
 * Once the reader is inside, the updater arms the witness with the
 * sequence number a grace period that starts from now on will end at
 * (rcu_seq_snap(), taken before it calls the primitive); such a grace
 * period began after the reader entered, so it must wait for it.  Each
 * time the reader looks (rcuvet_gpw_may_leave(), from inside its
 * section) it reads the sequence number; it leaves only once it has
 * seen that grace period in progress and stayed inside margin_ms more,
 * and then checks that the grace period has still not ended.  It never
 * has to win a race: a correct kernel cannot end that grace period
 * while the reader is inside, whatever the host's speed.
 *
 * The verdict (rcuvet_gpw_verdict()), after the updater read "left" the
 * instant its primitive returned and the reader is done:
 *   fail          the primitive returned inside, or the grace period
 *                 ended inside (the sequence number said so);
 *   inconclusive  the reader gave up (max_ms) without having seen the
 *                 grace period in progress for the margin: the caller
 *                 retries (RCUVET_GPW_TRIES) and then fails, never
 *                 passes;
 *   pass          otherwise.
 * A grace period that wrongly ends after less than margin_ms (a kernel
 * that reports quiescent states too early) is caught: the reader is
 * still inside, by construction, when it ends.
 *
 * A tree that exports no sequence number for a flavor (6.1's Tasks
 * flavors) gives other evidence, ->started(): true, looked at from
 * inside, once a grace period that must wait for the reader is in
 * progress (it put the reader on its holdout list, say).  Nothing then
 * tells when a grace period ended: a primitive that returns, or a
 * callback that runs, while the reader is inside still fails the pair,
 * and one that ended without either is not seen.
 *
 * rcuvet_gpw_judge() is that verdict as a KUnit case uses it, one try
 * at a time: it says why a pair failed, and asks for another try while
 * an inconclusive pair has tries left.
 */
#ifndef _RCUVET_GPW_H
#define _RCUVET_GPW_H

#include <kunit/test.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/rcupdate.h>
#include <linux/types.h>

/* kernel/rcu/rcu.h's sequence-number layout, which modules cannot include */
#define RCUVET_SEQ_STATE_MASK	3UL

#define RCUVET_GPW_TRIES	3

/*
 * RCU's normal and expedited grace-period sequence numbers (tree.c),
 * whether expedited grace periods are normal ones (update.c), the Tasks
 * flavors' and their grace-period kthread (tasks.h): exported, but
 * declared only in kernel/rcu/rcu.h.
 */
unsigned long rcu_get_gp_seq(void);
unsigned long rcu_exp_batches_completed(void);
bool rcu_gp_is_normal(void);
struct task_struct *get_rcu_tasks_gp_kthread(void);
void rcu_tasks_get_gp_data(int *flags, unsigned long *gp_seq);
void rcu_tasks_rude_get_gp_data(int *flags, unsigned long *gp_seq);
void rcu_tasks_trace_get_gp_data(int *flags, unsigned long *gp_seq);

static inline unsigned long rcuvet_seq_snap(unsigned long s)
{
	return (s + 2 * RCUVET_SEQ_STATE_MASK + 1) & ~RCUVET_SEQ_STATE_MASK;
}

/* The grace period that ends at @snap (or a later one) has begun. */
static inline bool rcuvet_seq_started(unsigned long cur, unsigned long snap)
{
	return ULONG_CMP_GE(cur, snap - RCUVET_SEQ_STATE_MASK);
}

static inline bool rcuvet_seq_done(unsigned long cur, unsigned long snap)
{
	return ULONG_CMP_GE(cur, snap);
}

struct rcuvet_gpw {
	unsigned long (*seq)(void *arg);	/* the flavor's gp sequence */
	void *arg;
	bool (*started)(struct rcuvet_gpw *w);	/* without ->seq */
	/*
	 * Optional: more evidence the flavor needs before the reader may
	 * leave, asked at each look once the grace period was seen; it sets
	 * ->why (and the pair fails) if what it sees is a kernel bug.
	 */
	bool (*extra)(struct rcuvet_gpw *w);
	unsigned int margin_ms, max_ms;
	unsigned long snap;
	bool busy;				/* a grace period was in progress at arm */
	bool armed;
	unsigned long deadline;			/* jiffies */
	u64 seen_ns;				/* 0: not seen in progress yet */
	/* outcome, for the updater once the reader is done */
	bool witnessed;
	bool ended_inside;
	const char *why;			/* the reader's own objection */
};

enum rcuvet_gpw_verdict { RCUVET_GPW_PASS, RCUVET_GPW_FAIL, RCUVET_GPW_INCONCLUSIVE };

static inline void rcuvet_gpw_init(struct rcuvet_gpw *w,
				   unsigned long (*seq)(void *arg), void *arg,
				   unsigned int margin_ms, unsigned int max_ms)
{
	*w = (struct rcuvet_gpw){ .seq = seq, .arg = arg,
				  .margin_ms = margin_ms, .max_ms = max_ms };
}

/* The grace period armed for has ended (never known without ->seq). */
static inline bool rcuvet_gpw_ended(struct rcuvet_gpw *w)
{
	return w->seq && rcuvet_seq_done(w->seq(w->arg), w->snap);
}

static inline bool rcuvet_gpw_started(struct rcuvet_gpw *w)
{
	return w->seq ? rcuvet_seq_started(w->seq(w->arg), w->snap) : w->started(w);
}

/*
 * With the reader inside: the updater, right before the primitive, or
 * the reader itself as it enters (rcuvet_consol), whose snapshot then
 * names the first grace period to start after it entered.
 */
static inline void rcuvet_gpw_arm(struct rcuvet_gpw *w)
{
	unsigned long cur = w->seq ? w->seq(w->arg) : 0;

	w->busy = cur & RCUVET_SEQ_STATE_MASK;
	w->snap = w->seq ? rcuvet_seq_snap(cur) : 0;
	w->deadline = jiffies + msecs_to_jiffies(w->max_ms);
	/* Pairs with rcuvet_gpw_may_leave(): ->snap before ->armed. */
	smp_store_release(&w->armed, true);
}

/*
 * The reader, inside, at each look: may it leave now?  @released: the
 * updater's wait returned (then the reader must go, its "left" has been
 * read).  A grace period seen ending while the reader is inside keeps
 * the reader inside until then, so that the updater finds it inside.
 */
static inline bool rcuvet_gpw_may_leave(struct rcuvet_gpw *w, bool released)
{
	if (released)
		return true;
	/* Pairs with rcuvet_gpw_arm(). */
	if (!smp_load_acquire(&w->armed))
		return false;
	if (w->ended_inside || w->why)
		return time_after(jiffies, w->deadline);
	if (rcuvet_gpw_ended(w)) {
		/* It began after the reader entered: it must not end yet. */
		w->ended_inside = true;
		return false;
	}
	if (!w->seen_ns && rcuvet_gpw_started(w))
		w->seen_ns = ktime_get_ns();
	/* ->extra() looks at every look once the grace period is seen. */
	if (w->seen_ns && (!w->extra || w->extra(w)) &&
	    ktime_get_ns() - w->seen_ns >= (u64)w->margin_ms * NSEC_PER_MSEC) {
		/* The last look from inside. */
		if (rcuvet_gpw_ended(w)) {
			w->ended_inside = true;
			return false;
		}
		w->witnessed = true;
		return true;
	}
	return time_after(jiffies, w->deadline);
}

/* @left: the reader had left when the primitive returned. */
static inline enum rcuvet_gpw_verdict
rcuvet_gpw_verdict(const struct rcuvet_gpw *w, bool left)
{
	if (!left || w->ended_inside || w->why)
		return RCUVET_GPW_FAIL;
	return w->witnessed ? RCUVET_GPW_PASS : RCUVET_GPW_INCONCLUSIVE;
}

/* How the updater learns that the grace period is over. */
enum rcuvet_gpw_end {
	RCUVET_GPW_RETURNED,	/* the primitive returned */
	RCUVET_GPW_RAN,		/* the callback ran */
	RCUVET_GPW_COMPLETED,	/* the cookie completed */
};

/*
 * Judge try @try of repetition @rep of a pair and report a failure:
 * PASS, FAIL, or INCONCLUSIVE while tries are left (the caller retries).
 * @what names what waits for the grace period, as a noun
 * ("synchronize_srcu()", "a call_rcu_tasks() callback"), and @end how
 * the updater learns that it is over: the messages read "@what
 * returned/ran/completed while the reader was inside".
 */
static inline enum rcuvet_gpw_verdict
rcuvet_gpw_judge(struct kunit *test, const struct rcuvet_gpw *w, bool left,
		 unsigned int rep, unsigned int try, const char *what,
		 enum rcuvet_gpw_end end)
{
	static const char * const ended[] = {
		[RCUVET_GPW_RETURNED]	= "returned",
		[RCUVET_GPW_RAN]	= "ran",
		[RCUVET_GPW_COMPLETED]	= "completed",
	};
	enum rcuvet_gpw_verdict v = rcuvet_gpw_verdict(w, left);

	if (v == RCUVET_GPW_INCONCLUSIVE && try < RCUVET_GPW_TRIES) {
		kunit_info(test, "rep %u try %u: inconclusive, retrying\n", rep, try);
		return v;
	}
	if (!left)
		KUNIT_FAIL(test, "rep %u: %s %s while the reader was inside",
			   rep, what, ended[end]);
	else if (w->ended_inside)
		KUNIT_FAIL(test,
			   "rep %u: the grace period for %s ended while the reader was inside",
			   rep, what);
	else if (w->why)
		KUNIT_FAIL(test, "rep %u: the reader was %s", rep, w->why);
	else if (v == RCUVET_GPW_INCONCLUSIVE)
		KUNIT_FAIL(test,
			   "rep %u: inconclusive in %u tries: the reader never saw the grace period for %s in progress for %u ms",
			   rep, try, what, w->margin_ms);
	return v == RCUVET_GPW_PASS ? v : RCUVET_GPW_FAIL;
}

#endif /* _RCUVET_GPW_H */
