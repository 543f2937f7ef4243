// SPDX-License-Identifier: GPL-2.0
/*
 * rcuvet_consol: RCU flavor consolidation, reader kind by update primitive.
 *
 * Since v4.20 one RCU grace period waits not only for rcu_read_lock()
 * readers but for every region that disables bottom halves, preemption or
 * interrupts, and for softirq and hardirq handlers, so the vanilla update
 * primitives replace their _bh and _sched counterparts.  Each parameter of
 * waits_for_reader pairs an update primitive with a reader kind and is
 * named after both: "synchronize_rcu.local_bh_disable".  The reader,
 * pinned to RCUVET_READER_CPU, enters its kind of critical section and
 * announces that it is inside.  The updater, on RCUVET_UPDATER_CPU, then
 * records t_start and starts the primitive; the reader stays inside until
 * hold_ms after t_start, reads an object that the updater may be freeing,
 * records t_left and publishes "left" as the last thing inside.  The
 * updater reads "left" the instant the primitive says the grace period is
 * over: it must be set.  reps repetitions a pair; pairs= (globs, e.g.
 * "synchronize_rcu.*,*.local_irq_save") runs only the pairs it names.
 *
 * No pair passes vacuously: a pass needs t_left - t_start >= hold_ms, the
 * reader demonstrably inside for hold_ms while the primitive was in
 * progress.  The reader waits for t_start instead of racing the updater,
 * so only an updater that does not start within CONSOL_START_MS makes a
 * try inconclusive; such a try is repeated, and a pair still inconclusive
 * after CONSOL_TRIES tries fails.  A grace period that ended while the
 * reader was inside fails at once, however slow the host.
 *
 * The synchronize_rcu() and synchronize_rcu_expedited() pairs, the polled
 * and conditional ones (and the preempted reader's) have a grace-period
 * witness (rcuvet_gpw.h): the reader stays until it has seen the grace
 * period that must wait for it
 * (the first to start after it entered, per rcu_get_gp_seq() or
 * rcu_exp_batches_completed()) in progress for gp_hold_ms, or hold_ms if
 * that is longer, and that grace period must not end while it is inside.
 * So a grace-period kthread that starts late cannot make a pair pass
 * whose grace period does not wait, and a grace period that ends once it
 * is old, as a force-quiescent-state scan that credited any CPU after
 * 2 * jiffies_to_sched_qs (200 ms or more: HZ / 10 is its floor) would
 * end it, is seen ending inside.  Those primitives start their grace
 * period themselves (the updater's call wakes the kthread or, expedited,
 * starts it); the others may need the reader's CPU to request theirs
 * (call_rcu() from the reader's irq-disabled section starts nothing), so
 * a witness there could wait for a grace period nobody asked for.  The
 * grace-period kthread must be able to start it while the reader's CPU
 * has interrupts disabled: plans pin it to the updater's CPU first
 * (program rcu-pin 0).  Queued on the reader's CPU it would start only
 * once the reader left, and such a pair, unwitnessed, fails, never
 * passes: without the witness it passed without showing anything.  A
 * grace period already in progress as the reader entered may wait for
 * it (the reader's CPU had not reported a quiescent state yet), and the
 * witness's, the next one, could then start only after the reader left:
 * such a try, found out at the reader's entry, runs no primitive and
 * starts again at once, up to CONSOL_BUSY_TRIES times a repetition
 * before it counts as an inconclusive try.  Without a witness, the polled
 * pairs let a poll_state_synchronize_rcu() that is true once its grace
 * period has started pass (mutant poll-state-done-at-gp-start, 2026-12-06;
 * by reading, each try's grace period, still in progress as the next
 * try's reader entered, made that try's cookie need the one after it,
 * which could start only once the reader had left).
 *
 * The rcu_barrier pairs have their callback queued by the reader, inside
 * its section, on the reader's CPU: rcu_barrier() on the updater's CPU
 * must wait for another CPU's callbacks (the call_rcu pairs wait for the
 * local CPU's).  Another kernel user's callback on the updater's CPU
 * would make an rcu_barrier() that looked only there wait for a grace
 * period, one that may wait for the reader: before the reader enters,
 * consol_drain() sees that no CPU has a callback left, and a try whose
 * reader enters while a grace period is in progress starts again, as a
 * witnessed one does.  waits_for_preempted_reader has a reader preempted,
 * again and again, by a FIFO thread on its CPU: the grace period must
 * wait for a reader that is off its CPU.  Its reader kinds are those
 * that some preemption model leaves preemptible: rcu_read_lock() with
 * PREEMPT_RCU, and on PREEMPT_RT the bh-disabled regions, softirq
 * handlers, spin_lock() and local_lock(); a kind that is not preemptible
 * on the kernel under test is skipped, with the model it needs.
 *
 * Reader kinds and update primitives are two tables, as rcutorture's
 * rcu_torture_ops is for flavors: a new reader kind is one row of
 * rcuvet_reader_kinds[] (include/rcuvet_readers.h, shared with
 * rcuvet_emulate), a new primitive its wait_ function and one UPDATER()
 * row.  A pair whose primitive the tree lacks is skipped, named
 * (rcuvet_tree.h): the kfree_rcu() pairs need kvfree_rcu_barrier(), which
 * tells when the kfree_rcu()s queued before it have run.
 *
 * mutant=early_exit is the negative control: the reader leaves its section
 * right after announcing "inside" and publishes "left" only once the
 * primitive has returned, outside of it; every pair then fails, however
 * fast or slow the host (rcuvet.h).  mutant=always_busy is the busy
 * restart's: the witness finds a grace period in progress at every arm,
 * so no witnessed try ever runs its primitive, and every witnessed pair
 * must fail as inconclusive, never pass.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/glob.h>
#include <linux/interrupt.h>
#include <linux/ktime.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/rcupdate_wait.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include "rcuvet.h"
#include "rcuvet_gpw.h"
#include "rcuvet_readers.h"
#include "rcuvet_tree.h"

static char *mutant = "";
module_param(mutant, charp, 0444);
MODULE_PARM_DESC(mutant, "early_exit: the reader leaves its section before it says so; always_busy: the witness finds a grace period in progress at every arm");

static unsigned int hold_ms = 100;
module_param(hold_ms, uint, 0444);
MODULE_PARM_DESC(hold_ms, "How long a reader stays in its critical section");

static unsigned int gp_hold_ms = 300;
module_param(gp_hold_ms, uint, 0444);
MODULE_PARM_DESC(gp_hold_ms, "How long a witnessed reader sees its grace period in progress");

static unsigned int reps = 2;
module_param(reps, uint, 0444);
MODULE_PARM_DESC(reps, "Repetitions of each reader/updater pair");

static char *pairs = "*";
module_param(pairs, charp, 0444);
MODULE_PARM_DESC(pairs, "Run only the waits_for_reader pairs whose name matches one of these comma-separated globs");

#define CONSOL_MAGIC 0x52435556455421UL
/* How long a reader waits inside for the updater to record t_start. */
#define CONSOL_START_MS 1000
/* Tries of an inconclusive pair before it fails. */
#define CONSOL_TRIES 3
/* Fresh starts of a repetition whose reader entered during a grace period. */
#define CONSOL_BUSY_TRIES 20
/* completed_cookie's reader: held until the updater is done, or this. */
#define CONSOL_COOKIE_HOLD_MS 5000

