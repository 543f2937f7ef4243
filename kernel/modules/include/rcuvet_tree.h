/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rcuvet_tree.h: the suites on the kernel tree they are built against.
 *
 * scripts/tree-api.sh reads the tree's headers and exports and writes
 * rcuvet_tree_api.h: RCUVET_HAVE_NAME is 1 where the tree has what the
 * probe NAME looks for, 0 where it does not.  build-modules.sh puts it
 * next to this header.
 *
 * A test case that needs an API member the tree lacks starts with
 * rcuvet_need(test, NAME, "member()"): KUnit skips it, "absent from this
 * tree: member()", and the run counts it as skipped; a table row carries
 * RCUVET_ABSENT(NAME, "member()") as what it needs, NULL on a tree that
 * has the member, and its case passes it to rcuvet_skip_absent().  A
 * member the tree has is always tested.
 *
 * So that such a case still compiles, each member a probe can find absent
 * is defined here, on a tree without it, as a WARN: a case that forgot
 * its rcuvet_need() fails the run instead of testing nothing.  They are
 * macros, and this header comes after the kernel's: on a tree that has
 * the member, its declaration came first, so the suites also compile
 * against a newer tree with an older tree's probes (which is how the
 * absent paths are compile-checked).
 *
 * Last, what the KUnit and slab of older trees (6.1) lack: test
 * attributes (a slow case is then an ordinary one), deferred actions (a
 * KUnit resource runs them, or kunit_release_action() at once) and
 * SLAB_NO_MERGE.
 */
#ifndef _RCUVET_TREE_H
#define _RCUVET_TREE_H

#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/bug.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/srcu.h>

#include "rcuvet.h"
#include "rcuvet_tree_api.h"

