// SPDX-License-Identifier: GPL-2.0
/*
 * rcuvet_generic: the article's "Generic" column, the RCU API members that
 * apply to every flavor: pointer initialization, publication and access,
 * rcu_head debugging, and lockdep validation.
 *
 * Where a member's promise is a lockdep or debug-objects report (an
 * unprotected rcu_dereference_protected(), RCU_LOCKDEP_WARN(),
 * rcu_sleep_check(), a double call_rcu()), the case announces the splat it
 * causes and the host's verdict checks that exactly that splat appeared;
 * where the promise is silence, any splat fails the run.
 *
 * mutant=unlocked is the negative control: the "protected" access runs
 * without the mutex its lockdep condition names, and the run must fail for
 * the unannounced "suspicious RCU usage".
 */
#include <kunit/test.h>
#include <linux/cleanup.h>
#include <linux/completion.h>
#include <linux/context_tracking.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/srcu.h>
#include "rcuvet.h"
#include "rcuvet_tree.h"

static char *mutant = "";
module_param(mutant, charp, 0444);
MODULE_PARM_DESC(mutant, "unlocked: rcu_dereference_protected() without its lock");

static unsigned int publish_ms = 200;
module_param(publish_ms, uint, 0444);
MODULE_PARM_DESC(publish_ms, "How long the publication case runs");

struct gen_obj {
	unsigned long gen;
	unsigned long check;	/* ~gen, written before publication */
	struct rcu_head rh;
};

static DEFINE_MUTEX(gen_lock);
static struct gen_obj gen_static = { .gen = 1, .check = ~1UL };
static struct gen_obj __rcu *gen_ptr;

struct gen_holder {
	struct gen_obj __rcu *p;
};

static struct gen_holder gen_holder = {
	RCU_POINTER_INITIALIZER(p, &gen_static),
};

static void gen_init_pointer(struct kunit *test)
{
	struct gen_obj __rcu *p;

	rcuvet_covers(test,
		      "RCU_INIT_POINTER RCU_POINTER_INITIALIZER RCU_INITIALIZER rcu_access_pointer");
	RCU_INIT_POINTER(p, NULL);
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(p));
	RCU_INIT_POINTER(p, &gen_static);
	KUNIT_EXPECT_PTR_EQ(test, rcu_access_pointer(p), &gen_static);
	KUNIT_EXPECT_PTR_EQ(test, rcu_access_pointer(gen_holder.p), &gen_static);
	p = RCU_INITIALIZER(&gen_static);
	KUNIT_EXPECT_PTR_EQ(test, rcu_access_pointer(p), &gen_static);
}

/*
 * Publication: a reader on the other CPU dereferences the pointer in a
 * tight loop while the updater publishes freshly initialized objects with
 * rcu_assign_pointer() and frees the old ones after a grace period.  The
 * reader must never see an object whose fields are not both set, nor a
 * generation that goes backwards.
 *
 * On x86-64 (TSO) stores are not reordered with older stores, so an
 * rcu_assign_pointer() that were a plain WRITE_ONCE() would pass too: the
 * case does not claim rcu_assign_pointer() (docs/api-members.tsv says
 * why), only the read side and rcu_replace_pointer()'s return value.
 */
struct gen_reader {
	struct completion done;
	bool stop;
	unsigned long passes, torn, backwards;
};

static int gen_reader_fn(void *arg)
{
	struct gen_reader *r = arg;
	unsigned long last = 0;

	while (!READ_ONCE(r->stop)) {
		struct gen_obj *o;

		rcu_read_lock();
		o = rcu_dereference(gen_ptr);
		if (o) {
			if (o->check != ~o->gen)
				r->torn++;
			if (o->gen < last)
				r->backwards++;
			last = o->gen;
		}
		rcu_read_unlock();
		r->passes++;
		cond_resched();
	}
	kthread_complete_and_exit(&r->done, 0);
}

