// SPDX-License-Identifier: GPL-2.0
/*
 * rcuvet_reader: preemptible RCU's own bookkeeping of a reader, the state
 * that rcu_read_lock() and rcu_read_unlock() keep and that every grace
 * period relies on (PREEMPT_RCU only; skipped otherwise).
 *
 * A reader kthread on RCUVET_READER_CPU enters @depth nested
 * rcu_read_lock() sections and is then preempted inside, by a FIFO
 * kthread on its CPU that it wakes ("switched" cases), or by a
 * preemption that picks it again at once ("in_place").  Each case then checks, in the order
 * they happen:
 *
 *  - the preemptor's own rcu_preempt_depth() is 0: the nesting depth
 *    belongs to the task, not to the CPU it ran on (with
 *    CONFIG_RCU_INLINE_READ_LOCK it is per CPU and switched with the task,
 *    kernel/patches/0007-*);
 *  - the reader, back, sees its depth unchanged, on the preemptor's CPU
 *    or, "switched_migrated", on the updater's CPU where the preemptor
 *    moved it;
 *  - rcu_note_context_switch() queued it: ->rcu_read_unlock_special's
 *    blocked bit is set and it is on its rcu_node's blocked-tasks list,
 *    which every normal and expedited grace period waits for;
 *  - its outermost rcu_read_unlock() took the slow path: depth 0, no
 *    special bit left, off the list.  A task left on the list would hold
 *    every later grace period.
 *
 * Nothing here waits for a race to be won: the preemptor runs when the
 * reader wakes it or at the reader's next tick at the latest, and the
 * reader spins inside its section until the preemptor says it ran, so a
 * preemption inside the section is proven, not hoped for.  The reader is
 * SCHED_FIFO below the preemptor, so that no normal task runs instead
 * when it is preempted in place; "in_place" still enters a new section
 * until its preemption picks the reader again (no involuntary switch
 * counted), and fails if that never happens.
 *
 * Other paths can do the outermost unlock's work and so hide a reader
 * that a broken unlock left queued: a tick, a switch, an interrupt or a
 * softirq between the outermost rcu_read_unlock() and the checks that
 * follow (reader_stamp() counts them), or a special bit besides blocked
 * (a tick's need_qs, an expedited grace period's hint) set before the
 * unlock, whose slow path then runs anyway.  A try that passed with one
 * of those is run again, READER_REDOS times at most, and fails as
 * inconclusive if every run had one; state left behind fails at once.
 * Needs a kernel that preempts at once (preempt=full): skipped otherwise.
 *
 * Kernel mutants: inline-switch-forgets-special,
 * inline-ctxsw-special-unflagged (kernel/patches/mutants/).
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/kernel_stat.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/task.h>
#include "rcuvet.h"

/* Sections "in_place" enters at most to be preempted in place once. */
#define READER_INPLACE_TRIES 100
/* Reruns of a try at most while another path may have done its work. */
#define READER_REDOS 10

static unsigned int reps = 1;
module_param(reps, uint, 0444);
MODULE_PARM_DESC(reps, "Tries of each case");

static bool tick_in_window;
module_param(tick_in_window, bool, 0444);
MODULE_PARM_DESC(tick_in_window,
		 "Negative control: wait for a tick (or an interrupt, a switch) between the outermost rcu_read_unlock() and its checks, 10 s at most (every case must fail, inconclusive)");

struct reader_case {
	const char *name;
	unsigned int depth;	/* nested rcu_read_lock() sections */
	bool migrate;		/* the preemptor moves the reader to CPU 0 */
	bool in_place;		/* preempted, then picked again: no switch */
};

static const struct reader_case reader_cases[] = {
	{ .name = "switched", .depth = 1 },
	{ .name = "switched_nested", .depth = 3 },
	{ .name = "switched_migrated", .depth = 3, .migrate = true },
	{ .name = "in_place", .depth = 2, .in_place = true },
};

