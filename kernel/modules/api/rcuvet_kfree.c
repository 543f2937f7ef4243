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
 * (poisoned once KASAN has seen the object freed: the debug kernel has
 * generic KASAN, which also reports the reader's access to an object freed
 * too early as a use-after-free; without it, as on nopreempt, the slab
 * cases check only that the reader left first, and the batch case
 * skips); for vmalloc() buffers, whether the
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
 * Frees on the other CPU: every barrier and destroy case also runs with the
 * frees queued on the reader's CPU (CPU 1: smp_call_function_single() for
 * the kinds with an rcu_head, a kthread bound there for the headless ones),
 * while kvfree_rcu_barrier() or kmem_cache_destroy() runs on CPU 0, so that
 * a barrier that flushes only its own CPU's queue is caught.  The headless
 * kinds need a preemptible kernel there (the freer must run on CPU 1 while
 * the reader spins inside its section): skipped otherwise.
 *
 * Vacuity: a "waited for the reader" pass counts only if the reader was
 * demonstrably inside while the primitive ran, for at least half of
 * hold_ms: the reader stamps the time it left (ktime_get_ns(), the last
 * thing inside), the updater the time it called the primitive (kf_call()),
 * from which the reader holds hold_ms, so a delay before the call cannot
 * shorten it.  A pair in which the reader left earlier is inconclusive:
 * tried again, up to three times, then failed, never passed.
 *
 * Batches: kfree_rcu() of more objects than a bulk page holds makes the
 * kvfree_rcu monitor queue the batch after one jiffy instead of
 * KFREE_DRAIN_JIFFIES (5 s).  kfree_rcu_batch_waits_for_reader watches for
 * a second, its reader held inside until it has looked, that no object is
 * freed: a batch handed to the reclaim work without a grace period is.
 *
 * Older trees (6.1) have no kvfree_rcu_barrier(), nor a
 * kmem_cache_destroy() that waits for kfree_rcu(): there the barrier and
 * batch cases wait instead until the allocator says that every object is
 * freed (KF_POLL_MS at most; kfree_rcu() drains within seconds), the
 * reader must have left by then; the kinds whose frees cannot be seen
 * (slab objects without generic KASAN) and the destroy cases are
 * skipped, naming kvfree_rcu_barrier() (rcuvet_tree.h).
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
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "rcuvet.h"
#include "rcuvet_tree.h"

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
#define KF_TRIES 3		/* attempts at a conclusive pair */
#define KF_BATCH 1024		/* more than a bulk page's KVFREE_BULK_MAX_ENTR */
#define KF_BATCH_WATCH_MS 1000	/* how long the batch case watches */
#define KF_POLL_MS 60000	/* the longest wait for frees without a barrier */
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
	bool remote;		/* frees queued on the reader's CPU */
	const char *name;
	const char *covers;
};

/* Besides kvfree_rcu_barrier(), where the tree has it (kf_covers()). */
static const struct kf_param kf_params[] = {
	{ KF_KMALLOC, false, "kmalloc_kfree_rcu", "kfree_rcu" },
	{ KF_CACHE, false, "kmem_cache_kfree_rcu", "kfree_rcu" },
	{ KF_MIGHTSLEEP, false, "kmalloc_kfree_rcu_mightsleep",
	  "kfree_rcu_mightsleep" },
	{ KF_VMALLOC, false, "vmalloc_kvfree_rcu", "kvfree_rcu" },
	{ KF_VMALLOC_MIGHTSLEEP, false, "vmalloc_kvfree_rcu_mightsleep",
	  "kvfree_rcu_mightsleep" },
	{ KF_KMALLOC, true, "kmalloc_kfree_rcu_remote", "kfree_rcu" },
	{ KF_CACHE, true, "kmem_cache_kfree_rcu_remote", "kfree_rcu" },
	{ KF_MIGHTSLEEP, true, "kmalloc_kfree_rcu_mightsleep_remote",
	  "kfree_rcu_mightsleep" },
	{ KF_VMALLOC, true, "vmalloc_kvfree_rcu_remote", "kvfree_rcu" },
	{ KF_VMALLOC_MIGHTSLEEP, true, "vmalloc_kvfree_rcu_mightsleep_remote",
	  "kvfree_rcu_mightsleep" },
};

/* What ends the wait for the frees, in the failure messages. */
#define KF_WAIT (RCUVET_HAVE_KVFREE_RCU_BARRIER ? "kvfree_rcu_barrier()" : \
		 "the wait for the frees")