struct consol_obj {
	unsigned long magic;
	struct rcu_head rh;
};

struct consol_reader {
	const struct rcuvet_reader_kind *kind;
	struct rcuvet_section sec;	/* the kind of reader it runs in */
	struct completion inside;	/* the reader is in its section */
	struct completion done;		/* the reader kthread has finished */
	bool gp_done;			/* the update primitive has returned */
	bool left;			/* written last thing inside the section */
	bool remote_cb;			/* queue r->rh on the reader's CPU */
	bool gp_busy;			/* remote_cb: a grace period at entry */
	u64 hold_ns;			/* stay inside this long after t_start */
	u64 t_inside, t_start, t_left;	/* ktime_get_ns() */
	struct task_struct *preemptor;	/* FIFO thread that preempts the reader */
	unsigned int preemptions;	/* after t_start, inside the section */
	bool seen_by_cb;		/* "left" as an update callback saw it */
	bool cb_ran;
	bool obj_bad;			/* the object was not intact */
	struct consol_obj *obj;		/* read at the end of the section */
	struct rcuvet_gpw w;		/* the witness, if w.seq is set */
	struct rcu_head rh;
	struct rcu_work rwork;
};

static bool consol_mutant(const char *name)
{
	return !strcmp(mutant, name);
}

/*
 * May the reader leave?  Not before hold_ns after the updater recorded
 * t_start, or, witnessed, before the witness says so; at once when the
 * update primitive has returned: that grace period did not wait for this
 * reader, whose pair has failed already, so the time is better spent on
 * the next pair.  An updater that never records t_start within
 * CONSOL_START_MS leaves the try inconclusive (t_left - t_start is short).
 */
static bool consol_may_leave(struct consol_reader *r, u64 start)
{
	bool done = READ_ONCE(r->gp_done);
	u64 now = ktime_get_ns();

	if (r->w.seq)
		return rcuvet_gpw_may_leave(&r->w, done);
	if (done)
		return true;
	return start ? now - start >= r->hold_ns :
		       now - r->t_inside >= CONSOL_START_MS * NSEC_PER_MSEC;
}

static void consol_finish(struct consol_reader *r)
{
	u64 start;

	if (consol_mutant("early_exit"))
		rcuvet_wait_for(&r->gp_done);
	for (;;) {
		/* Pairs with the updater's release of t_start. */
		start = smp_load_acquire(&r->t_start);
		if (consol_may_leave(r, start))
			break;
		/* A FIFO thread on this CPU: it runs at once, off our CPU. */
		if (start && r->preemptor)
			wake_up_process(r->preemptor);
		mdelay(1);
	}
	if (READ_ONCE(r->obj->magic) != CONSOL_MAGIC)
		WRITE_ONCE(r->obj_bad, true);
	r->t_left = ktime_get_ns();
	WRITE_ONCE(r->left, true);
}