static void reader_case_desc(const struct reader_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(reader_case, reader_cases, reader_case_desc);

/* What the reader and its preemptor saw, in the order they saw it. */
struct reader_try {
	const struct reader_case *c;
	struct task_struct *reader;
	struct task_struct *preemptor;
	struct completion done;
	bool preempted;		/* set by the preemptor, inside the section */
	int move_ret;		/* set_cpus_allowed_ptr() of the reader */
	int preemptor_depth;	/* the preemptor's own rcu_preempt_depth() */
	int depth_in;		/* reader: before the preemption */
	int depth_back;		/* reader: after it */
	int cpu_back;
	bool blocked;		/* ->rcu_read_unlock_special.b.blocked */
	bool queued;		/* on the blocked-tasks list */
	unsigned int tries;	/* sections entered */
	int depth_out;		/* after the outermost rcu_read_unlock() */
	u32 special_out;
	bool queued_out;
	/*
	 * Another path may have done the outermost unlock's work: a special
	 * bit besides blocked was set before it (its slow path runs anyway)
	 * or the stamp moved between the unlocks and the checks.
	 */
	bool masked;
};

/* The running task's PREEMPT_RCU state (the cases skip without it). */
#ifdef CONFIG_PREEMPT_RCU
static bool reader_blocked(void)
{
	return READ_ONCE(current->rcu_read_unlock_special.b.blocked);
}

static u32 reader_special(void)
{
	return READ_ONCE(current->rcu_read_unlock_special.s);
}

/* A special bit besides blocked: a tick's need_qs, an expedited hint. */
static bool reader_hinted(void)
{
	union rcu_special s = { .s = reader_special() };

	return s.b.need_qs || s.b.exp_hint || s.b.need_mb;
}

static bool reader_queued(void)
{
	return !list_empty(&current->rcu_node_entry);
}
#else
static bool reader_blocked(void) { return false; }
static u32 reader_special(void) { return 0; }
static bool reader_hinted(void) { return false; }
static bool reader_queued(void) { return false; }
#endif

static int reader_preemptor_fn(void *arg)
{
	struct reader_try *r = arg;

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
		if (kthread_should_stop())
			break;
		/* Woken by the reader, inside its section: it is preempted. */
		r->preemptor_depth = rcu_preempt_depth();
		if (r->c->migrate)
			r->move_ret = set_cpus_allowed_ptr(r->reader, cpumask_of(RCUVET_UPDATER_CPU));
		/* What it saw and did before the reader may read it. */
		smp_store_release(&r->preempted, true);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/*
 * Preempt the caller: true if the scheduler picked it again (no
 * involuntary switch counted), so that no other task ran in between.
 */
static bool reader_preempt_in_place(void)
{
	unsigned long nivcsw = current->nivcsw;

	preempt_disable();
	set_tsk_need_resched(current);
	set_preempt_need_resched();
	preempt_enable();	/* preempt_schedule(): rcu_note_context_switch() */
	return current->nivcsw == nivcsw;
}

static void reader_inside(struct reader_try *r)
{
	r->depth_in = rcu_preempt_depth();
	if (r->c->in_place) {
		r->preempted = reader_preempt_in_place();
	} else {
		wake_up_process(r->preemptor);
		/* The FIFO preemptor runs now, or at the next tick. */
		while (!smp_load_acquire(&r->preempted))	/* Pairs with the preemptor's. */
			cpu_relax();
	}
	r->depth_back = rcu_preempt_depth();
	r->cpu_back = raw_smp_processor_id();
	r->blocked = reader_blocked();
	r->queued = reader_queued();
}

/*
 * What moves when anything could report the reader's deferred quiescent
 * state in the window after its outermost rcu_read_unlock(): a tick
 * counted to it (its stime, by tick-based accounting), a switch (its
 * switch counts), an interrupt on its CPU (device interrupts; on x86 also
 * the local timer, irq_work, and the reschedule and function-call IPIs,
 * an expedited grace period's among them: an interrupt can also set
 * need_resched for a preemption that picks the reader again, which no
 * switch count shows) or a softirq run there (RCU's).  All only grow, so
 * their sum moves with any.
 */
static u64 reader_stamp(void)
{
	int cpu = raw_smp_processor_id(), i;
	u64 stamp = READ_ONCE(current->stime) + READ_ONCE(current->nvcsw) +
		    READ_ONCE(current->nivcsw) + kstat_cpu_irqs_sum(cpu);

	/* kstat_cpu_softirqs_sum(), which 6.1 lacks */
	for (i = 0; i < NR_SOFTIRQS; i++)
		stamp += kstat_softirqs_cpu(i, cpu);

#ifdef CONFIG_X86
	stamp += READ_ONCE(per_cpu(irq_stat, cpu).apic_irq_work_irqs);
#ifdef CONFIG_X86_LOCAL_APIC
	stamp += READ_ONCE(per_cpu(irq_stat, cpu).apic_timer_irqs);
#endif
#ifdef CONFIG_SMP
	stamp += READ_ONCE(per_cpu(irq_stat, cpu).irq_resched_count) +
		 READ_ONCE(per_cpu(irq_stat, cpu).irq_call_count);
#endif
#endif
	return stamp;
}

/*
 * The negative control's wait: until the stamp moved since @stamp (a
 * tick at the latest), ten seconds at most by the local clock (a vCPU
 * stalled longer than that could end it first; RT throttling bounds this
 * SCHED_FIFO spin meanwhile).
 */
static void reader_wait_tick(u64 stamp)
{
	u64 end = local_clock() + 10 * NSEC_PER_SEC;

	while (reader_stamp() == stamp && local_clock() < end)
		cpu_relax();
}

/*
 * One section a try; "in_place" enters a new one until its preemption
 * picked the reader again.
 */
static int reader_fn(void *arg)
{
	struct reader_try *r = arg;
	unsigned int i;
	bool hinted;
	u64 stamp;

	do {
		r->tries++;
		for (i = 0; i < r->c->depth; i++)
			rcu_read_lock();
		reader_inside(r);
		stamp = reader_stamp();
		hinted = reader_hinted();
		for (i = 0; i < r->c->depth; i++)
			rcu_read_unlock();
		if (tick_in_window)
			reader_wait_tick(stamp);
		r->depth_out = rcu_preempt_depth();
		r->special_out = reader_special();
		r->queued_out = reader_queued();
		r->masked = hinted || reader_stamp() != stamp;
	} while (!r->preempted && r->tries < READER_INPLACE_TRIES);
	complete(&r->done);
	return 0;
}

static struct task_struct *reader_start(struct kunit *test, struct reader_try *r,
					int (*fn)(void *), const char *name)
{
	struct task_struct *t = kthread_create(fn, r, "%s", name);

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(t), "cannot start %s", name);
	get_task_struct(t);
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(t, cpumask_of(RCUVET_READER_CPU)), 0);
	return t;
}

