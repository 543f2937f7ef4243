/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rcuvet_readers.h: the reader kinds a consolidated grace period waits
 * for, as one table for the suites that run a body inside each kind
 * (rcuvet_consol, rcuvet_emulate), the way rcutorture's rcu_torture_ops is
 * one table of flavors.  A new reader kind is one RCUVET_SECTION() (or a
 * run function of its own) and one row of rcuvet_reader_kinds[].
 *
 * A suite embeds a struct rcuvet_section in its reader, sets ->body and
 * calls kind->run() on the CPU the reader must run on; the body finds the
 * reader from the section with container_of().  The section must not be on
 * the stack: its timers are not annotated for that.
 */
#ifndef _RCUVET_READERS_H
#define _RCUVET_READERS_H

#include <linux/completion.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/local_lock.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timer.h>

struct rcuvet_section {
	void (*body)(struct rcuvet_section *s);
	unsigned long flags;		/* for local_irq_save() */
	struct timer_list timer;	/* timer_softirq */
	struct hrtimer hrtimer;		/* hrtimer_hardirq */
	struct completion handler_done;	/* a handler has run the body */
	unsigned int nested;		/* handlers that found a reader below */
};

struct rcuvet_reader_kind {
	const char *name;
	const char *covers;		/* its API members, for rcuvet_covers() */
	/* Run s->body inside this kind of reader, on the current CPU. */
	void (*run)(struct rcuvet_section *s);
	bool v4_19_waited;		/* v4.19's RCU-preempt waited for it too */
};

#define RCUVET_SECTION(kind, enter, exit)			\
static void rcuvet_run_##kind(struct rcuvet_section *s)	\
{								\
	enter;							\
	s->body(s);						\
	exit;							\
}

RCUVET_SECTION(rcu_read_lock, rcu_read_lock(), rcu_read_unlock())
RCUVET_SECTION(rcu_read_lock_bh, rcu_read_lock_bh(), rcu_read_unlock_bh())
RCUVET_SECTION(rcu_read_lock_sched, rcu_read_lock_sched(), rcu_read_unlock_sched())
RCUVET_SECTION(rcu_read_lock_sched_notrace, rcu_read_lock_sched_notrace(),
	       rcu_read_unlock_sched_notrace())
RCUVET_SECTION(preempt_disable, preempt_disable(), preempt_enable())
RCUVET_SECTION(local_bh_disable, local_bh_disable(), local_bh_enable())
RCUVET_SECTION(local_irq_disable, local_irq_disable(), local_irq_enable())
RCUVET_SECTION(local_irq_save, local_irq_save(s->flags), local_irq_restore(s->flags))

/*
 * Locks, for the suites that check what each preemption model makes of
 * them (rcuvet_rt, and rcuvet_consol's preempted readers): on PREEMPT_RT
 * spin_lock() and local_lock() enter rcu_read_lock() and stay
 * preemptible, elsewhere they disable preemption, which the table's
 * preempt_disable row covers.
 */
static DEFINE_SPINLOCK(rcuvet_spinlock);
static DEFINE_PER_CPU(local_lock_t, rcuvet_local_lock) = INIT_LOCAL_LOCK(rcuvet_local_lock);

RCUVET_SECTION(spin_lock, spin_lock(&rcuvet_spinlock), spin_unlock(&rcuvet_spinlock))
RCUVET_SECTION(local_lock, local_lock(&rcuvet_local_lock), local_unlock(&rcuvet_local_lock))

/*
 * A handler runs the body only if it did not interrupt an rcu_read_lock()
 * reader.  Nested in one, its section would be that reader's too, which
 * every grace period waits for, v4.19's included.  A timer fires at a
 * tick, on top of whatever task then runs on the CPU (the previous
 * reader's kthread on its way out, a kworker): such a handler tries again
 * a jiffy later, and s->nested counts it.  On PREEMPT_RT a softirq
 * handler runs in a task, inside the local_bh_disable() section that
 * serves it, and a timer_list callback also under its timer base's
 * expiry_lock, a spinlock_t: both enter rcu_read_lock(), so the handler
 * is an rcu_read_lock() reader of its own whatever runs below it, and
 * nothing is checked (a hardirq handler, which may interrupt any task
 * there, still is).
 */
