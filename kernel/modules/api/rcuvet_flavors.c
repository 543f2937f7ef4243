// SPDX-License-Identifier: GPL-2.0
/*
 * rcuvet_flavors: the RCU bh and RCU sched read side after consolidation.
 *
 * The update side is one flavor since v4.20, but the read-side markers
 * stay distinct for lockdep: rcu_dereference() still complains under
 * rcu_read_lock_bh() alone, rcu_dereference_bh() is happy wherever bottom
 * halves are off, rcu_dereference_sched() wherever preemption is off.
 * These cases check what rcu_read_lock_held(), rcu_read_lock_bh_held(),
 * rcu_read_lock_sched_held() and rcu_read_lock_any_held() report inside and
 * outside every kind of reader (PROVE_RCU), that the _bh and _sched
 * dereferences return the published pointer where they are legal, and
 * that lockdep's "suspicious RCU usage" comes exactly where it must.
 *
 * A lockdep splat is printed once per call site and boot, so each case
 * that must splat has its own call site and runs once.
 *
 * mutant=wrong_flavor is the negative control: the bh case dereferences
 * with rcu_dereference() under rcu_read_lock_bh(), and the run must fail
 * for the unannounced splat.
 *
 * The report of the readers that rely on flavor consolidation has its
 * own suite, rcuvet_reliance.c.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/hrtimer.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/timer.h>
#include "rcuvet.h"
#include "rcuvet_tree.h"

static char *mutant = "";
module_param(mutant, charp, 0444);
MODULE_PARM_DESC(mutant, "wrong_flavor: rcu_dereference() under rcu_read_lock_bh()");

static int flavors_target = 42;
static int __rcu *flavors_ptr = RCU_INITIALIZER(&flavors_target);

/* What a context reports, filled in by the body run inside it. */
struct flavors_seen {
	bool held, bh_held, sched_held, any_held;
	int *bh_deref, *sched_deref;
	struct completion handler_done;
	struct timer_list timer;
	struct hrtimer hrtimer;
	unsigned long flags;
};

struct flavors_context {
	const char *name;
	void (*run)(struct flavors_seen *s);
	/* expected: rcu_read_lock_held, _bh_held, _sched_held, _any_held */
	bool held, bh_held, sched_held, any_held;
};

static void flavors_body(struct flavors_seen *s)
{
	s->held = rcu_read_lock_held();
	s->bh_held = rcu_read_lock_bh_held();
	s->sched_held = rcu_read_lock_sched_held();
	s->any_held = rcu_read_lock_any_held();
	/* Legal only where the matching flavor is held: no splat then. */
	if (s->bh_held)
		s->bh_deref = rcu_dereference_bh(flavors_ptr);
	if (s->sched_held)
		s->sched_deref = rcu_dereference_sched(flavors_ptr);
}

static void run_task(struct flavors_seen *s)
{
	flavors_body(s);
}

#define CONTEXT(kind, enter, exit)				\
static void run_##kind(struct flavors_seen *s)			\
{								\
	enter;							\
	flavors_body(s);					\
	exit;							\
}

CONTEXT(rcu_read_lock, rcu_read_lock(), rcu_read_unlock())
CONTEXT(rcu_read_lock_bh, rcu_read_lock_bh(), rcu_read_unlock_bh())
CONTEXT(rcu_read_lock_sched, rcu_read_lock_sched(), rcu_read_unlock_sched())
CONTEXT(preempt_disable, preempt_disable(), preempt_enable())
CONTEXT(local_bh_disable, local_bh_disable(), local_bh_enable())
CONTEXT(local_irq_disable, local_irq_disable(), local_irq_enable())
CONTEXT(local_irq_save, local_irq_save(s->flags), local_irq_restore(s->flags))

static void flavors_timer_fn(struct timer_list *t)
{
	struct flavors_seen *s = from_timer(s, t, timer);

	flavors_body(s);
	complete(&s->handler_done);
}

static void run_timer_softirq(struct flavors_seen *s)
{
	timer_setup_on_stack(&s->timer, flavors_timer_fn, 0);
	mod_timer(&s->timer, jiffies);
	wait_for_completion(&s->handler_done);
	timer_shutdown_sync(&s->timer);
	destroy_timer_on_stack(&s->timer);
}

/*
 * A hardirq handler that interrupted an rcu_read_lock() reader is inside
 * it (on PREEMPT_RT every spinlock_t and bh-disabled region is one):
 * it tries again a tick later.
 */
static enum hrtimer_restart flavors_hrtimer_fn(struct hrtimer *t)
{
	struct flavors_seen *s = container_of(t, struct flavors_seen, hrtimer);