/* The first check of a try that did not hold, or NULL. */
static const char *reader_judge(const struct reader_try *r)
{
	const struct reader_case *c = r->c;

	if (!r->preempted)
		return "never preempted in place: another task ran each time";
	if (r->depth_in != c->depth)
		return "wrong depth inside the section";
	if (!c->in_place && r->preemptor_depth)
		return "the preemptor, on the reader's CPU, saw the reader's depth as its own";
	if (r->depth_back != c->depth)
		return "depth changed by the preemption";
	if (c->migrate && (r->move_ret || r->cpu_back != RCUVET_UPDATER_CPU))
		return "the reader was not moved while preempted";
	if (!r->blocked)
		return "preempted inside rcu_read_lock(), yet not marked blocked";
	if (!r->queued)
		return "preempted inside rcu_read_lock(), yet not on the blocked-tasks list";
	if (r->depth_out)
		return "depth not 0 after the outermost rcu_read_unlock()";
	if (r->special_out)
		return "->rcu_read_unlock_special left set by the outermost rcu_read_unlock()";
	if (r->queued_out)
		return "still on the blocked-tasks list after the outermost rcu_read_unlock(): every later grace period would wait for it";
	if (r->masked)
		return "inconclusive: in every run another path may have done the outermost unlock's work";
	return NULL;
}

/*
 * A try that passed only because another path may have done the unlock's
 * work: run it again.  State left behind is a failure whatever else ran,
 * since those paths only clear it.
 */
static bool reader_masked(const struct reader_try *r)
{
	return r->masked && !r->special_out && !r->queued_out;
}

/* One try: a reader and its preemptor, started, run and stopped. */
static void reader_run(struct kunit *test, struct reader_try *r)
{
	init_completion(&r->done);
	r->preemptor = reader_start(test, r, reader_preemptor_fn, "rcuvet_rpreempt");
	sched_set_fifo(r->preemptor);
	wake_up_process(r->preemptor);	/* to its first sleep */
	r->reader = reader_start(test, r, reader_fn, "rcuvet_reader");
	/* Below the preemptor, above any normal task that could run instead. */
	sched_set_fifo_low(r->reader);
	wake_up_process(r->reader);
	wait_for_completion(&r->done);
	kthread_stop(r->reader);
	put_task_struct(r->reader);
	kthread_stop(r->preemptor);
	put_task_struct(r->preemptor);
}

static void preempted_reader(struct kunit *test)
{
	const struct reader_case *c = test->param_value;
	unsigned int i, redo, failed = 0, sections = 0, redone = 0;
	const char *why, *first = NULL;
	struct reader_try *r;

	if (!IS_ENABLED(CONFIG_PREEMPT_RCU))
		rcuvet_skip(test, "rcu_read_lock() readers are preemptible only with PREEMPT_RCU");
	/* A wakeup and preempt_enable() preempt at once only then. */
	if (!preempt_model_preemptible())
		rcuvet_skip(test, "the kernel does not preempt at once (preempt=%s)",
			    preempt_model_none() ? "none" : "voluntary");
	rcuvet_covers(test, "rcu_read_lock rcu_read_unlock");
	rcuvet_pin_updater(test);
	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	for (i = 0; i < reps; i++) {
		for (redo = 0;; redo++) {
			memset(r, 0, sizeof(*r));
			r->c = c;
			reader_run(test, r);
			sections += r->tries;
			if (!reader_masked(r) || redo == READER_REDOS)
				break;
		}
		redone += redo;
		why = reader_judge(r);
		if (why) {
			failed++;
			first = first ?: why;
		}
	}
	if (sections > reps + redone)
		kunit_info(test, "%u sections for %u runs: a preemption in place was not always one",
			   sections, reps + redone);
	if (redone)
		kunit_info(test, "%u reruns: a tick, switch, interrupt or softirq fell between the outermost rcu_read_unlock() and its checks, or a special bit besides blocked was set",
			   redone);
	KUNIT_EXPECT_EQ_MSG(test, failed, 0, "%u of %u tries failed, the first: %s",
			    failed, reps, first);
}

static struct kunit_case reader_test_cases[] = {
	KUNIT_CASE_PARAM(preempted_reader, reader_case_gen_params),
	{}
};

static struct kunit_suite reader_suite = {
	.name = "rcuvet_reader",
	.test_cases = reader_test_cases,
};
kunit_test_suite(reader_suite);

MODULE_DESCRIPTION("rcuvet: preemptible RCU's bookkeeping of a preempted reader");
MODULE_LICENSE("GPL");