static void consol_cb(struct rcu_head *rh);

static void consol_body(struct rcuvet_section *sec)
{
	struct consol_reader *r = container_of(sec, struct consol_reader, sec);

	/* A callback on this CPU that needs a grace period after "inside". */
	if (r->remote_cb) {
		r->gp_busy = rcu_get_gp_seq() & RCUVET_SEQ_STATE_MASK;
		call_rcu(&r->rh, consol_cb);
	}
	/* The witness's grace period: the first to start from now on. */
	if (r->w.seq) {
		rcuvet_gpw_arm(&r->w);
		if (consol_mutant("always_busy"))
			r->w.busy = true;
	}
	r->t_inside = ktime_get_ns();
	complete(&r->inside);
	if (!consol_mutant("early_exit"))
		consol_finish(r);
}

static int consol_reader_fn(void *arg)
{
	struct consol_reader *r = arg;

	r->kind->run(&r->sec);
	if (consol_mutant("early_exit"))
		consol_finish(r);	/* "left" once the primitive returned */
	kthread_complete_and_exit(&r->done, 0);
}

/*
 * The update primitives.  Each starts once the reader is inside and returns
 * what "left" was at the instant the primitive declared the grace period
 * over: after synchronous waits, when a polled cookie completes, or in the
 * callback or work item that the primitive queued.
 */
static bool wait_synchronize_rcu(struct consol_reader *r)
{
	synchronize_rcu();
	return READ_ONCE(r->left);
}

static bool wait_synchronize_rcu_expedited(struct consol_reader *r)
{
	synchronize_rcu_expedited();
	return READ_ONCE(r->left);
}

#ifdef CONFIG_NET
static bool wait_synchronize_net(struct consol_reader *r)
{
	synchronize_net();
	return READ_ONCE(r->left);
}
#endif

/* Two callbacks at once, where the tree has a second way to queue one. */
static bool wait_synchronize_rcu_mult(struct consol_reader *r)
{
	if (RCUVET_HAVE_CALL_RCU_HURRY)
		synchronize_rcu_mult(call_rcu, call_rcu_hurry);
	else
		synchronize_rcu_mult(call_rcu);
	return READ_ONCE(r->left);
}

static void consol_cb(struct rcu_head *rh)
{
	struct consol_reader *r = container_of(rh, struct consol_reader, rh);

	WRITE_ONCE(r->seen_by_cb, READ_ONCE(r->left));
	WRITE_ONCE(r->cb_ran, true);
}

/* A callback that never ran saw nothing: seen_by_cb stays false. */
static bool wait_call_rcu(struct consol_reader *r)
{
	call_rcu(&r->rh, consol_cb);
	rcu_barrier();
	return READ_ONCE(r->seen_by_cb);
}

static bool wait_call_rcu_hurry(struct consol_reader *r)
{
	call_rcu_hurry(&r->rh, consol_cb);
	rcu_barrier();
	return READ_ONCE(r->seen_by_cb);
}

/*
 * rcu_barrier() returns after the callback that the reader queued on its
 * own CPU, inside its section, so after the reader.  waits_for_reader
 * drains the updater's CPU first (consol_drain()): an rcu_barrier() that
 * waited only for the local CPU's callbacks returns while the reader is
 * inside.
 */
static bool wait_rcu_barrier(struct consol_reader *r)
{
	rcu_barrier();
	return READ_ONCE(r->cb_ran) && READ_ONCE(r->seen_by_cb);
}

/* The reader reads the object last thing: an early free is a KASAN report. */
static bool wait_kfree_rcu(struct consol_reader *r)
{
	kfree_rcu(r->obj, rh);
	kvfree_rcu_barrier();
	return READ_ONCE(r->left);
}

static bool wait_kfree_rcu_mightsleep(struct consol_reader *r)
{
	kfree_rcu_mightsleep(r->obj);
	kvfree_rcu_barrier();
	return READ_ONCE(r->left);
}

static bool wait_cond_synchronize_rcu(struct consol_reader *r)
{
	cond_synchronize_rcu(get_state_synchronize_rcu());
	return READ_ONCE(r->left);
}

static bool wait_cond_synchronize_rcu_full(struct consol_reader *r)
{
	struct rcu_gp_oldstate rgos;

	get_state_synchronize_rcu_full(&rgos);
	cond_synchronize_rcu_full(&rgos);
	return READ_ONCE(r->left);
}

static bool wait_cond_synchronize_rcu_expedited(struct consol_reader *r)
{
	cond_synchronize_rcu_expedited(get_state_synchronize_rcu());
	return READ_ONCE(r->left);
}

static bool wait_cond_synchronize_rcu_expedited_full(struct consol_reader *r)
{
	struct rcu_gp_oldstate rgos;

	get_state_synchronize_rcu_full(&rgos);
	cond_synchronize_rcu_expedited_full(&rgos);
	return READ_ONCE(r->left);
}

