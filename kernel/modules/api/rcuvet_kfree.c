// SPDX-License-Identifier: GPL-2.0
/*
 * rcuvet_kfree: kfree_rcu() and friends, as Linux 6.12 has them.
 *
 * A reader kthread on CPU 1 picks up objects with rcu_dereference() inside
 * rcu_read_lock() and stays inside until the updater on CPU 0 has
 * unpublished the objects and handed them to kfree_rcu(),
 * kfree_rcu_mightsleep(), kvfree_rcu() or kvfree_rcu_mightsleep(); then it
 * holds its section for hold_ms, reads every object's magic field as the
 * last thing inside and publishes "left".  While the reader is inside, no
 * object may be freed; once kvfree_rcu_barrier() returns, the reader must
 * have left and every object must be freed.  The reader never leaves
 * before the frees were queued, however slow the host.
 *
 * "Freed" is what the allocator says: for slab objects, KASAN's shadow
 * (poisoned once KASAN has seen the object freed: both kernels have
 * generic KASAN, which also reports the reader's access to an object freed
 * too early as a use-after-free); for vmalloc() buffers, whether the
 * address is still mapped (the reader reads those with
 * copy_from_kernel_nofault(), as KASAN does not watch vmalloc space here).
 *
 * The article's "kmem_struct counterpart to kfree_rcu()" wish: 6.12's
 * kfree_rcu() takes kmem_cache_alloc() objects, and kmem_cache_destroy()
 * waits for the kfree_rcu() of its objects still in flight (it calls
 * kvfree_rcu_barrier()): one case destroys the cache right after
 * kfree_rcu() of all its objects, a reader still inside, and checks that
 * it returned only after the reader left, without a splat.
 *
 * Negative controls (mutant=NAME):
 *  kfree_now   frees with kfree()/kmem_cache_free()/vfree() at once, the
 *              reader still inside: every case fails, and KASAN reports the
 *              reader's use after free.
 *  no_barrier  leaves kvfree_rcu_barrier() out: the kfree_rcu cases fail
 *              (the reader holds the grace period until the updater has
 *              looked); the
 *              kmem_cache_destroy() case, which never calls it, passes.
 *  leak_one    never frees one object of the destroyed cache:
 *              kmem_cache_destroy() complains that the cache still has
 *              objects, the splat that a destroy which did not wait for
 *              kfree_rcu() would give.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kasan.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "rcuvet.h"

static char *mutant = "";
module_param(mutant, charp, 0444);
MODULE_PARM_DESC(mutant, "Negative control: kfree_now, no_barrier or leak_one");

static unsigned int hold_ms = 200;
module_param(hold_ms, uint, 0444);
MODULE_PARM_DESC(hold_ms, "How long the reader stays in its critical section");

static unsigned int reps = 2;
module_param(reps, uint, 0444);
MODULE_PARM_DESC(reps, "Repetitions of each case");

#define KF_MAX_OBJS 16
static unsigned int objs = 4;
module_param(objs, uint, 0444);
MODULE_PARM_DESC(objs, "Objects freed per repetition (at most 16)");

enum kf_mutant { M_NONE, M_KFREE_NOW, M_NO_BARRIER, M_LEAK_ONE };
static enum kf_mutant the_mutant;

#define KF_MAGIC 0x7263757665746b66UL

struct kf_obj {
	unsigned long magic;
	struct rcu_head rh;
	unsigned long payload[6];
};

enum kf_kind {
	KF_KMALLOC,		/* kmalloc(), kfree_rcu(p, rh) */
	KF_CACHE,		/* kmem_cache_alloc(), kfree_rcu(p, rh) */
	KF_MIGHTSLEEP,		/* kmalloc(), kfree_rcu_mightsleep(p) */
	KF_VMALLOC,		/* vmalloc(), kvfree_rcu(p, rh) */
	KF_VMALLOC_MIGHTSLEEP,	/* vmalloc(), kvfree_rcu_mightsleep(p) */
};

struct kf_param {
	enum kf_kind kind;
	const char *name;
	const char *covers;
};