/* @members, and kvfree_rcu_barrier() where the case calls it. */
static void kf_covers(struct kunit *test, const char *members)
{
	rcuvet_covers(test, members);
	if (RCUVET_HAVE_KVFREE_RCU_BARRIER)
		rcuvet_covers(test, "kvfree_rcu_barrier");
}

static void kf_desc(const struct kf_param *p, char *desc)
{
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(kf, kf_params, kf_desc);

static bool kf_vmalloced(enum kf_kind kind)
{
	return kind == KF_VMALLOC || kind == KF_VMALLOC_MIGHTSLEEP;
}

static bool kf_headless(enum kf_kind kind)
{
	return kind == KF_MIGHTSLEEP || kind == KF_VMALLOC_MIGHTSLEEP;
}

struct kf_reader {
	struct completion inside, done;
	struct kf_obj __rcu *slot[KF_MAX_OBJS];
	unsigned int n;
	bool vmalloced;
	bool left;		/* the last thing the reader does inside */
	u64 t_left;		/* ktime_get_ns() just before "left" */
	bool handed;		/* the updater has queued the frees */
	u64 t_call;		/* the updater's call: 0 until then */
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
	u64 t_call;

	rcu_read_lock();
	for (i = 0; i < r->n; i++)
		p[i] = rcu_dereference(r->slot[i]);
	complete(&r->inside);
	/* pairs with rcuvet_signal(): the frees were queued before */
	while (!smp_load_acquire(&r->handed))
		mdelay(1);
	if (r->until_looked) {
		/* pairs with rcuvet_signal() after the updater looked */
		while (!smp_load_acquire(&r->looked))
			mdelay(1);
	} else {
		/* hold_ms from the updater's call, however late it came */
		while (!(t_call = smp_load_acquire(&r->t_call)))
			mdelay(1);
		while (ktime_get_ns() - t_call < (u64)hold_ms * NSEC_PER_MSEC)
			mdelay(1);
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
	r->t_left = ktime_get_ns();
	/* t_left and bad before left: pairs with smp_load_acquire() */
	smp_store_release(&r->left, true);
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

/* Can this case wait for its frees on this tree and kernel? */
static bool kf_can_wait(enum kf_kind kind)
{
	return RCUVET_HAVE_KVFREE_RCU_BARRIER || kf_sees_frees(kind);
}

/*
 * Wait until the frees queued so far have run: kvfree_rcu_barrier(), or,
 * on a tree without it, until the allocator says the @n objects of @p
 * are freed (KF_POLL_MS at most; the caller counts them again).
 */
static void kf_wait_frees(enum kf_kind kind, struct kf_obj **p, unsigned int n)
{
	unsigned long end = jiffies + msecs_to_jiffies(KF_POLL_MS);

	if (RCUVET_HAVE_KVFREE_RCU_BARRIER) {
		kvfree_rcu_barrier();
		return;
	}
	while (kf_count_freed(kind, p, n) < n && time_before(jiffies, end))
		msleep(20);
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
	r->t_left = 0;
	r->handed = false;
	r->t_call = 0;
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

/* A set of frees, queued on the updater's CPU or on the reader's. */
struct kf_frees {
	enum kf_kind kind;
	struct kmem_cache *cache;
	struct kf_obj **p;
	unsigned int n;
	bool leak_first;	/* mutant=leak_one: never free p[0] */
	int cpu;		/* where they were queued */
	struct completion done;
};

static void kf_free_all(void *arg)
{
	struct kf_frees *f = arg;
	unsigned int i;

	f->cpu = raw_smp_processor_id();
	for (i = f->leak_first; i < f->n; i++)
		kf_free(f->kind, f->cache, f->p[i]);
}

static int kf_freer_fn(void *arg)
{
	struct kf_frees *f = arg;

	kf_free_all(f);
	kthread_complete_and_exit(&f->done, 0);
}

/*
 * Can the frees of this kind be queued on the reader's CPU while the
 * reader spins inside its section there?  The headless kinds might sleep:
 * their freer is a kthread bound to that CPU, which runs only if the
 * reader can be preempted.
 */
static bool kf_remote_possible(enum kf_kind kind)
{
	return !kf_headless(kind) || preempt_model_preemptible();
}

/*
 * Queue the frees here (CPU 0), or on the reader's CPU: from an IPI for
 * the kinds with an rcu_head (kfree_rcu() and kvfree_rcu() with one may
 * be called with interrupts off), from a kthread bound there for the
 * headless ones.  Never asserts: the reader inside waits for the updater.
 */
static void kf_queue_frees(struct kunit *test, struct kf_frees *f, bool remote)
{
	struct task_struct *t;
	int err;

	f->cpu = -1;
	if (!remote) {
		kf_free_all(f);
		return;
	}
	if (!kf_headless(f->kind)) {
		err = smp_call_function_single(RCUVET_READER_CPU, kf_free_all,
					       f, 1);
		KUNIT_EXPECT_EQ(test, err, 0);
		if (err)
			kf_free_all(f);
		return;
	}
	init_completion(&f->done);
	t = kthread_run_on_cpu(kf_freer_fn, f, RCUVET_READER_CPU,
			       "rcuvet_kfree_freer/%u");
	KUNIT_EXPECT_FALSE(test, IS_ERR(t));
	if (IS_ERR(t))
		kf_free_all(f);
	else
		wait_for_completion(&f->done);
	KUNIT_EXPECT_EQ_MSG(test, f->cpu, RCUVET_READER_CPU,
			    "the frees were queued on CPU %d, not on the reader's",
			    f->cpu);
}

/*
 * The frees are queued: no object may be freed yet, since the reader that
 * holds them waits inside for this call.  Then let it go on to wait for
 * kf_call().
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

/*
 * Right before the primitive: its call time, from which the reader holds
 * hold_ms.  The reader counts from here, not from kf_hand_over(): an
 * updater held up between the two (in a make check, three tries in a row
 * of ctl-kfree-no-barrier's destroy case lost 125 to 150 ms there) would
 * otherwise eat the margin.
 */
static u64 kf_call(struct kf_reader *r)
{
	u64 t_call = ktime_get_ns();

	/* pairs with the reader's smp_load_acquire() */
	smp_store_release(&r->t_call, t_call);
	return t_call;
}

/*
 * Read "left" once the primitive called at @t_call has returned.  The
 * pair is conclusive if the reader was still inside then (a failure), or
 * if it left at least hold_ms / 2 after the call: it was demonstrably
 * inside while the primitive ran.  A reader that left sooner (the updater
 * lost its CPU on the way to the call) proves nothing either way.
 */
static bool kf_read_left(struct kf_reader *r, u64 t_call, bool *conclusive)
{
	u64 margin = (u64)hold_ms * NSEC_PER_MSEC / 2;
	/* pairs with the reader's smp_store_release(): t_left is set */
	bool left = smp_load_acquire(&r->left);

	*conclusive = !left || (s64)(r->t_left - t_call) >= (s64)margin;
	return left;
}

static void kf_inconclusive(struct kunit *test, struct kf_reader *r,
			    u64 t_call, const char *what, unsigned int rep)
{
	kunit_info(test, "rep %u: inconclusive, the reader left %lld us after %s was called (margin %u ms)",
		   rep, div_s64((s64)(r->t_left - t_call), NSEC_PER_USEC), what,
		   hold_ms / 2);
}

KUNIT_DEFINE_ACTION_WRAPPER(kf_destroy_cache, kmem_cache_destroy,
			    struct kmem_cache *);

/*
 * One pair of kfree_rcu_waits_for_reader: false if inconclusive.
 */
static bool kf_waits_once(struct kunit *test, const struct kf_param *param,
			  struct kmem_cache *cache, unsigned int rep)
{
	enum kf_kind kind = param->kind;
	struct kf_obj *p[KF_MAX_OBJS];
	struct kf_frees f = { .kind = kind, .cache = cache, .p = p };
	unsigned int freed;
	struct kf_reader r;
	bool left, conclusive;
	u64 t_call;

	kf_start(test, &r, kind, cache, p, the_mutant == M_NO_BARRIER);
	f.n = r.n;
	kf_queue_frees(test, &f, param->remote);
	kf_hand_over(test, &r, kind, p, rep);
	t_call = kf_call(&r);
	if (the_mutant != M_NO_BARRIER)
		kf_wait_frees(kind, p, r.n);
	left = kf_read_left(&r, t_call, &conclusive);
	freed = kf_count_freed(kind, p, r.n);
	rcuvet_signal(&r.looked);
	wait_for_completion(&r.done);
	if (the_mutant == M_NO_BARRIER)
		kf_wait_frees(kind, p, r.n);
	KUNIT_EXPECT_TRUE_MSG(test, left,
			      "rep %u: %s returned while the reader was inside (frees queued on CPU %d)",
			      rep, KF_WAIT, f.cpu);
	if (kf_sees_frees(kind))
		KUNIT_EXPECT_EQ_MSG(test, freed, r.n,
				    "rep %u: only %u of %u objects (queued on CPU %d) freed when %s returned",
				    rep, freed, r.n, f.cpu, KF_WAIT);
	KUNIT_EXPECT_EQ_MSG(test, r.bad, 0,
			    "rep %u: the reader lost %u of %u objects", rep,
			    r.bad, r.n);
	if (!conclusive)
		kf_inconclusive(test, &r, t_call, KF_WAIT, rep);
	return conclusive;
}

/*
 * kfree_rcu() and friends, queued on this CPU or on the reader's, free
 * nothing while a pre-existing reader still uses it, and everything once
 * kvfree_rcu_barrier() returns.
 */
static void kfree_rcu_waits_for_reader(struct kunit *test)
{
	const struct kf_param *param = test->param_value;
	enum kf_kind kind = param->kind;
	struct kmem_cache *cache = NULL;
	unsigned int i, try;
	int err;

	if (!kf_can_wait(kind))
		rcuvet_skip(test, "absent from this tree: kvfree_rcu_barrier() (and no generic KASAN to see the frees without it)");
	if (param->remote && !kf_remote_possible(kind))
		rcuvet_skip(test, "headless frees on the reader's CPU need a preemptible kernel");
	kf_covers(test, param->covers);
	if (kind == KF_CACHE) {
		cache = kmem_cache_create("rcuvet_kfree", sizeof(struct kf_obj),
					  0, SLAB_NO_MERGE, NULL);
		KUNIT_ASSERT_NOT_NULL(test, cache);
		err = kunit_add_action_or_reset(test, kf_destroy_cache, cache);
		KUNIT_ASSERT_EQ(test, err, 0);
	}
	if (!kf_sees_frees(kind))
		kunit_info(test, "frees are not observed without generic KASAN");
	for (i = 0; i < reps; i++) {
		for (try = 1; try <= KF_TRIES; try++)
			if (kf_waits_once(test, param, cache, i))
				break;
		if (try > KF_TRIES)
			KUNIT_FAIL(test,
				   "rep %u: inconclusive %u times: the reader was never shown inside while %s ran",
				   i, KF_TRIES, KF_WAIT);
	}
}

/*
 * One pair of the destroy case: false if inconclusive.
 */
static bool kf_destroy_once(struct kunit *test, bool remote, unsigned int rep)
{
	struct kf_obj *p[KF_MAX_OBJS];
	struct kf_frees f = { .kind = KF_CACHE, .p = p };
	struct kmem_cache *cache;
	struct kf_reader r;
	bool left, conclusive;
	u64 t_call;

	cache = kmem_cache_create(remote ? "rcuvet_kfree_destroy_remote" :
				  "rcuvet_kfree_destroy",
				  sizeof(struct kf_obj), 0, SLAB_NO_MERGE, NULL);
	KUNIT_ASSERT_NOT_NULL(test, cache);
	kf_start(test, &r, KF_CACHE, cache, p, false);
	f.cache = cache;
	f.n = r.n;
	f.leak_first = the_mutant == M_LEAK_ONE;
	kf_queue_frees(test, &f, remote);
	kf_hand_over(test, &r, KF_CACHE, p, rep);
	t_call = kf_call(&r);
	kmem_cache_destroy(cache);
	left = kf_read_left(&r, t_call, &conclusive);
	wait_for_completion(&r.done);
	KUNIT_EXPECT_TRUE_MSG(test, left,
			      "rep %u: kmem_cache_destroy() returned while a reader used its objects (frees queued on CPU %d)",
			      rep, f.cpu);
	KUNIT_EXPECT_EQ_MSG(test, r.bad, 0,
			    "rep %u: the reader lost %u of %u objects", rep,
			    r.bad, r.n);
	if (!conclusive)
		kf_inconclusive(test, &r, t_call, "kmem_cache_destroy()", rep);
	return conclusive;
}

static void kf_destroy_reps(struct kunit *test, bool remote)
{
	unsigned int i, try;

	for (i = 0; i < reps; i++) {
		for (try = 1; try <= KF_TRIES; try++)
			if (kf_destroy_once(test, remote, i))
				break;
		if (try > KF_TRIES)
			KUNIT_FAIL(test,
				   "rep %u: inconclusive %u times: the reader was never shown inside while kmem_cache_destroy() ran",
				   i, KF_TRIES);
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
	rcuvet_need(test, KMEM_CACHE_DESTROY_WAITS,
		    "kvfree_rcu_barrier() in kmem_cache_destroy()");
	rcuvet_covers(test, "kfree_rcu kmem_cache_destroy");
	kf_destroy_reps(test, false);
}

/*
 * The same with the kfree_rcu()s queued on the reader's CPU (an IPI) and
 * kmem_cache_destroy() on CPU 0: its kvfree_rcu_barrier() must flush
 * every CPU's queue, not only its own.
 */
static void kmem_cache_destroy_waits_for_remote_kfree_rcu(struct kunit *test)
{
	rcuvet_need(test, KMEM_CACHE_DESTROY_WAITS,
		    "kvfree_rcu_barrier() in kmem_cache_destroy()");
	rcuvet_covers(test, "kfree_rcu kmem_cache_destroy");
	kf_destroy_reps(test, true);
}

/*
 * kfree_rcu() of KF_BATCH objects more than the reader holds: past a bulk
 * page's worth (KVFREE_BULK_MAX_ENTR) the monitor runs after one jiffy and
 * hands the batch to the reclaim work, which must wait for a grace period.
 * The reader, which predates every kfree_rcu(), stays inside until the
 * updater has watched for KF_BATCH_WATCH_MS that nothing was freed; after
 * it left, kvfree_rcu_barrier() must free them all.
 */
static void kfree_rcu_batch_waits_for_reader(struct kunit *test)
{
	struct kf_obj *p[KF_MAX_OBJS], **extra;
	unsigned int i, j, early, freed, all;
	unsigned long end;
	struct kf_reader r;
	bool left;

	if (!kf_sees_frees(KF_KMALLOC))
		rcuvet_skip(test, "needs generic KASAN to see the frees");
	kf_covers(test, "kfree_rcu");
	extra = kunit_kmalloc_array(test, KF_BATCH, sizeof(*extra), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, extra);
	for (i = 0; i < reps; i++) {
		for (j = 0; j < KF_BATCH; j++) {
			extra[j] = kmalloc(sizeof(*extra[j]), GFP_KERNEL);
			if (!extra[j])
				break;
		}
		if (j < KF_BATCH) {
			while (j)
				kfree(extra[--j]);
			KUNIT_FAIL(test, "rep %u: out of memory", i);
			return;
		}
		kf_start(test, &r, KF_KMALLOC, NULL, p, true);
		for (j = 0; j < r.n; j++)
			kf_free(KF_KMALLOC, NULL, p[j]);
		for (j = 0; j < KF_BATCH; j++)
			kf_free(KF_KMALLOC, NULL, extra[j]);
		rcuvet_signal(&r.handed);
		end = jiffies + msecs_to_jiffies(KF_BATCH_WATCH_MS);
		do {
			msleep(20);
			early = kf_count_freed(KF_KMALLOC, p, r.n) +
				kf_count_freed(KF_KMALLOC, extra, KF_BATCH);
		} while (!early && time_before(jiffies, end));
		/* pairs with the reader's smp_store_release() */
		left = smp_load_acquire(&r.left);
		rcuvet_signal(&r.looked);
		wait_for_completion(&r.done);
		kf_wait_frees(KF_KMALLOC, p, r.n);
		kf_wait_frees(KF_KMALLOC, extra, KF_BATCH);
		freed = kf_count_freed(KF_KMALLOC, p, r.n) +
			kf_count_freed(KF_KMALLOC, extra, KF_BATCH);
		all = r.n + KF_BATCH;
		KUNIT_EXPECT_FALSE_MSG(test, left,
				       "rep %u: the reader left before it was told to",
				       i);
		KUNIT_EXPECT_EQ_MSG(test, early, 0,
				    "rep %u: %u of %u objects freed while a reader that predates their kfree_rcu() was inside",
				    i, early, all);
		KUNIT_EXPECT_EQ_MSG(test, freed, all,
				    "rep %u: only %u of %u objects freed when %s returned",
				    i, freed, all, KF_WAIT);
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
	KUNIT_CASE_SLOW(kmem_cache_destroy_waits_for_remote_kfree_rcu),
	KUNIT_CASE_SLOW(kfree_rcu_batch_waits_for_reader),
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