/*
 * The polls sleep on an hrtimer, which stays on the updater's CPU.  A
 * timer-wheel timeout (schedule_timeout()) of an idle CPU is expired by
 * another, busy one (6.12's timer migration): the reader's, which cannot
 * while it disables bottom halves or interrupts or runs in a handler.
 * The poll would then see a cookie that completes too early only after
 * the reader left.
 */
static bool poll_cookie(unsigned long cookie, struct consol_reader *r)
{
	while (!poll_state_synchronize_rcu(cookie))
		usleep_range(1000, 2000);
	return READ_ONCE(r->left);
}

static bool poll_cookie_full(struct rcu_gp_oldstate *rgos,
			     struct consol_reader *r)
{
	while (!poll_state_synchronize_rcu_full(rgos))
		usleep_range(1000, 2000);
	return READ_ONCE(r->left);
}

static bool wait_start_poll_synchronize_rcu(struct consol_reader *r)
{
	return poll_cookie(start_poll_synchronize_rcu(), r);
}

static bool wait_start_poll_synchronize_rcu_full(struct consol_reader *r)
{
	struct rcu_gp_oldstate rgos;

	start_poll_synchronize_rcu_full(&rgos);
	return poll_cookie_full(&rgos, r);
}

static bool wait_start_poll_synchronize_rcu_expedited(struct consol_reader *r)
{
	return poll_cookie(start_poll_synchronize_rcu_expedited(), r);
}

static bool
wait_start_poll_synchronize_rcu_expedited_full(struct consol_reader *r)
{
	struct rcu_gp_oldstate rgos;

	start_poll_synchronize_rcu_expedited_full(&rgos);
	return poll_cookie_full(&rgos, r);
}

/* What cpumap's teardown uses: a work item queued after a grace period. */
static void consol_rwork_fn(struct work_struct *work)
{
	struct consol_reader *r = container_of(to_rcu_work(work),
					       struct consol_reader, rwork);

	WRITE_ONCE(r->seen_by_cb, READ_ONCE(r->left));
	WRITE_ONCE(r->cb_ran, true);
}

static bool wait_queue_rcu_work(struct consol_reader *r)
{
	INIT_RCU_WORK(&r->rwork, consol_rwork_fn);
	queue_rcu_work(system_wq, &r->rwork);
	flush_rcu_work(&r->rwork);
	return READ_ONCE(r->seen_by_cb);
}

static unsigned long consol_gp_seq(void *unused)
{
	return rcu_get_gp_seq();
}

/*
 * Where expedited grace periods are prohibited (PREEMPT_RT's
 * rcupdate.rcu_normal_after_boot, or rcupdate.rcu_normal), the expedited
 * primitives run a normal grace period instead: the expedited counter
 * then never moves, and the witness follows the normal one.
 */
static unsigned long consol_exp_seq(void *unused)
{
	return rcu_gp_is_normal() ? rcu_get_gp_seq() : rcu_exp_batches_completed();
}

struct consol_updater {
	const char *name;
	const char *covers;
	bool (*wait)(struct consol_reader *r);
	bool frees_obj;		/* the primitive frees r->obj */
	bool remote_cb;		/* the reader queues r->rh on its CPU */
	/* The witness's sequence, for a primitive that starts its own GP. */
	unsigned long (*gp_seq)(void *unused);
	const char *absent;	/* RCUVET_ABSENT(): what the tree lacks */
};

#define NEEDS_KVFREE_RCU_BARRIER \
	.absent = RCUVET_ABSENT(KVFREE_RCU_BARRIER, "kvfree_rcu_barrier()")

#define UPDATER(fn, covers, ...) { #fn, covers, wait_##fn, __VA_ARGS__ }

static const struct consol_updater consol_updaters[] = {
	UPDATER(synchronize_rcu, "synchronize_rcu", .gp_seq = consol_gp_seq),
	UPDATER(synchronize_rcu_expedited, "synchronize_rcu_expedited",
		.gp_seq = consol_exp_seq),
#ifdef CONFIG_NET
	UPDATER(synchronize_net, "synchronize_net"),
#endif
	UPDATER(synchronize_rcu_mult, RCUVET_HAVE_CALL_RCU_HURRY ?
		"synchronize_rcu_mult call_rcu_hurry" : "synchronize_rcu_mult"),
	UPDATER(call_rcu, "call_rcu"),
	UPDATER(call_rcu_hurry, "call_rcu_hurry",
		.absent = RCUVET_ABSENT(CALL_RCU_HURRY, "call_rcu_hurry()")),
	UPDATER(rcu_barrier, "rcu_barrier call_rcu", .remote_cb = true),
	UPDATER(kfree_rcu, "kfree_rcu kvfree_rcu_barrier", .frees_obj = true,
		NEEDS_KVFREE_RCU_BARRIER),
	UPDATER(kfree_rcu_mightsleep, "kfree_rcu_mightsleep kvfree_rcu_barrier",
		.frees_obj = true, NEEDS_KVFREE_RCU_BARRIER),
	UPDATER(cond_synchronize_rcu,
		"get_state_synchronize_rcu cond_synchronize_rcu",
		.gp_seq = consol_gp_seq),
	UPDATER(cond_synchronize_rcu_full,
		"get_state_synchronize_rcu_full cond_synchronize_rcu_full",
		.gp_seq = consol_gp_seq),
	UPDATER(cond_synchronize_rcu_expedited,
		"get_state_synchronize_rcu cond_synchronize_rcu_expedited",
		.gp_seq = consol_exp_seq),
	UPDATER(cond_synchronize_rcu_expedited_full,
		"get_state_synchronize_rcu_full cond_synchronize_rcu_expedited_full",
		.gp_seq = consol_exp_seq),
	UPDATER(start_poll_synchronize_rcu,
		"start_poll_synchronize_rcu poll_state_synchronize_rcu",
		.gp_seq = consol_gp_seq),
	UPDATER(start_poll_synchronize_rcu_full,
		"start_poll_synchronize_rcu_full poll_state_synchronize_rcu_full",
		.gp_seq = consol_gp_seq),
	UPDATER(start_poll_synchronize_rcu_expedited,
		"start_poll_synchronize_rcu_expedited poll_state_synchronize_rcu",
		.gp_seq = consol_exp_seq),
	UPDATER(start_poll_synchronize_rcu_expedited_full,
		"start_poll_synchronize_rcu_expedited_full poll_state_synchronize_rcu_full",
		.gp_seq = consol_exp_seq),
	UPDATER(queue_rcu_work, "queue_rcu_work flush_rcu_work"),
};