	if (rcu_preempt_depth()) {
		hrtimer_forward_now(t, ns_to_ktime(TICK_NSEC));
		return HRTIMER_RESTART;
	}
	flavors_body(s);
	complete(&s->handler_done);
	return HRTIMER_NORESTART;
}

static void run_hrtimer_hardirq(struct flavors_seen *s)
{
	hrtimer_init_on_stack(&s->hrtimer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	s->hrtimer.function = flavors_hrtimer_fn;
	hrtimer_start(&s->hrtimer, ns_to_ktime(NSEC_PER_USEC), HRTIMER_MODE_REL_HARD);
	wait_for_completion(&s->handler_done);
	hrtimer_cancel(&s->hrtimer);
	destroy_hrtimer_on_stack(&s->hrtimer);
}

/*
 * rcu_read_lock() disables preemption only in non-preemptible kernels, so
 * only there does it also count as an RCU-sched reader.  On PREEMPT_RT a
 * bh-disabled region (and so a softirq handler, which runs in a task
 * inside one) stays preemptible and enters rcu_read_lock(): an RCU
 * reader, not an RCU-sched one.
 */
#define NOPREEMPT_RCU (!IS_ENABLED(CONFIG_PREEMPT_RCU))

static const struct flavors_context flavors_contexts[] = {
	/* name                 run                   held   bh     sched  any */
	{ "task",               run_task,             false, false, false, false },
	{ "rcu_read_lock",      run_rcu_read_lock,    true,  false, NOPREEMPT_RCU, true },
	{ "rcu_read_lock_bh",   run_rcu_read_lock_bh, ON_RT, true,  !ON_RT, true },
	{ "rcu_read_lock_sched", run_rcu_read_lock_sched, false, false, true, true },
	{ "preempt_disable",    run_preempt_disable,  false, false, true,  true },
	{ "local_bh_disable",   run_local_bh_disable, ON_RT, true,  !ON_RT, true },
	{ "local_irq_disable",  run_local_irq_disable, false, true, true,  true },
	{ "local_irq_save",     run_local_irq_save,   false, true,  true,  true },
	{ "timer_softirq",      run_timer_softirq,    ON_RT, true,  !ON_RT, true },
	{ "hrtimer_hardirq",    run_hrtimer_hardirq,  false, true,  true,  true },
};

static void flavors_context_desc(const struct flavors_context *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(flavors_context, flavors_contexts, flavors_context_desc);

/* Each predicate and each legal dereference, inside each kind of reader. */
static void lockdep_predicates(struct kunit *test)
{
	const struct flavors_context *c = test->param_value;
	struct flavors_seen s = { };

	rcuvet_covers(test,
		      "rcu_read_lock_held rcu_read_lock_bh_held rcu_read_lock_sched_held");
	rcuvet_covers(test, "rcu_read_lock_any_held");
	/* Called only where legal; the *_outside_splats cases do the rest. */
	if (c->bh_held)
		rcuvet_covers(test, "rcu_dereference_bh");
	if (c->sched_held)
		rcuvet_covers(test, "rcu_dereference_sched");
	init_completion(&s.handler_done);
	c->run(&s);
	KUNIT_EXPECT_EQ_MSG(test, s.held, c->held, "rcu_read_lock_held()");
	KUNIT_EXPECT_EQ_MSG(test, s.bh_held, c->bh_held, "rcu_read_lock_bh_held()");
	KUNIT_EXPECT_EQ_MSG(test, s.sched_held, c->sched_held,
			    "rcu_read_lock_sched_held()");
	KUNIT_EXPECT_EQ_MSG(test, s.any_held, c->any_held, "rcu_read_lock_any_held()");
	if (c->bh_held)
		KUNIT_EXPECT_PTR_EQ(test, s.bh_deref, &flavors_target);
	if (c->sched_held)
		KUNIT_EXPECT_PTR_EQ(test, s.sched_deref, &flavors_target);
}

/*
 * The bh reader: rcu_dereference_bh() under rcu_read_lock_bh() is legal and
 * silent.  Under the mutant it is rcu_dereference(), which lockdep must
 * flag, unannounced, so that the run fails.
 */
static void rcu_dereference_bh_in_bh_reader(struct kunit *test)
{
	int *p;

	rcuvet_covers(test, "rcu_read_lock_bh rcu_read_unlock_bh rcu_dereference_bh");
	rcu_read_lock_bh();
	if (!strcmp(mutant, "wrong_flavor"))
		p = rcu_dereference(flavors_ptr);
	else
		p = rcu_dereference_bh(flavors_ptr);
	rcu_read_unlock_bh();
	KUNIT_EXPECT_PTR_EQ(test, p, &flavors_target);
}

/*
 * rcu_dereference() under rcu_read_lock_bh() alone: still a complaint,
 * but on PREEMPT_RT, where rcu_read_lock_bh() enters rcu_read_lock().
 */
static void rcu_dereference_under_bh_splats(struct kunit *test)
{
	int *p;

	rcuvet_covers(test, "rcu_dereference rcu_read_lock_bh");
	if (!ON_RT)
		rcuvet_expect_splat(1, "WARNING: suspicious RCU usage");
	rcu_read_lock_bh();
	p = rcu_dereference(flavors_ptr);
	rcu_read_unlock_bh();
	if (!ON_RT)
		rcuvet_end_expect();
	KUNIT_EXPECT_PTR_EQ(test, p, &flavors_target);
}

static void rcu_dereference_bh_outside_splats(struct kunit *test)
{
	int *p;

	/* rcu_dereference_bh(p) is rcu_dereference_bh_check(p, 0). */
	rcuvet_covers(test, "rcu_dereference_bh rcu_dereference_bh_check");
	rcuvet_expect_splat(1, "WARNING: suspicious RCU usage");
	p = rcu_dereference_bh(flavors_ptr);
	rcuvet_end_expect();
	KUNIT_EXPECT_PTR_EQ(test, p, &flavors_target);
}

static void rcu_dereference_sched_outside_splats(struct kunit *test)
{
	int *p;

	/* rcu_dereference_sched(p) is rcu_dereference_sched_check(p, 0). */
	rcuvet_covers(test, "rcu_dereference_sched rcu_dereference_sched_check");
	rcuvet_expect_splat(1, "WARNING: suspicious RCU usage");
	p = rcu_dereference_sched(flavors_ptr);
	rcuvet_end_expect();
	KUNIT_EXPECT_PTR_EQ(test, p, &flavors_target);
}

static DEFINE_MUTEX(flavors_lock);

/*
 * rcu_dereference_bh_check() and _sched_check() are legal where their
 * flavor is held or where their extra condition is true: each alone must
 * be enough, silently.  With neither they complain: that is what
 * rcu_dereference_bh_outside_splats and _sched_outside_splats check (the
 * plain forms pass a false condition).
 */
static void dereference_check_conditions(struct kunit *test)
{
	int *p;

	rcuvet_covers(test,
		      "rcu_dereference_bh_check rcu_dereference_sched_check rcu_dereference_check");
	mutex_lock(&flavors_lock);
	p = rcu_dereference_bh_check(flavors_ptr, lockdep_is_held(&flavors_lock));
	KUNIT_EXPECT_PTR_EQ(test, p, &flavors_target);
	p = rcu_dereference_sched_check(flavors_ptr, lockdep_is_held(&flavors_lock));
	KUNIT_EXPECT_PTR_EQ(test, p, &flavors_target);
	mutex_unlock(&flavors_lock);

	local_bh_disable();
	p = rcu_dereference_bh_check(flavors_ptr, false);
	local_bh_enable();
	KUNIT_EXPECT_PTR_EQ(test, p, &flavors_target);
	local_irq_disable();
	p = rcu_dereference_bh_check(flavors_ptr, false);
	local_irq_enable();
	KUNIT_EXPECT_PTR_EQ(test, p, &flavors_target);
	preempt_disable();
	p = rcu_dereference_sched_check(flavors_ptr, false);
	preempt_enable();
	KUNIT_EXPECT_PTR_EQ(test, p, &flavors_target);

	local_bh_disable();
	p = rcu_dereference_check(flavors_ptr, rcu_read_lock_bh_held());
	local_bh_enable();
	KUNIT_EXPECT_PTR_EQ(test, p, &flavors_target);
}

static struct kunit_case flavors_cases[] = {
	KUNIT_CASE_PARAM(lockdep_predicates, flavors_context_gen_params),
	KUNIT_CASE(rcu_dereference_bh_in_bh_reader),
	KUNIT_CASE(rcu_dereference_under_bh_splats),
	KUNIT_CASE(rcu_dereference_bh_outside_splats),
	KUNIT_CASE(rcu_dereference_sched_outside_splats),
	KUNIT_CASE(dereference_check_conditions),
	{}
};

static int flavors_init(struct kunit *test)
{
	/* Without lockdep's RCU checks the predicates only say "maybe". */
	if (!IS_ENABLED(CONFIG_PROVE_RCU) || !debug_lockdep_rcu_enabled())
		rcuvet_skip(test, "needs CONFIG_PROVE_RCU with lockdep enabled");
	return 0;
}

static struct kunit_suite flavors_suite = {
	.name = "rcuvet_flavors",
	.init = flavors_init,
	.test_cases = flavors_cases,
};

kunit_test_suite(flavors_suite);

MODULE_DESCRIPTION("rcuvet: RCU bh and RCU sched read side under lockdep");
MODULE_LICENSE("GPL");
