/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rcuvet_srcu_litmus.h: rcuvet_srcu's store-buffering litmus of
 * smp_mb__after_srcu_read_unlock(), included once by rcuvet_srcu.c after
 * its parameters (litmus_windows, litmus_max_ms), is_mutant() and
 * rcuvet_srcu_a.
 */
#ifndef _RCUVET_SRCU_LITMUS_H
#define _RCUVET_SRCU_LITMUS_H

/*
 * Store buffering.  The reader stores x inside its section and, after
 * srcu_read_unlock() + smp_mb__after_srcu_read_unlock(), loads y; the
 * updater stores y, smp_mb(), loads x.  The two full barriers forbid
 * both loads seeing 0.  mutant=no_mb loads y inside, before the unlock.
 *
 * Whether a run could have seen the reordering at all depends on the
 * host: under TCG each vCPU is a host thread, and the reordering shows
 * only while both threads run their store-then-load at the same time.
 * An iteration proves it did when the loads saw both stores (1, 1) or
 * neither (0, 0): each side's store came before the other side's load
 * completed, so the two windows overlapped.  The litmus runs until
 * litmus_windows such iterations have been seen, not for a fixed count,
 * and fails as inconclusive if litmus_max_ms passes first: a slow or
 * busy host makes it take longer, never pass without having looked.
 * Under mutant=no_mb, (0, 0) came in 4-12% of the windows, and never
 * more than 4673 windows apart (configs/plans/ctl-srcu-no-mb.plan).
 */
struct sb_litmus {
	atomic_t arrive;
	int x, y, r1;
	bool stop;
	struct completion done;
};

/*
 * Plain spins: under TCG, cpu_relax() (PAUSE) leaves the translated code,
 * which blurs the timing the litmus needs to catch the mutant.
 */
static void sb_rendezvous(atomic_t *a, int n)
{
	atomic_inc_return(a);
	while (atomic_read_acquire(a) < n)
		barrier();
}

/* Skew the two sides against each other by a varying few instructions. */
static void sb_skew(unsigned int n)
{
	while (n--)
		barrier();
}

static int sb_reader_fn(void *arg)
{
	struct sb_litmus *l = arg;
	bool no_mb = is_mutant("no_mb");
	unsigned int i;
	int idx, r1 = 0;

	for (i = 0; ; i++) {
		idx = srcu_read_lock(&rcuvet_srcu_a);
		sb_rendezvous(&l->arrive, 4 * i + 2);
		if (READ_ONCE(l->stop)) {
			srcu_read_unlock(&rcuvet_srcu_a, idx);
			break;
		}
		sb_skew(i % 32);
		WRITE_ONCE(l->x, 1);
		if (no_mb)
			r1 = READ_ONCE(l->y);
		srcu_read_unlock(&rcuvet_srcu_a, idx);
		smp_mb__after_srcu_read_unlock();
		if (!no_mb)
			r1 = READ_ONCE(l->y);
		WRITE_ONCE(l->r1, r1);
		sb_rendezvous(&l->arrive, 4 * i + 4);
	}
	kthread_complete_and_exit(&l->done, 0);
}

/* What a run of the litmus saw, iteration by iteration. */
struct sb_count {
	unsigned int iters, windows, both_zero;
	unsigned int gap, longest_gap;	/* windows since the last (0, 0) */
};

static void sb_count_one(struct sb_count *c, int r1, int r2)
{
	c->iters++;
	if (r1 != r2)
		return;		/* one side ran before the other: no window */
	c->windows++;
	if (r1) {
		c->gap++;
		c->longest_gap = max(c->longest_gap, c->gap);
	} else {
		c->both_zero++;
		c->gap = 0;
	}
}

static void smp_mb__after_srcu_read_unlock_orders_store_buffering(struct kunit *test)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(litmus_max_ms);
	u64 start = ktime_get_ns();
	struct sb_count c = {};
	struct task_struct *t;
	struct sb_litmus l = {};
	unsigned int i;
	int r2;

	rcuvet_covers(test, "smp_mb__after_srcu_read_unlock srcu_read_unlock");
	init_completion(&l.done);
	t = kthread_run_on_cpu(sb_reader_fn, &l, RCUVET_READER_CPU, "rcuvet_srcu_sb/%u");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	for (i = 0; c.windows < litmus_windows && time_before(jiffies, deadline); i++) {
		WRITE_ONCE(l.x, 0);
		WRITE_ONCE(l.y, 0);
		sb_rendezvous(&l.arrive, 4 * i + 2);
		sb_skew((i / 32) % 32);
		WRITE_ONCE(l.y, 1);
		smp_mb();	/* the updater's side of the store buffering */
		r2 = READ_ONCE(l.x);
		sb_rendezvous(&l.arrive, 4 * i + 4);
		sb_count_one(&c, READ_ONCE(l.r1), r2);
		if (!(i % 1024))
			cond_resched();
	}
	WRITE_ONCE(l.stop, true);
	sb_rendezvous(&l.arrive, 4 * i + 2);
	wait_for_completion(&l.done);
	kunit_info(test, "store buffering: %u iterations, %u windows, %u both-zero, longest run of windows without one %u, %llu ms\n",
		   c.iters, c.windows, c.both_zero, c.longest_gap,
		   div_u64(ktime_get_ns() - start, NSEC_PER_MSEC));
	KUNIT_EXPECT_EQ_MSG(test, c.both_zero, 0,
			    "both loads saw 0 in %u of %u windows", c.both_zero, c.windows);
	KUNIT_EXPECT_GE_MSG(test, c.windows, litmus_windows,
			    "inconclusive: %u of %u windows in %u ms", c.windows,
			    litmus_windows, litmus_max_ms);
}

#endif /* _RCUVET_SRCU_LITMUS_H */
