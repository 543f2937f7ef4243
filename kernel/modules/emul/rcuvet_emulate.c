// SPDX-License-Identifier: GPL-2.0
/*
 * rcuvet_emulate: which readers a grace period waits for, and how long it
 * takes, in a consolidated kernel and under rcutree.emulate_unconsolidated=1
 * (CONFIG_RCU_EMULATE_UNCONSOLIDATED, kernel/patches/0001-*).
 *
 * Each parameter of gp_vs_reader pairs a grace-period primitive with a
 * reader kind.  The reader, pinned to RCUVET_READER_CPU, enters its kind of
 * section, announces that it is inside and stays there until the updater's
 * primitive has returned or hold_ms has passed, whichever comes first; it
 * publishes "left" as the last thing inside.  The updater, on
 * RCUVET_UPDATER_CPU, starts the primitive once the reader is inside and
 * reads "left" the instant the primitive returns.  A grace period that
 * does not wait for the reader thus ends the reader's section early, so a
 * slow host (TCG, busy machine) only makes the test slower, never wrong,
 * as long as the grace period takes less than hold_ms.  The updater prints
 * how long the primitive took ("gp: PRIMITIVE READER MS waited|early"), for
 * docs/emulate-4.19.md.
 *
 * expect= says which readers must be waited for: "consolidated" (the
 * default, stock 6.12: all of them) or "unconsolidated" (the emulation:
 * only rcu_read_lock(); every other reader kind must see the grace period
 * end while it is inside).  Run with the wrong expect=, every pair but
 * those with rcu_read_lock() must fail: each setting is the other's
 * negative control.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include "rcuvet.h"
#include "rcuvet_readers.h"
#include "rcuvet_tree.h"

static char *expect = "consolidated";
module_param(expect, charp, 0444);
MODULE_PARM_DESC(expect, "consolidated (all readers waited for) or unconsolidated (only rcu_read_lock())");

static unsigned int hold_ms = 1000;
module_param(hold_ms, uint, 0444);
MODULE_PARM_DESC(hold_ms, "How long at most a reader stays in its critical section");

static unsigned int reps = 1;
module_param(reps, uint, 0444);
MODULE_PARM_DESC(reps, "Repetitions of each pair");

struct emu_reader {
	const struct rcuvet_reader_kind *kind;
	struct rcuvet_section sec;	/* the kind of reader it runs in */
	struct completion inside;
	struct completion done;
	bool gp_done;		/* the updater's primitive has returned */
	bool left;
};

static void emu_body(struct rcuvet_section *sec)
{
	struct emu_reader *r = container_of(sec, struct emu_reader, sec);
	unsigned int ms;

	complete(&r->inside);
	for (ms = 0; ms < hold_ms && !READ_ONCE(r->gp_done); ms++)
		mdelay(1);
	WRITE_ONCE(r->left, true);
}

struct emu_updater {
	const char *name;
	void (*wait)(void);
};

static const struct emu_updater emu_updaters[] = {
	{ "synchronize_rcu", synchronize_rcu },
	{ "synchronize_rcu_expedited", synchronize_rcu_expedited },
};

#define N_READERS RCUVET_NR_READER_KINDS
#define N_PAIRS (ARRAY_SIZE(emu_updaters) * N_READERS)

static unsigned int emu_pair_index[N_PAIRS];

static const void *emu_pair_gen(const void *prev, char *desc)
{
	const unsigned int *p = prev ? (const unsigned int *)prev + 1 :
				emu_pair_index;

	if (p == emu_pair_index + N_PAIRS)
		return NULL;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s.%s",
		 emu_updaters[*p / N_READERS].name, rcuvet_reader_kinds[*p % N_READERS].name);
	return p;
}

static int emu_reader_fn(void *arg)
{
	struct emu_reader *r = arg;

	r->kind->run(&r->sec);
	kthread_complete_and_exit(&r->done, 0);
}

static void gp_vs_reader(struct kunit *test)
{
	unsigned int pair = *(const unsigned int *)test->param_value;
	const struct emu_updater *u = &emu_updaters[pair / N_READERS];
	const struct rcuvet_reader_kind *kind = &rcuvet_reader_kinds[pair % N_READERS];
	bool unconsolidated = !strcmp(expect, "unconsolidated");
	bool must_wait = !unconsolidated || kind->v4_19_waited;
	unsigned int i, early = 0;
	struct task_struct *t;
	struct emu_reader *r;
	char covers[128];
	s64 us;

	snprintf(covers, sizeof(covers), "%s %s", u->name, kind->covers);
	rcuvet_covers(test, covers);
	KUNIT_ASSERT_TRUE_MSG(test, unconsolidated || !strcmp(expect, "consolidated"),
			      "expect=%s: say consolidated or unconsolidated", expect);
	rcuvet_pin_updater(test);
	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);

	for (i = 0; i < reps; i++) {
		ktime_t t0;
		bool left;

		memset(r, 0, sizeof(*r));
		r->kind = kind;
		init_completion(&r->inside);
		r->sec.body = emu_body;
		init_completion(&r->done);
		t = kthread_run_on_cpu(emu_reader_fn, r, RCUVET_READER_CPU,
				       "rcuvet_emulate/%u");
		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(t), "cannot start the reader");
		wait_for_completion(&r->inside);
		t0 = ktime_get();
		u->wait();
		left = READ_ONCE(r->left);
		us = ktime_us_delta(ktime_get(), t0);
		WRITE_ONCE(r->gp_done, true);
		wait_for_completion(&r->done);
		early += !left;
		if (r->sec.nested)
			kunit_info(test, "the %s handler tried %u times inside an rcu_read_lock() reader first",
				   kind->name, r->sec.nested);
		kunit_info(test, "gp: %s %s %lld.%03lld ms %s", u->name, kind->name,
			   us / 1000, us % 1000, left ? "waited" : "early");
	}
	if (must_wait)
		KUNIT_EXPECT_EQ_MSG(test, early, 0,
				    "%u of %u grace periods ended while the %s reader was inside (expect=%s)",
				    early, reps, kind->name, expect);
	else
		KUNIT_EXPECT_EQ_MSG(test, early, reps,
				    "%u of %u grace periods waited for the %s reader (expect=%s)",
				    reps - early, reps, kind->name, expect);
}

static struct kunit_case emu_cases[] = {
	KUNIT_CASE_PARAM_ATTR(gp_vs_reader, emu_pair_gen, { .speed = KUNIT_SPEED_SLOW }),
	{}
};

static int emu_suite_init(struct kunit_suite *suite)
{
	unsigned int i;

	for (i = 0; i < N_PAIRS; i++)
		emu_pair_index[i] = i;
	return 0;
}

static struct kunit_suite emu_suite = {
	.name = "rcuvet_emulate",
	.suite_init = emu_suite_init,
	.test_cases = emu_cases,
};
kunit_test_suite(emu_suite);

MODULE_DESCRIPTION("rcuvet: grace periods and reader kinds, consolidated or emulating v4.19");
MODULE_LICENSE("GPL");