static void gen_assign_pointer(struct kunit *test)
{
	struct gen_reader *r;
	struct task_struct *t;
	unsigned long gen = 0, deadline;
	struct gen_obj *o, *old;

	rcuvet_covers(test,
		      "rcu_dereference rcu_replace_pointer rcu_dereference_protected");
	rcuvet_pin_updater(test);
	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	init_completion(&r->done);
	t = kthread_run_on_cpu(gen_reader_fn, r, RCUVET_READER_CPU, "rcuvet_gen/%u");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));

	deadline = jiffies + msecs_to_jiffies(publish_ms);
	while (time_before(jiffies, deadline)) {
		o = kmalloc(sizeof(*o), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, o);
		o->gen = ++gen;
		o->check = ~o->gen;
		mutex_lock(&gen_lock);
		if (gen & 1) {
			old = rcu_dereference_protected(gen_ptr,
							lockdep_is_held(&gen_lock));
			rcu_assign_pointer(gen_ptr, o);
		} else {
			old = rcu_replace_pointer(gen_ptr, o,
						  lockdep_is_held(&gen_lock));
		}
		mutex_unlock(&gen_lock);
		if (old)
			kfree_rcu(old, rh);
	}
	WRITE_ONCE(r->stop, true);
	wait_for_completion(&r->done);
	mutex_lock(&gen_lock);
	old = rcu_replace_pointer(gen_ptr, NULL, lockdep_is_held(&gen_lock));
	mutex_unlock(&gen_lock);
	kfree_rcu(old, rh);
	kunit_info(test, "%lu publications, %lu reader passes", gen, r->passes);
	KUNIT_EXPECT_GT(test, r->passes, 0UL);
	KUNIT_EXPECT_EQ(test, r->torn, 0UL);
	KUNIT_EXPECT_EQ(test, r->backwards, 0UL);
}

/* rcu_replace_pointer() returns the old value and stores the new one. */
static void gen_replace_pointer(struct kunit *test)
{
	struct gen_obj a = { .gen = 2 }, b = { .gen = 3 }, *old;
	struct gen_obj __rcu *p = RCU_INITIALIZER(&a);

	rcuvet_covers(test, "rcu_replace_pointer unrcu_pointer rcu_pointer_handoff");
	mutex_lock(&gen_lock);
	old = rcu_replace_pointer(p, &b, lockdep_is_held(&gen_lock));
	mutex_unlock(&gen_lock);
	KUNIT_EXPECT_PTR_EQ(test, old, &a);
	KUNIT_EXPECT_PTR_EQ(test, unrcu_pointer(p), &b);
	rcu_read_lock();
	old = rcu_pointer_handoff(rcu_dereference(p));
	rcu_read_unlock();
	KUNIT_EXPECT_PTR_EQ(test, old, &b);
}

/* The update side: silent with the lock held, a report without it. */
static void gen_dereference_protected(struct kunit *test)
{
	struct gen_obj *o;

	rcuvet_covers(test, "rcu_dereference_protected lockdep_is_held");
	if (strcmp(mutant, "unlocked"))
		mutex_lock(&gen_lock);
	o = rcu_dereference_protected(gen_holder.p, lockdep_is_held(&gen_lock));
	if (strcmp(mutant, "unlocked"))
		mutex_unlock(&gen_lock);
	KUNIT_EXPECT_PTR_EQ(test, o, &gen_static);
}

static void gen_dereference_protected_unlocked_splats(struct kunit *test)
{
	struct gen_obj *o;

	rcuvet_covers(test, "rcu_dereference_protected");
	rcuvet_expect_splat(1, "WARNING: suspicious RCU usage");
	o = rcu_dereference_protected(gen_holder.p, lockdep_is_held(&gen_lock));
	rcuvet_end_expect();
	KUNIT_EXPECT_PTR_EQ(test, o, &gen_static);
}

/* Outside any reader: the raw and _check(.., true) forms stay silent. */
static void gen_dereference_raw(struct kunit *test)
{
	rcuvet_covers(test, "rcu_dereference_raw rcu_dereference_raw_check rcu_dereference_check");
	KUNIT_EXPECT_PTR_EQ(test, rcu_dereference_raw(gen_holder.p), &gen_static);
	KUNIT_EXPECT_PTR_EQ(test, rcu_dereference_raw_check(gen_holder.p),
			    &gen_static);
	mutex_lock(&gen_lock);
	KUNIT_EXPECT_PTR_EQ(test, rcu_dereference_check(gen_holder.p,
							lockdep_is_held(&gen_lock)),
			    &gen_static);
	mutex_unlock(&gen_lock);
}