#define N_READERS RCUVET_NR_READER_KINDS
#define N_PAIRS (ARRAY_SIZE(consol_updaters) * N_READERS)

/*
 * The parameters of waits_for_reader: every updater with every reader kind,
 * named "updater.reader".  A parameter is an index into that product.
 */
static unsigned int consol_pair_index[N_PAIRS];

/* Does @name match one of the comma-separated globs of pairs=? */
static bool consol_pair_selected(const char *name)
{
	const char *g = pairs;
	char glob[KUNIT_PARAM_DESC_SIZE];

	while (*g) {
		size_t len = strcspn(g, ",");

		if (len < sizeof(glob)) {
			memcpy(glob, g, len);
			glob[len] = '\0';
			if (glob_match(glob, name))
				return true;
		}
		g += len + !!g[len];
	}
	return false;
}

static const void *consol_pair_gen(const void *prev, char *desc)
{
	const unsigned int *p = prev ? (const unsigned int *)prev + 1 :
				consol_pair_index;

	for (; p < consol_pair_index + N_PAIRS; p++) {
		snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s.%s",
			 consol_updaters[*p / N_READERS].name,
			 rcuvet_reader_kinds[*p % N_READERS].name);
		if (consol_pair_selected(desc))
			return p;
	}
	return NULL;
}

enum consol_verdict { CONSOL_PASS, CONSOL_EARLY, CONSOL_INCONCLUSIVE, CONSOL_BUSY };

/*
 * The reader's callback is on its CPU's list until it has run, even after
 * an rcu_barrier() that failed to wait for it: r is not reused or freed
 * before that.
 */
static void consol_settle(struct consol_reader *r)
{
	while (r->remote_cb && !READ_ONCE(r->cb_ran))
		schedule_timeout_uninterruptible(1);
}

/*
 * Before a witnessed reader enters: no grace period in progress.  One
 * that began before the reader entered may wait for it all the same (its
 * CPU had not reported a quiescent state yet), and the next one, the
 * witness's, could then start only once the reader left.  rcu_barrier()
 * first: the callbacks already queued, the last reader's task_struct
 * among them, would start grace periods of their own.  The witness's
 * grace period is the first to start after the reader entered
 * (consol_body() arms it there).
 */
static void consol_quiesce(const struct consol_updater *u)
{
	unsigned long end = jiffies + msecs_to_jiffies(CONSOL_START_MS);

	rcu_barrier();
	while ((u->gp_seq(NULL) & RCUVET_SEQ_STATE_MASK) && time_before(jiffies, end))
		schedule_timeout_uninterruptible(1);
}

/*
 * Before an rcu_barrier pair's reader enters: no callback left on any CPU
 * (on the updater's, for an rcu_barrier() that looks only there).  One on
 * the updater's CPU would make such a barrier wait for its grace period,
 * which, if it started after the reader entered, waits for the reader:
 * the pair could then pass by luck, as 6 of 10 did (mutant
 * barrier-entrains-local-cpu-only, 2026-12-06).  By reading, every case
 * starts with such callbacks: the previous case's kunit thread exits on
 * that CPU (delayed_put_pid(), delayed_put_task_struct(), which, as it
 * drops the last reference, queues put_cred_rcu()), and a single
 * rcu_barrier() returns with that last one still queued.  Two
 * rcu_barrier()s with no grace period starting or ending from before the
 * first to after the second: the first invoked every callback there was,
 * a callback queued since could not be done without a grace period
 * ending, so the second found none (it would have waited for a grace
 * period).  Callbacks queued after that, between here and the updater's
 * rcu_barrier(), are not excluded.
 */