static bool rcuvet_handler_nested(struct rcuvet_section *s)
{
	if (IS_ENABLED(CONFIG_PREEMPT_RT) && in_serving_softirq() && !in_hardirq())
		return false;
	if (!rcu_preempt_depth())
		return false;
	s->nested++;
	return true;
}

/* A softirq handler: a timer pinned to this CPU runs the body. */
static void rcuvet_timer_fn(struct timer_list *t)
{
	struct rcuvet_section *s = from_timer(s, t, timer);

	if (rcuvet_handler_nested(s)) {
		mod_timer(&s->timer, jiffies + 1);
		return;
	}
	s->body(s);
	complete(&s->handler_done);
}

static void rcuvet_run_timer_softirq(struct rcuvet_section *s)
{
	init_completion(&s->handler_done);
	timer_setup(&s->timer, rcuvet_timer_fn, TIMER_PINNED);
	s->timer.expires = jiffies;
	add_timer_on(&s->timer, smp_processor_id());
	wait_for_completion(&s->handler_done);
	timer_shutdown_sync(&s->timer);
}

/* A hardirq handler: a hard-pinned hrtimer on this CPU runs the body. */
static enum hrtimer_restart rcuvet_hrtimer_fn(struct hrtimer *t)
{
	struct rcuvet_section *s = container_of(t, struct rcuvet_section, hrtimer);

	if (rcuvet_handler_nested(s)) {
		hrtimer_forward_now(t, ns_to_ktime(TICK_NSEC));
		return HRTIMER_RESTART;
	}
	s->body(s);
	complete(&s->handler_done);
	return HRTIMER_NORESTART;
}

static void rcuvet_run_hrtimer_hardirq(struct rcuvet_section *s)
{
	init_completion(&s->handler_done);
	hrtimer_init(&s->hrtimer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	s->hrtimer.function = rcuvet_hrtimer_fn;
	hrtimer_start(&s->hrtimer, ns_to_ktime(NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
	wait_for_completion(&s->handler_done);
	hrtimer_cancel(&s->hrtimer);
}

#define RCUVET_READER(kind, covers, v4_19_waited) \
	{ #kind, covers, rcuvet_run_##kind, v4_19_waited }

static const struct rcuvet_reader_kind rcuvet_reader_kinds[] = {
	RCUVET_READER(rcu_read_lock, "rcu_read_lock rcu_read_unlock", true),
	RCUVET_READER(rcu_read_lock_bh, "rcu_read_lock_bh rcu_read_unlock_bh", false),
	RCUVET_READER(rcu_read_lock_sched, "rcu_read_lock_sched rcu_read_unlock_sched", false),
	RCUVET_READER(rcu_read_lock_sched_notrace,
		      "rcu_read_lock_sched_notrace rcu_read_unlock_sched_notrace", false),
	RCUVET_READER(preempt_disable, "preempt_disable preempt_enable", false),
	RCUVET_READER(local_bh_disable, "local_bh_disable local_bh_enable", false),
	RCUVET_READER(local_irq_disable, "local_irq_disable local_irq_enable", false),
	RCUVET_READER(local_irq_save, "local_irq_save local_irq_restore", false),
	RCUVET_READER(timer_softirq, "softirq-handler", false),
	RCUVET_READER(hrtimer_hardirq, "hardirq-handler", false),
};

#define RCUVET_NR_READER_KINDS ARRAY_SIZE(rcuvet_reader_kinds)

/*
 * Lock readers: preempt_disable() regions, which the table's row covers,
 * but on PREEMPT_RT, where they are preemptible rcu_read_lock() readers.
 */
static const struct rcuvet_reader_kind rcuvet_lock_reader_kinds[] = {
	RCUVET_READER(spin_lock, "spin_lock spin_unlock", false),
	RCUVET_READER(local_lock, "local_lock local_unlock", false),
};

/* The reader kind called @name, in either table; NULL if none is. */
static inline const struct rcuvet_reader_kind *rcuvet_reader_kind(const char *name)
{
	unsigned int i;

	for (i = 0; i < RCUVET_NR_READER_KINDS; i++)
		if (!strcmp(rcuvet_reader_kinds[i].name, name))
			return &rcuvet_reader_kinds[i];
	for (i = 0; i < ARRAY_SIZE(rcuvet_lock_reader_kinds); i++)
		if (!strcmp(rcuvet_lock_reader_kinds[i].name, name))
			return &rcuvet_lock_reader_kinds[i];
	return NULL;
}

#endif /* _RCUVET_READERS_H */