static void gen_dereference_outside_splats(struct kunit *test)
{
	struct gen_obj *o;

	rcuvet_covers(test, "rcu_dereference");
	rcuvet_expect_splat(1, "WARNING: suspicious RCU usage");
	o = rcu_dereference(gen_holder.p);
	rcuvet_end_expect();
	KUNIT_EXPECT_PTR_EQ(test, o, &gen_static);
}

struct gen_cb {
	struct rcu_head rh;
	bool ran;
};

static void gen_cb_fn(struct rcu_head *rh)
{
	WRITE_ONCE(container_of(rh, struct gen_cb, rh)->ran, true);
}

/* An annotated on-stack rcu_head goes through call_rcu() silently. */
static void gen_rcu_head_on_stack(struct kunit *test)
{
	struct gen_cb cb = { };

	rcuvet_covers(test,
		      "init_rcu_head_on_stack destroy_rcu_head_on_stack call_rcu rcu_barrier");
	init_rcu_head_on_stack(&cb.rh);
	call_rcu(&cb.rh, gen_cb_fn);
	rcu_barrier();
	destroy_rcu_head_on_stack(&cb.rh);
	KUNIT_EXPECT_TRUE(test, cb.ran);
}

/*
 * With DEBUG_OBJECTS_RCU_HEAD, passing an rcu_head that is still queued to
 * call_rcu() again is caught: debug objects reports it twice (the head is
 * already active, and already queued: two WARNs in lib/debugobjects.c) and
 * RCU leaks the callback instead of corrupting its lists.
 */
static void gen_double_call_rcu_caught(struct kunit *test)
{
	struct gen_cb *cb = kzalloc(sizeof(*cb), GFP_KERNEL);

	rcuvet_covers(test, "init_rcu_head destroy_rcu_head call_rcu");
	KUNIT_ASSERT_NOT_NULL(test, cb);
	if (!IS_ENABLED(CONFIG_DEBUG_OBJECTS_RCU_HEAD)) {
		kfree(cb);
		rcuvet_skip(test, "needs CONFIG_DEBUG_OBJECTS_RCU_HEAD");
	}
	init_rcu_head(&cb->rh);
	rcu_read_lock();
	call_rcu(&cb->rh, gen_cb_fn);
	rcuvet_expect_splat(2, "WARNING: at lib/debugobjects.c");
	call_rcu(&cb->rh, gen_cb_fn);
	rcuvet_end_expect();
	rcu_read_unlock();
	rcu_barrier();
	destroy_rcu_head(&cb->rh);
	/* The first callback became the leak callback: it never ran ours. */
	KUNIT_EXPECT_FALSE(test, cb->ran);
	kfree(cb);
}

static void gen_head_after_call_rcu(struct kunit *test)
{
	struct gen_cb *cb = kzalloc(sizeof(*cb), GFP_KERNEL);

	rcuvet_covers(test, "rcu_head_init rcu_head_after_call_rcu");
	KUNIT_ASSERT_NOT_NULL(test, cb);
	rcu_head_init(&cb->rh);
	KUNIT_EXPECT_FALSE(test, rcu_head_after_call_rcu(&cb->rh, gen_cb_fn));
	/* The reader keeps the callback from running while we look. */
	rcu_read_lock();
	call_rcu(&cb->rh, gen_cb_fn);
	KUNIT_EXPECT_TRUE(test, rcu_head_after_call_rcu(&cb->rh, gen_cb_fn));
	rcu_read_unlock();
	rcu_barrier();
	KUNIT_EXPECT_TRUE(test, cb->ran);
	kfree(cb);
}

/*
 * RCU watches a task, with interrupts on or off, and stops watching a CPU
 * that entered the idle extended quiescent state, as cpuidle drivers make
 * it do with ct_idle_enter(): nothing between that and ct_idle_exit() may
 * use RCU, and rcu_is_watching() (noinstr) is what may tell.
 */
static void gen_rcu_is_watching(struct kunit *test)
{
	bool in_irq_off, in_idle, after_idle;

	rcuvet_covers(test, "rcu_is_watching");
	KUNIT_EXPECT_TRUE(test, rcu_is_watching());
	local_irq_disable();
	in_irq_off = rcu_is_watching();
	ct_idle_enter();
	in_idle = rcu_is_watching();
	ct_idle_exit();
	after_idle = rcu_is_watching();
	local_irq_enable();
	KUNIT_EXPECT_TRUE(test, in_irq_off);
	KUNIT_EXPECT_FALSE_MSG(test, in_idle, "RCU watches a CPU in its idle EQS");
	KUNIT_EXPECT_TRUE(test, after_idle);
}