static bool consol_drain(void)
{
	unsigned long end = jiffies + msecs_to_jiffies(CONSOL_START_MS);
	unsigned long seq;

	for (;;) {
		seq = rcu_get_gp_seq();
		rcu_barrier();
		rcu_barrier();
		if (!(seq & RCUVET_SEQ_STATE_MASK) && rcu_get_gp_seq() == seq)
			return true;
		if (time_after(jiffies, end))
			return false;
		schedule_timeout_uninterruptible(1);
	}
}

/*
 * One try of a pair: the reader runs @kind on RCUVET_READER_CPU, preempted
 * by @preemptor if there is one, while the updater runs @u.
 */
static enum consol_verdict consol_try(struct kunit *test, struct consol_reader *r,
				      const struct consol_updater *u,
				      const struct rcuvet_reader_kind *kind,
				      struct task_struct *preemptor)
{
	struct task_struct *t;
	bool ok, conclusive;

	consol_settle(r);
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->sec.body = consol_body;
	r->remote_cb = u->remote_cb;
	r->preemptor = preemptor;
	r->hold_ns = (u64)hold_ms * NSEC_PER_MSEC;
	init_completion(&r->inside);
	init_completion(&r->done);
	r->obj = kmalloc(sizeof(*r->obj), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r->obj);
	r->obj->magic = CONSOL_MAGIC;
	if (u->gp_seq) {
		unsigned int margin = max(hold_ms, gp_hold_ms);

		rcuvet_gpw_init(&r->w, u->gp_seq, NULL, margin,
				margin + CONSOL_START_MS);
	}

	t = kthread_create_on_cpu(consol_reader_fn, r, RCUVET_READER_CPU,
				  "rcuvet_consol/%u");
	if (IS_ERR(t))
		kfree(r->obj);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(t), "cannot start the reader");
	if (u->gp_seq)
		consol_quiesce(u);
	else if (u->remote_cb && !consol_drain())
		kunit_info(test, "callbacks still queued after %u ms of rcu_barrier()",
			   CONSOL_START_MS);
	wake_up_process(t);
	wait_for_completion(&r->inside);
	if ((r->w.seq && r->w.busy) || r->gp_busy) {
		/* No primitive: the reader goes, the try starts again. */
		rcuvet_signal(&r->gp_done);
		wait_for_completion(&r->done);
		kfree(r->obj);
		return CONSOL_BUSY;
	}
	/* t_start before the primitive: pairs with consol_finish()'s acquire. */
	smp_store_release(&r->t_start, ktime_get_ns());
	ok = u->wait(r);
	rcuvet_signal(&r->gp_done);
	wait_for_completion(&r->done);
	if (r->sec.nested)
		kunit_info(test, "the %s handler tried %u times inside an rcu_read_lock() reader first",
			   kind->name, r->sec.nested);
	if (!u->frees_obj)
		kfree(r->obj);
	if (r->w.seq) {
		enum rcuvet_gpw_verdict v = rcuvet_gpw_verdict(&r->w, ok);

		if (v == RCUVET_GPW_FAIL)
			return CONSOL_EARLY;
		conclusive = v == RCUVET_GPW_PASS;
	} else {
		if (!ok)
			return CONSOL_EARLY;
		conclusive = r->t_left - r->t_start >= r->hold_ns;
	}
	if (!conclusive || (preemptor && !r->preemptions)) {
		kunit_info(test, "inconclusive: inside %llu us after the start, %s, %u preemptions",
			   div_u64(r->t_left - r->t_start, NSEC_PER_USEC),
			   !r->w.seq ? "no witness" : r->w.witnessed ?
			   "grace period witnessed" :
			   "grace period not seen in progress (its kthread on the reader's CPU? rcu-pin 0)",
			   r->preemptions);
		return CONSOL_INCONCLUSIVE;
	}
	return CONSOL_PASS;
}

static struct consol_reader *consol_alloc(struct kunit *test)
{
	struct consol_reader *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	return r;
}

static void consol_pair(struct kunit *test, struct consol_reader *r,
			const struct consol_updater *u,
			const struct rcuvet_reader_kind *kind,
			struct task_struct *preemptor)
{
	unsigned int i, try, busy, restarts = 0, early = 0, unproven = 0, bad = 0;
	enum consol_verdict v = CONSOL_INCONCLUSIVE;

	rcuvet_pin_updater(test);

	for (i = 0; i < reps; i++) {
		busy = 0;
		for (try = 0; try < CONSOL_TRIES; try++) {
			do {
				v = consol_try(test, r, u, kind, preemptor);
				bad += r->obj_bad;
			} while (v == CONSOL_BUSY && ++busy < CONSOL_BUSY_TRIES);
			if (v != CONSOL_INCONCLUSIVE && v != CONSOL_BUSY)
				break;
		}
		restarts += busy;
		early += v == CONSOL_EARLY;
		unproven += v == CONSOL_INCONCLUSIVE || v == CONSOL_BUSY;
	}
	consol_settle(r);
	if (restarts)
		kunit_info(test, "%u tries started again: a grace period was in progress as the reader entered",
			   restarts);
	KUNIT_EXPECT_EQ_MSG(test, early, 0,
			    "%u of %u grace periods ended while the %s reader was inside",
			    early, reps, kind->name);
	KUNIT_EXPECT_EQ_MSG(test, unproven, 0,
			    "%u of %u pairs never showed the reader inside for %u ms of the primitive%s in %u tries",
			    unproven, reps, u->gp_seq ? max(hold_ms, gp_hold_ms) : hold_ms,
			    u->gp_seq ? " with its grace period in progress" : "",
			    CONSOL_TRIES);
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "the reader's object was not intact");
}