/* What a case or row needs: NULL if the tree has it, else the skip reason. */
#define RCUVET_ABSENT(have, member) \
	(RCUVET_HAVE_##have ? NULL : "absent from this tree: " member)

/* Skip the running case if @absent (an RCUVET_ABSENT()) names a member. */
#define rcuvet_skip_absent(test, absent)				\
	do {								\
		const char *__absent = (absent);			\
									\
		if (__absent)						\
			rcuvet_skip(test, "%s", __absent);		\
	} while (0)

#define rcuvet_need(test, have, member) \
	rcuvet_skip_absent(test, RCUVET_ABSENT(have, member))

/* Where an absent member is called: a report that fails the run. */
#define rcuvet_absent_call(member) \
	((void)WARN(1, "rcuvet: %s is absent from this tree\n", member))

#if !RCUVET_HAVE_KVFREE_RCU_BARRIER
#define kvfree_rcu_barrier() rcuvet_absent_call("kvfree_rcu_barrier()")
#endif

#if !RCUVET_HAVE_CALL_RCU_HURRY
static inline void rcuvet_absent_call_rcu_hurry(struct rcu_head *head,
						rcu_callback_t func)
{
	rcuvet_absent_call("call_rcu_hurry()");
}

/* An object-like macro: the suites pass call_rcu_hurry as a pointer. */
#define call_rcu_hurry rcuvet_absent_call_rcu_hurry
#endif

/* Static in 6.12 (call_rcu_tasks_rude()) or gone (the barrier). */
#if !RCUVET_HAVE_CALL_RCU_TASKS_RUDE
static inline void rcuvet_absent_call_rcu_tasks_rude(struct rcu_head *head,
						     rcu_callback_t func)
{
	rcuvet_absent_call("call_rcu_tasks_rude()");
}

static inline void rcuvet_absent_rcu_barrier_tasks_rude(void)
{
	rcuvet_absent_call("rcu_barrier_tasks_rude()");
}

#define call_rcu_tasks_rude rcuvet_absent_call_rcu_tasks_rude
#define rcu_barrier_tasks_rude rcuvet_absent_rcu_barrier_tasks_rude
#endif

#if !RCUVET_HAVE_GET_COMPLETED_SYNCHRONIZE_SRCU
#define get_completed_synchronize_srcu() \
	({ rcuvet_absent_call("get_completed_synchronize_srcu()"); 0UL; })
#endif

#if !RCUVET_HAVE_SRCU_NMISAFE
#define srcu_read_lock_nmisafe(ssp) \
	({ (void)(ssp); rcuvet_absent_call("srcu_read_lock_nmisafe()"); 0; })
#define srcu_read_unlock_nmisafe(ssp, idx) \
	({ (void)(ssp); (void)(idx); rcuvet_absent_call("srcu_read_unlock_nmisafe()"); })
#endif

#if !RCUVET_HAVE_SRCU_DOWN_READ
#define srcu_down_read(ssp) \
	({ (void)(ssp); rcuvet_absent_call("srcu_down_read()"); 0; })
#define srcu_up_read(ssp, idx) \
	({ (void)(ssp); (void)(idx); rcuvet_absent_call("srcu_up_read()"); })
#endif

/*
 * The Tasks flavors' grace-period data, exported (and declared in
 * kernel/rcu/rcu.h, which rcuvet_gpw.h declares again) only by newer
 * trees: rcuvet_tasks witnesses its grace periods otherwise there.
 */
#if !RCUVET_HAVE_RCU_TASKS_GP_DATA
#define rcu_tasks_get_gp_data(flags, gp_seq) \
	({ *(flags) = 0; *(gp_seq) = 0; rcuvet_absent_call("rcu_tasks_get_gp_data()"); })
#endif
#if !RCUVET_HAVE_RCU_TASKS_RUDE_GP_DATA
#define rcu_tasks_rude_get_gp_data(flags, gp_seq) \
	({ *(flags) = 0; *(gp_seq) = 0; rcuvet_absent_call("rcu_tasks_rude_get_gp_data()"); })
#endif
#if !RCUVET_HAVE_RCU_TASKS_TRACE_GP_DATA
#define rcu_tasks_trace_get_gp_data(flags, gp_seq) \
	({ *(flags) = 0; *(gp_seq) = 0; rcuvet_absent_call("rcu_tasks_trace_get_gp_data()"); })
#endif
#if !RCUVET_HAVE_RCU_TASKS_GP_KTHREAD
#define get_rcu_tasks_gp_kthread() \
	({ rcuvet_absent_call("get_rcu_tasks_gp_kthread()"); (struct task_struct *)NULL; })
#endif

/*
 * What init_srcu_struct() allocates and cleanup_srcu_struct() frees, and
 * the grace-period sequence number: in struct srcu_usage (->srcu_sup) on
 * 6.12, in the srcu_struct itself before.
 */
#if RCUVET_HAVE_SRCU_USAGE
#define rcuvet_srcu_alloc(ssp) ((ssp)->srcu_sup)
#define rcuvet_srcu_gp_seq(ssp) READ_ONCE((ssp)->srcu_sup->srcu_gp_seq)
#else
#define rcuvet_srcu_alloc(ssp) ((ssp)->sda)
#define rcuvet_srcu_gp_seq(ssp) READ_ONCE((ssp)->srcu_gp_seq)
#endif

#ifndef KUNIT_CASE_SLOW
#define KUNIT_CASE_SLOW(test_name) KUNIT_CASE(test_name)
#endif

#ifndef KUNIT_CASE_PARAM_ATTR
#define KUNIT_CASE_PARAM_ATTR(test_name, gen_params, ...) \
	KUNIT_CASE_PARAM(test_name, gen_params)
#endif

#ifndef KUNIT_DEFINE_ACTION_WRAPPER
#define KUNIT_DEFINE_ACTION_WRAPPER(wrapper, orig, arg_type)	\
	static void wrapper(void *in)				\
	{							\
		orig((arg_type)in);				\
	}
#endif

#if !RCUVET_HAVE_KUNIT_ADD_ACTION
struct rcuvet_kunit_action {
	void (*fn)(void *ctx);
	void *ctx;
};

static inline void rcuvet_kunit_action_free(struct kunit_resource *res)
{
	struct rcuvet_kunit_action *a = res->data;

	a->fn(a->ctx);
	kfree(a);
}

/* kunit_add_action_or_reset() as a resource whose release calls @fn. */
static inline int rcuvet_kunit_add_action_or_reset(struct kunit *test,
						   void (*fn)(void *ctx), void *ctx)
{
	struct rcuvet_kunit_action *a = kmalloc(sizeof(*a), GFP_KERNEL);

	if (a) {
		a->fn = fn;
		a->ctx = ctx;
		if (kunit_alloc_resource(test, NULL, rcuvet_kunit_action_free,
					 GFP_KERNEL, a))
			return 0;
		kfree(a);
	}
	fn(ctx);
	return -ENOMEM;
}

#define kunit_add_action_or_reset rcuvet_kunit_add_action_or_reset

static inline bool rcuvet_kunit_action_match(struct kunit *test,
					     struct kunit_resource *res,
					     void *match_data)
{
	struct rcuvet_kunit_action *a = res->data, *key = match_data;

	return res->free == rcuvet_kunit_action_free &&
	       a->fn == key->fn && a->ctx == key->ctx;
}

/*
 * kunit_release_action(): the most recent such action runs now, not at
 * the end of the test (its resource is released).
 */
static inline void rcuvet_kunit_release_action(struct kunit *test,
					       void (*fn)(void *ctx), void *ctx)
{
	struct rcuvet_kunit_action key = { .fn = fn, .ctx = ctx };

	kunit_destroy_resource(test, rcuvet_kunit_action_match, &key);
}

#define kunit_release_action rcuvet_kunit_release_action
#endif

/*
 * Without SLAB_NO_MERGE a cache may share another's slabs: nothing the
 * kfree_rcu() cases check changes, and the kmem_cache_destroy() cases
 * need a tree whose kmem_cache_destroy() waits for kfree_rcu(), which has
 * SLAB_NO_MERGE.
 */
#ifndef SLAB_NO_MERGE
#define SLAB_NO_MERGE 0
#endif

#endif /* _RCUVET_TREE_H */
