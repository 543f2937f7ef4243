/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by rcuvet's test modules.
 *
 * Expected splats: the host's verdict fails a run on any kernel report
 * (WARN, lockdep, KASAN...), except those a test announced beforehand.
 * Wrap the code that must splat in rcuvet_expect_splat(count, "title") ...
 * rcuvet_end_expect(): in between, exactly COUNT reports must have that
 * title and no other report may appear.  A title is the report's first
 * line without CPU/PID, source line numbers and symbol offsets, e.g.
 * "WARNING: suspicious RCU usage", "BUG: KASAN: slab-use-after-free in
 * dev_map_enqueue_multi", "WARNING: at kernel/rcu/srcutree.c
 * cleanup_srcu_struct" ("WARNING: at FILE" for any WARN in FILE); see
 * scripts/verdict.c.  Several rcuvet_expect_splat() may open one window.
 * The markers bypass pr_fmt() so that the host sees them verbatim.
 *
 * Coverage: rcuvet_covers(test, "member ...") names the API members the
 * running test case (or parameter) exercises; the verdict copies them into
 * results.tsv, from which docs/api-coverage.md is generated.
 *
 * Cross-CPU checks: the test runs on RCUVET_UPDATER_CPU and its readers on
 * RCUVET_READER_CPU; rcuvet_pin_updater() fails the test if that is not
 * possible, so that no check passes because both share one CPU.
 *
 * Negative controls hold by construction, not by the host's speed: a
 * mutant reader that left its section early (or that a mutant updater
 * ignores) says "left" only once the update primitive has returned, so the
 * primitive finds "left" clear however slow the host.  The updater marks
 * the return with rcuvet_signal(), after it read "left"; the reader waits
 * for it with rcuvet_wait_for(), sleeping, however long that takes (a
 * primitive that never returns ends at the plan's boot limit, failed).
 */
#ifndef RCUVET_H
#define RCUVET_H

#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/printk.h>
#include <linux/sched.h>

#define rcuvet_expect_splat(count, title) \
	printk(KERN_INFO "rcuvet: expect-splat %d %s\n", (int)(count), title)
#define rcuvet_end_expect() printk(KERN_INFO "rcuvet: end-expect\n")

#define rcuvet_covers(test, members) kunit_info(test, "covers: %s", members)

/*
 * Skip the running case or parameter, saying why.  The reason is logged
 * first, "rcuvet-skip: REASON", for the verdict: 6.1's KUnit prints a
 * skipped parameter as a plain "ok", without its "# SKIP" directive.
 */
#define rcuvet_skip(test, fmt, ...)					\
	do {								\
		struct kunit *__test = (test);				\
									\
		kunit_info(__test, "rcuvet-skip: " fmt, ##__VA_ARGS__);	\
		kunit_skip(__test, fmt, ##__VA_ARGS__);			\
	} while (0)

/* PREEMPT_RT: bh and spinlock_t sections are preemptible rcu_read_lock()s. */
#define ON_RT IS_ENABLED(CONFIG_PREEMPT_RT)

#define RCUVET_UPDATER_CPU 0
#define RCUVET_READER_CPU 1

static inline void rcuvet_pin_updater(struct kunit *test)
{
	KUNIT_ASSERT_TRUE_MSG(test, cpu_online(RCUVET_READER_CPU),
			      "cross-CPU checks need CPU %d online",
			      RCUVET_READER_CPU);
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current,
			cpumask_of(RCUVET_UPDATER_CPU)), 0);
}

/* Move the calling task to @cpu, and check that it runs there. */
static inline void rcuvet_move_to(struct kunit *test, int cpu)
{
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(cpu)), 0);
	KUNIT_ASSERT_EQ(test, raw_smp_processor_id(), cpu);
}

/*
 * A case parameter barrier_cpu (barrier_cpu_gen_params): the CPU a
 * barrier runs on, the updater's and the reader's in turn, so that a
 * barrier that waits only for its own CPU's callbacks fails one of them.
 */
#define RCUVET_DEFINE_BARRIER_CPU_PARAM()					\
static const int barrier_cpus[] = { RCUVET_UPDATER_CPU, RCUVET_READER_CPU };	\
static void barrier_cpu_desc(const int *cpu, char *desc)			\
{										\
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "barrier_on_cpu%d", *cpu);	\
}										\
KUNIT_ARRAY_PARAM(barrier_cpu, barrier_cpus, barrier_cpu_desc)

static inline void rcuvet_signal(bool *flag)
{
	smp_store_release(flag, true);
}

static inline void rcuvet_wait_for(const bool *flag)
{
	while (!smp_load_acquire(flag))
		msleep(1);
}

#endif /* RCUVET_H */