static void waits_for_reader(struct kunit *test)
{
	unsigned int pair = *(const unsigned int *)test->param_value;
	const struct consol_updater *u = &consol_updaters[pair / N_READERS];
	const struct rcuvet_reader_kind *kind = &rcuvet_reader_kinds[pair % N_READERS];
	char covers[160];

	rcuvet_skip_absent(test, u->absent);
	snprintf(covers, sizeof(covers), "%s %s", u->covers, kind->covers);
	rcuvet_covers(test, covers);
	consol_pair(test, consol_alloc(test), u, kind, NULL);
}

/*
 * The preempted reader: PREEMPT_RCU queues a task preempted inside
 * rcu_read_lock() on its rcu_node's blocked list, and the normal and the
 * expedited grace period wait for that list, not only for the CPU, which
 * reports its quiescent state at the context switch.  On PREEMPT_RT the
 * bh-disabled regions (and so softirq handlers, which run in a task inside
 * one), spin_lock() and local_lock() sections are preemptible too, and
 * reach that list through the rcu_read_lock() they enter; elsewhere they
 * disable preemption, and their parameters are skipped.
 */
static const struct consol_updater consol_preempt_updaters[] = {
	UPDATER(synchronize_rcu, "synchronize_rcu", .gp_seq = consol_gp_seq),
	UPDATER(synchronize_rcu_expedited, "synchronize_rcu_expedited",
		.gp_seq = consol_exp_seq),
};

static const struct consol_preemptible {
	const char *kind;
	bool preemptible;	/* on this kernel */
	const char *model;	/* where it is */
} consol_preemptibles[] = {
	{ "rcu_read_lock",	IS_ENABLED(CONFIG_PREEMPT_RCU), "PREEMPT_RCU" },
	{ "rcu_read_lock_bh",	IS_ENABLED(CONFIG_PREEMPT_RT), "PREEMPT_RT" },
	{ "local_bh_disable",	IS_ENABLED(CONFIG_PREEMPT_RT), "PREEMPT_RT" },
	{ "timer_softirq",	IS_ENABLED(CONFIG_PREEMPT_RT), "PREEMPT_RT" },
	{ "spin_lock",		IS_ENABLED(CONFIG_PREEMPT_RT), "PREEMPT_RT" },
	{ "local_lock",		IS_ENABLED(CONFIG_PREEMPT_RT), "PREEMPT_RT" },
};

#define N_PREEMPTIBLES ARRAY_SIZE(consol_preemptibles)
#define N_PREEMPT_PAIRS (ARRAY_SIZE(consol_preempt_updaters) * N_PREEMPTIBLES)

/* waits_for_preempted_reader's parameters, "updater.reader" */
static const void *consol_preempt_gen(const void *prev, char *desc)
{
	unsigned long p = prev ? *(const unsigned long *)prev + 1 : 0;
	static unsigned long index[N_PREEMPT_PAIRS];

	if (p >= N_PREEMPT_PAIRS)
		return NULL;
	index[p] = p;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s.%s",
		 consol_preempt_updaters[p / N_PREEMPTIBLES].name,
		 consol_preemptibles[p % N_PREEMPTIBLES].kind);
	return &index[p];
}

static int consol_preemptor_fn(void *arg)
{
	struct consol_reader *r = arg;

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
		/*
		 * Woken by the reader, inside its section, after t_start: it
		 * is still inside (it writes "left" last, on this CPU), off
		 * its CPU, if it was preemptible there.
		 */
		if (!kthread_should_stop() && !READ_ONCE(r->left))
			WRITE_ONCE(r->preemptions, r->preemptions + 1);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static void consol_stop_preemptor(void *p)
{
	kthread_stop(p);
}

static void waits_for_preempted_reader(struct kunit *test)
{
	unsigned long p = *(const unsigned long *)test->param_value;
	const struct consol_updater *u = &consol_preempt_updaters[p / N_PREEMPTIBLES];
	const struct consol_preemptible *pr = &consol_preemptibles[p % N_PREEMPTIBLES];
	const struct rcuvet_reader_kind *kind = rcuvet_reader_kind(pr->kind);
	struct consol_reader *r;
	struct task_struct *t;

	if (!pr->preemptible)
		rcuvet_skip(test, "a %s reader is preemptible only with %s",
			    pr->kind, pr->model);
	KUNIT_ASSERT_NOT_NULL(test, kind);
	rcuvet_covers(test, u->covers);
	rcuvet_covers(test, kind->covers);
	r = consol_alloc(test);
	t = kthread_create_on_cpu(consol_preemptor_fn, r, RCUVET_READER_CPU,
				  "rcuvet_preempt/%u");
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(t), "cannot start the preemptor");
	sched_set_fifo(t);
	wake_up_process(t);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, consol_stop_preemptor, t), 0);
	consol_pair(test, r, u, kind, t);
}