static void gen_lockdep_warn(struct kunit *test)
{
	rcuvet_covers(test, "RCU_LOCKDEP_WARN");
	/* A false condition is silent; a true one is reported. */
	RCU_LOCKDEP_WARN(false, "rcuvet: must not be reported");
	rcuvet_expect_splat(1, "WARNING: suspicious RCU usage");
	RCU_LOCKDEP_WARN(true, "rcuvet: deliberate RCU_LOCKDEP_WARN");
	rcuvet_end_expect();
}

DEFINE_STATIC_SRCU(gen_srcu);

/*
 * rcu_sleep_check() complains inside rcu_read_lock_bh() and
 * rcu_read_lock_sched(), and inside rcu_read_lock() only where it is not
 * preemptible (with PREEMPT_RCU sleeping there is no longer illegal to
 * this check); never inside SRCU, which may sleep.
 */
static void gen_sleep_check(struct kunit *test)
{
	int idx;

	rcuvet_covers(test, "rcu_sleep_check");
	rcu_sleep_check();
	idx = srcu_read_lock(&gen_srcu);
	rcu_sleep_check();
	srcu_read_unlock(&gen_srcu, idx);

	/* On PREEMPT_RT rcu_read_lock_bh() is preemptible: no complaint. */
	if (!IS_ENABLED(CONFIG_PREEMPT_RT))
		rcuvet_expect_splat(1, "WARNING: suspicious RCU usage");
	rcu_read_lock_bh();
	rcu_sleep_check();
	rcu_read_unlock_bh();
	if (!IS_ENABLED(CONFIG_PREEMPT_RT))
		rcuvet_end_expect();

	if (IS_ENABLED(CONFIG_PREEMPT_RCU)) {
		rcu_read_lock();
		rcu_sleep_check();
		rcu_read_unlock();
	} else {
		rcuvet_expect_splat(1, "WARNING: suspicious RCU usage");
		rcu_read_lock();
		rcu_sleep_check();
		rcu_read_unlock();
		rcuvet_end_expect();
	}
}

static void gen_guards(struct kunit *test)
{
	bool in_guard = false, in_scoped = false;

	rcuvet_covers(test, "guard(rcu) scoped_guard(rcu)");
	KUNIT_EXPECT_FALSE(test, rcu_read_lock_held());
	scoped_guard(rcu)
		in_scoped = rcu_read_lock_held();
	KUNIT_EXPECT_TRUE(test, in_scoped);
	KUNIT_EXPECT_FALSE(test, rcu_read_lock_held());
	{
		guard(rcu)();
		in_guard = rcu_read_lock_held();
	}
	KUNIT_EXPECT_TRUE(test, in_guard);
	KUNIT_EXPECT_FALSE(test, rcu_read_lock_held());
}

static struct kunit_case gen_cases[] = {
	KUNIT_CASE(gen_init_pointer),
	KUNIT_CASE_SLOW(gen_assign_pointer),
	KUNIT_CASE(gen_replace_pointer),
	KUNIT_CASE(gen_dereference_protected),
	KUNIT_CASE(gen_dereference_protected_unlocked_splats),
	KUNIT_CASE(gen_dereference_raw),
	KUNIT_CASE(gen_dereference_outside_splats),
	KUNIT_CASE(gen_rcu_head_on_stack),
	KUNIT_CASE(gen_double_call_rcu_caught),
	KUNIT_CASE(gen_head_after_call_rcu),
	KUNIT_CASE(gen_rcu_is_watching),
	KUNIT_CASE(gen_lockdep_warn),
	KUNIT_CASE(gen_sleep_check),
	KUNIT_CASE(gen_guards),
	{}
};

static struct kunit_suite gen_suite = {
	.name = "rcuvet_generic",
	.test_cases = gen_cases,
};
kunit_test_suite(gen_suite);

MODULE_DESCRIPTION("rcuvet: the generic RCU API members");
MODULE_LICENSE("GPL");