static const struct kf_param kf_params[] = {
	{ KF_KMALLOC, "kmalloc_kfree_rcu", "kfree_rcu kvfree_rcu_barrier" },
	{ KF_CACHE, "kmem_cache_kfree_rcu", "kfree_rcu kvfree_rcu_barrier" },
	{ KF_MIGHTSLEEP, "kmalloc_kfree_rcu_mightsleep",
	  "kfree_rcu_mightsleep kvfree_rcu_barrier" },
	{ KF_VMALLOC, "vmalloc_kvfree_rcu", "kvfree_rcu kvfree_rcu_barrier" },
	{ KF_VMALLOC_MIGHTSLEEP, "vmalloc_kvfree_rcu_mightsleep",
	  "kvfree_rcu_mightsleep kvfree_rcu_barrier" },
};

static void kf_desc(const struct kf_param *p, char *desc)
{
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(kf, kf_params, kf_desc);

static bool kf_vmalloced(enum kf_kind kind)
{
	return kind == KF_VMALLOC || kind == KF_VMALLOC_MIGHTSLEEP;
}

struct kf_reader {
	struct completion inside, done;
	struct kf_obj __rcu *slot[KF_MAX_OBJS];
	unsigned int n;
	bool vmalloced;
	bool left;		/* the last thing the reader does inside */
	bool handed;		/* the updater has queued the frees */
	bool looked;		/* the updater has read "left" */
	bool until_looked;	/* hold until then, not for hold_ms */
	unsigned int bad;	/* objects it did not find its magic in */
};

static int kf_reader_fn(void *arg)
{
	struct kf_reader *r = arg;
	struct kf_obj *p[KF_MAX_OBJS];
	unsigned int i, bad = 0;
	unsigned long magic;

	rcu_read_lock();
	for (i = 0; i < r->n; i++)
		p[i] = rcu_dereference(r->slot[i]);
	complete(&r->inside);
	while (!smp_load_acquire(&r->handed))
		mdelay(1);
	if (r->until_looked) {
		while (!smp_load_acquire(&r->looked))
			mdelay(1);
	} else {
		mdelay(hold_ms);
	}
	for (i = 0; i < r->n; i++) {
		if (r->vmalloced) {
			if (copy_from_kernel_nofault(&magic, &p[i]->magic,
						     sizeof(magic)))
				magic = 0;
		} else {
			magic = READ_ONCE(p[i]->magic);
		}
		if (magic != KF_MAGIC)
			bad++;
	}
	r->bad = bad;
	WRITE_ONCE(r->left, true);
	rcu_read_unlock();
	kthread_complete_and_exit(&r->done, 0);
}

#ifdef CONFIG_KASAN_GENERIC
/* KASAN's shadow byte of p's first granule: 0 while it is allocated. */
static noinline __no_sanitize_address u8 kf_shadow(const void *p)
{
	return READ_ONCE(*(u8 *)kasan_mem_to_shadow(p));
}
#endif

/* Can this kernel tell whether an object of this kind was freed? */
static bool kf_sees_frees(enum kf_kind kind)
{
	return kf_vmalloced(kind) || IS_ENABLED(CONFIG_KASAN_GENERIC);
}

static bool kf_freed(enum kf_kind kind, const void *p)
{
	if (kf_vmalloced(kind))
		return !vmalloc_to_page(p);
#ifdef CONFIG_KASAN_GENERIC
	return kf_shadow(p) != 0;
#else
	return false;
#endif
}

static unsigned int kf_count_freed(enum kf_kind kind, struct kf_obj **p,
				   unsigned int n)
{
	unsigned int i, freed = 0;

	for (i = 0; i < n; i++)
		freed += kf_freed(kind, p[i]);
	return freed;
}

static struct kf_obj *kf_alloc(enum kf_kind kind, struct kmem_cache *cache)
{
	switch (kind) {
	case KF_KMALLOC:
	case KF_MIGHTSLEEP:
		return kmalloc(sizeof(struct kf_obj), GFP_KERNEL);
	case KF_CACHE:
		return kmem_cache_alloc(cache, GFP_KERNEL);
	case KF_VMALLOC:
	case KF_VMALLOC_MIGHTSLEEP:
		return vmalloc(2 * PAGE_SIZE);
	}
	return NULL;
}

static void kf_free(enum kf_kind kind, struct kmem_cache *cache,
		    struct kf_obj *p)
{
	if (the_mutant == M_KFREE_NOW) {
		if (kf_vmalloced(kind))
			vfree(p);
		else if (kind == KF_CACHE)
			kmem_cache_free(cache, p);
		else
			kfree(p);
		return;
	}
	switch (kind) {
	case KF_KMALLOC:
	case KF_CACHE:
		kfree_rcu(p, rh);
		break;
	case KF_MIGHTSLEEP:
		kfree_rcu_mightsleep(p);
		break;
	case KF_VMALLOC:
		kvfree_rcu(p, rh);
		break;
	case KF_VMALLOC_MIGHTSLEEP:
		kvfree_rcu_mightsleep(p);
		break;
	}
}

/*
 * Allocate and publish r->n objects, start the reader, wait till inside.
 * With @until_looked the reader holds until the updater read "left".
 */
static void kf_start(struct kunit *test, struct kf_reader *r,
		     enum kf_kind kind, struct kmem_cache *cache,
		     struct kf_obj **p, bool until_looked)
{
	struct task_struct *t;
	unsigned int i;

	init_completion(&r->inside);
	init_completion(&r->done);
	r->n = objs;
	r->vmalloced = kf_vmalloced(kind);
	r->left = false;
	r->handed = false;
	r->looked = false;
	r->until_looked = until_looked;
	r->bad = 0;
	for (i = 0; i < r->n; i++) {
		p[i] = kf_alloc(kind, cache);
		KUNIT_ASSERT_NOT_NULL(test, p[i]);
		p[i]->magic = KF_MAGIC;
		rcu_assign_pointer(r->slot[i], p[i]);
	}
	t = kthread_run_on_cpu(kf_reader_fn, r, RCUVET_READER_CPU,
			       "rcuvet_kfree/%u");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	wait_for_completion(&r->inside);
	for (i = 0; i < r->n; i++)
		RCU_INIT_POINTER(r->slot[i], NULL);
}

/*
 * The frees are queued: no object may be freed yet, since the reader that
 * holds them waits inside for this call.  Then let it hold and leave.
 */
static void kf_hand_over(struct kunit *test, struct kf_reader *r,
			 enum kf_kind kind, struct kf_obj **p, unsigned int rep)
{
	unsigned int freed = kf_sees_frees(kind) ? kf_count_freed(kind, p, r->n) : 0;

	KUNIT_EXPECT_EQ_MSG(test, freed, 0,
			    "rep %u: %u of %u objects freed while a reader still used them",
			    rep, freed, r->n);
	rcuvet_signal(&r->handed);
}

KUNIT_DEFINE_ACTION_WRAPPER(kf_destroy_cache, kmem_cache_destroy,
			    struct kmem_cache *);

/*
 * kfree_rcu() and friends free nothing while a pre-existing reader still
 * uses it, and everything once kvfree_rcu_barrier() returns.
 */
static void kfree_rcu_waits_for_reader(struct kunit *test)
{
	const struct kf_param *param = test->param_value;
	enum kf_kind kind = param->kind;
	struct kf_obj *p[KF_MAX_OBJS];
	struct kmem_cache *cache = NULL;
	unsigned int i, j, freed;
	struct kf_reader r;
	bool left;
	int err;

	rcuvet_covers(test, param->covers);
	if (kind == KF_CACHE) {
		cache = kmem_cache_create("rcuvet_kfree", sizeof(struct kf_obj),
					  0, SLAB_NO_MERGE, NULL);
		KUNIT_ASSERT_NOT_NULL(test, cache);
		err = kunit_add_action_or_reset(test, kf_destroy_cache, cache);
		KUNIT_ASSERT_EQ(test, err, 0);
	}
	if (!kf_sees_frees(kind))
		kunit_info(test, "no generic KASAN: frees are not observed");
	for (i = 0; i < reps; i++) {
		kf_start(test, &r, kind, cache, p, the_mutant == M_NO_BARRIER);
		for (j = 0; j < r.n; j++)
			kf_free(kind, cache, p[j]);
		kf_hand_over(test, &r, kind, p, i);
		if (the_mutant != M_NO_BARRIER)
			kvfree_rcu_barrier();
		left = READ_ONCE(r.left);
		freed = kf_count_freed(kind, p, r.n);
		rcuvet_signal(&r.looked);
		wait_for_completion(&r.done);
		if (the_mutant == M_NO_BARRIER)
			kvfree_rcu_barrier();
		KUNIT_EXPECT_TRUE_MSG(test, left,
				      "rep %u: kvfree_rcu_barrier() returned while the reader was inside",
				      i);
		if (kf_sees_frees(kind))
			KUNIT_EXPECT_EQ_MSG(test, freed, r.n,
					    "rep %u: only %u of %u objects freed when kvfree_rcu_barrier() returned",
					    i, freed, r.n);
		KUNIT_EXPECT_EQ_MSG(test, r.bad, 0,
				    "rep %u: the reader lost %u of %u objects", i,
				    r.bad, r.n);
	}
}

/*
 * kmem_cache_destroy() right after kfree_rcu() of every object of the
 * cache, a reader still using them: 6.12 waits for the kfree_rcu()s in
 * flight, so it returns only after the reader left and finds the cache
 * empty (no "Slab cache still has objects" splat).
 */
static void kmem_cache_destroy_waits_for_kfree_rcu(struct kunit *test)
{
	struct kf_obj *p[KF_MAX_OBJS];
	struct kmem_cache *cache;
	struct kf_reader r;
	unsigned int i, j;
	bool left;

	rcuvet_covers(test, "kfree_rcu kmem_cache_destroy");
	for (i = 0; i < reps; i++) {
		cache = kmem_cache_create("rcuvet_kfree_destroy",
					  sizeof(struct kf_obj), 0,
					  SLAB_NO_MERGE, NULL);
		KUNIT_ASSERT_NOT_NULL(test, cache);
		kf_start(test, &r, KF_CACHE, cache, p, false);
		for (j = 0; j < r.n; j++)
			if (the_mutant != M_LEAK_ONE || j)
				kf_free(KF_CACHE, cache, p[j]);
		kf_hand_over(test, &r, KF_CACHE, p, i);
		kmem_cache_destroy(cache);
		left = READ_ONCE(r.left);
		wait_for_completion(&r.done);
		KUNIT_EXPECT_TRUE_MSG(test, left,
				      "rep %u: kmem_cache_destroy() returned while a reader used its objects",
				      i);
		KUNIT_EXPECT_EQ_MSG(test, r.bad, 0,
				    "rep %u: the reader lost %u of %u objects", i,
				    r.bad, r.n);
	}
}

static int kf_init(struct kunit *test)
{
	rcuvet_pin_updater(test);
	KUNIT_ASSERT_GE(test, objs, 1);
	KUNIT_ASSERT_LE(test, objs, KF_MAX_OBJS);
	return 0;
}

static int kf_suite_init(struct kunit_suite *suite)
{
	if (!*mutant)
		the_mutant = M_NONE;
	else if (!strcmp(mutant, "kfree_now"))
		the_mutant = M_KFREE_NOW;
	else if (!strcmp(mutant, "no_barrier"))
		the_mutant = M_NO_BARRIER;
	else if (!strcmp(mutant, "leak_one"))
		the_mutant = M_LEAK_ONE;
	else
		return -EINVAL;
	return 0;
}

static struct kunit_case kf_cases[] = {
	KUNIT_CASE_PARAM_ATTR(kfree_rcu_waits_for_reader, kf_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE_SLOW(kmem_cache_destroy_waits_for_kfree_rcu),
	{}
};

static struct kunit_suite kf_suite = {
	.name = "rcuvet_kfree",
	.suite_init = kf_suite_init,
	.init = kf_init,
	.test_cases = kf_cases,
};
kunit_test_suite(kf_suite);

MODULE_DESCRIPTION("rcuvet: kfree_rcu(), kvfree_rcu() and kvfree_rcu_barrier()");
MODULE_LICENSE("GPL");