/*
 * A completed cookie needs no grace period: polling it succeeds at once,
 * and a conditional wait on it returns without waiting, even while a
 * reader on the other CPU is inside.  That reader stays until the updater
 * is done (CONSOL_COOKIE_HOLD_MS at most): a conditional wait that waited
 * for a grace period returns only after it left.  Fresh cookies differ
 * from completed ones, and from each other across a grace period.
 */
static bool wait_completed_cookie(struct consol_reader *r)
{
	struct rcu_gp_oldstate rgos;

	get_completed_synchronize_rcu_full(&rgos);
	cond_synchronize_rcu(get_completed_synchronize_rcu());
	cond_synchronize_rcu_full(&rgos);
	cond_synchronize_rcu_expedited(get_completed_synchronize_rcu());
	cond_synchronize_rcu_expedited_full(&rgos);
	return !READ_ONCE(r->left);
}

static void completed_cookie(struct kunit *test)
{
	const struct rcuvet_reader_kind *kind = &rcuvet_reader_kinds[0];
	struct consol_reader *r = consol_alloc(test);
	unsigned long cookie = get_completed_synchronize_rcu();
	unsigned long fresh, later;
	struct rcu_gp_oldstate rgos, frgos;
	struct task_struct *t;
	bool inside;

	rcuvet_covers(test, "get_completed_synchronize_rcu get_completed_synchronize_rcu_full");
	rcuvet_covers(test, "poll_state_synchronize_rcu_full same_state_synchronize_rcu");
	rcuvet_covers(test, "cond_synchronize_rcu cond_synchronize_rcu_full");
	rcuvet_covers(test, "cond_synchronize_rcu_expedited cond_synchronize_rcu_expedited_full");
	rcuvet_pin_updater(test);
	get_completed_synchronize_rcu_full(&rgos);
	KUNIT_EXPECT_TRUE(test, poll_state_synchronize_rcu(cookie));
	KUNIT_EXPECT_TRUE(test, poll_state_synchronize_rcu_full(&rgos));
	KUNIT_EXPECT_TRUE(test,
			  same_state_synchronize_rcu(cookie, get_completed_synchronize_rcu()));

	r->kind = kind;
	r->sec.body = consol_body;
	r->hold_ns = (u64)CONSOL_COOKIE_HOLD_MS * NSEC_PER_MSEC;
	init_completion(&r->inside);
	init_completion(&r->done);
	r->obj = kmalloc(sizeof(*r->obj), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r->obj);
	r->obj->magic = CONSOL_MAGIC;
	t = kthread_run_on_cpu(consol_reader_fn, r, RCUVET_READER_CPU,
			       "rcuvet_consol/%u");
	if (IS_ERR(t))
		kfree(r->obj);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(t), "cannot start the reader");
	wait_for_completion(&r->inside);
	/* Fresh cookies, taken while a reader is inside, are not complete. */
	fresh = get_state_synchronize_rcu();
	get_state_synchronize_rcu_full(&frgos);
	/* Pairs with consol_finish()'s acquire: the hold starts now. */
	smp_store_release(&r->t_start, ktime_get_ns());
	inside = wait_completed_cookie(r);
	KUNIT_EXPECT_FALSE(test, poll_state_synchronize_rcu(fresh));
	KUNIT_EXPECT_FALSE(test, poll_state_synchronize_rcu_full(&frgos));
	rcuvet_signal(&r->gp_done);
	wait_for_completion(&r->done);
	kfree(r->obj);
	KUNIT_EXPECT_TRUE_MSG(test, inside,
			      "a conditional wait on a completed cookie waited for the reader");

	synchronize_rcu();
	KUNIT_EXPECT_TRUE(test, poll_state_synchronize_rcu(fresh));
	KUNIT_EXPECT_TRUE(test, poll_state_synchronize_rcu_full(&frgos));
	later = get_state_synchronize_rcu();
	KUNIT_EXPECT_FALSE(test, same_state_synchronize_rcu(fresh, later));
	KUNIT_EXPECT_FALSE(test, same_state_synchronize_rcu(later, cookie));
}

static struct kunit_case consol_cases[] = {
	KUNIT_CASE_PARAM_ATTR(waits_for_reader, consol_pair_gen,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE_PARAM_ATTR(waits_for_preempted_reader, consol_preempt_gen,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE(completed_cookie),
	{}
};

static int consol_suite_init(struct kunit_suite *suite)
{
	unsigned int i;

	for (i = 0; i < N_PAIRS; i++)
		consol_pair_index[i] = i;
	return 0;
}

static struct kunit_suite consol_suite = {
	.name = "rcuvet_consol",
	.suite_init = consol_suite_init,
	.test_cases = consol_cases,
};
kunit_test_suite(consol_suite);

MODULE_DESCRIPTION("rcuvet: consolidated grace periods wait for every reader kind");
MODULE_LICENSE("GPL");
