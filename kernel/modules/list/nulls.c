// SPDX-License-Identifier: GPL-2.0
/*
 * rcuvet_list's typesafe hlist_nulls cases: objects of a
 * SLAB_TYPESAFE_BY_RCU cache are freed and reused on another chain (at
 * once, from a LIFO pool) while readers look keys up as
 * Documentation/RCU/rculist_nulls.rst does; and
 * hlist_nulls_for_each_entry_safe() moves the elements it walks.
 */
#include <kunit/test.h>
#include <linux/prandom.h>
#include <linux/rculist_nulls.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "rcuvet_list.h"

/* The objects' SLAB_TYPESAFE_BY_RCU cache, made by lv_suite_init(). */
struct kmem_cache *lv_ncache;

static void lv_nt_free(void *arg)
{
	struct lv_nt *t = arg;

	while (t->nlive)
		kmem_cache_free(lv_ncache, t->live[--t->nlive]);
	while (t->npool)
		kmem_cache_free(lv_ncache, t->pool[--t->npool]);
}

static struct lv_nt *lv_nt_new(struct kunit *test)
{
	struct lv_nt *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	int ch;

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_NOT_NULL(test, lv_ncache);
	t->test = test;
	spin_lock_init(&t->lock);
	for (ch = 0; ch < LV_NCHAINS; ch++) {
		INIT_HLIST_NULLS_HEAD(&t->chain[ch], ch);
		t->anchor[ch] = LV_NONE;
	}
	t->next_key = 2;
	prandom_seed_state(&t->rnd, 0x6e756c6c);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, lv_nt_free, t), 0);
	return t;
}

/* Allocate (from the pool first if POOL) and hash an object on chain CH. */
static struct lv_nobj *lv_nt_add(struct lv_nt *t, int ch, bool pool)
{
	struct lv_nobj *o;

	if (t->nlive >= LV_NT_MAX)
		return NULL;
	if (pool && t->npool) {
		o = t->pool[--t->npool];
		t->from_pool++;
	} else {
		o = kmem_cache_alloc(lv_ncache, GFP_KERNEL);
		if (!o) {
			KUNIT_FAIL(t->test, "out of memory");
			return NULL;
		}
		t->allocs++;
		if (o->magic == LV_NMAGIC && o->freed == LV_DEAD &&
		    !poll_state_synchronize_rcu(o->free_gp))
			t->reused_in_gp++;
	}
	/* As rculist_nulls.rst: the key, then the refcount, then publish. */
	WRITE_ONCE(o->magic, LV_NMAGIC);
	o->freed = 0;
	WRITE_ONCE(o->key, t->next_key++);
	atomic_set_release(&o->refcnt, 1);
	o->chain = ch;
	spin_lock(&t->lock);
	hlist_nulls_add_head_rcu(&o->node, &t->chain[ch]);
	spin_unlock(&t->lock);
	t->live[t->nlive++] = o;
	return o;
}

/* Unhash live object I, drop the last reference, pool or free it. */
static void lv_nt_kill(struct lv_nt *t, int i, bool init, bool pool)
{
	struct lv_nobj *o = t->live[i];

	t->live[i] = t->live[--t->nlive];
	spin_lock(&t->lock);
	if (init)
		hlist_nulls_del_init_rcu(&o->node);
	else
		hlist_nulls_del_rcu(&o->node);
	spin_unlock(&t->lock);
	/* Readers hold references only for an instant. */
	if (!lv_wait_until(atomic_cmpxchg(&o->refcnt, 1, 0) == 1))
		KUNIT_FAIL(t->test, "a reader kept a reference to key %u", o->key);
	if (pool) {
		t->pool[t->npool++] = o;
		return;
	}
	o->freed = LV_DEAD;
	o->free_gp = get_state_synchronize_rcu();
	kmem_cache_free(lv_ncache, o);
}

static int lv_nt_index(struct lv_nt *t, struct lv_nobj *o)
{
	int i;

	for (i = 0; i < t->nlive; i++)
		if (t->live[i] == o)
			return i;
	return -1;
}

static bool lv_nt_is_anchor(struct lv_nt *t, struct lv_nobj *o)
{
	int ch;

	for (ch = 0; ch < LV_NCHAINS; ch++)
		if (t->anchor[ch] == o->key)
			return true;
	return false;
}

/* Anchors on chains 0 and 1, even keys, at the chains' far ends. */
static void lv_nt_anchors(struct lv_nt *t)
{
	struct lv_nobj *o;
	int ch;

	for (ch = 0; ch < 2; ch++) {
		t->next_key += t->next_key & 1;
		o = lv_nt_add(t, ch, false);
		if (o)
			t->anchor[ch] = o->key;
	}
}

/*
 * Objects are freed (to the cache, or to the reuse pool) and allocated
 * again on random chains while readers look the anchors up: the validated
 * lookup always finds its anchor.  How often a lookup without the nulls
 * check ended on another chain is reported, not asserted: it depends on
 * timing (nulls_moved makes it happen every time).
 */
void nulls_typesafe(struct kunit *test)
{
	const struct lv_param *p = lv_param(test);
	struct lv_nt *t = lv_nt_new(test);
	struct lv_reader *r;
	unsigned int op;
	int i, churn;
	u32 roll;

	lv_nt_anchors(t);
	for (i = 0; i < 6; i++)
		lv_nt_add(t, i % LV_NCHAINS, false);
	r = lv_reader_start(test, NULL, t, p->kind);
	for (op = 0; op < lv_ops; op++) {
		roll = prandom_u32_state(&t->rnd);
		churn = t->nlive - 2;
		if (churn > 0 && (t->nlive >= LV_NT_MAX - 2 || roll & 1)) {
			do {
				i = (roll >> 8) % t->nlive;
				roll = prandom_u32_state(&t->rnd);
			} while (lv_nt_is_anchor(t, t->live[i]));
			lv_nt_kill(t, i, roll & 2, roll & 4);
		} else {
			lv_nt_add(t, (roll >> 4) % LV_NCHAINS, roll & 8);
		}
		if (op % 4 == 3 && !lv_wait_passes(test, r, 1))
			break;
	}
	lv_reader_check(test, r, p->name);
	kunit_info(test, "%u lookups without the nulls check missed (%u ended on another chain); validated lookups restarted %u times; %u of %u allocations came back within a grace period, %u objects reused at once from the pool",
		   r->unval_miss, r->unval_wrong, r->restarts, t->reused_in_gp,
		   t->allocs, t->from_pool);
}

/*
 * The article's hazard, made to happen every time: the reader looks for
 * the anchor of chain 0 and is parked on object X, the object before it;
 * X is freed and reused on chain 1 (or on the empty chain 2), then the
 * reader goes on.  Without the nulls check it ends on the other chain and
 * reports the key absent; with it, it restarts and finds the key.
 */
void nulls_moved(struct kunit *test)
{
	const struct lv_param *p = lv_param(test);
	struct lv_nt *t = lv_nt_new(test);
	unsigned int rep, wrong = 0, found = 0;
	struct lv_nobj *x, *y;
	struct lv_reader *r;
	struct lv_park_res res;
	int target, v;

	lv_nt_anchors(t);
	lv_nt_add(t, 0, false);
	lv_nt_add(t, 1, false);
	r = lv_reader_start(test, NULL, t, p->kind);
	for (rep = 0; rep < lv_reps; rep++) {
		for (v = 0; v < 2; v++) {
			target = 1 + (rep + v) % 2;
			x = lv_nt_add(t, 0, false);
			if (!x || !lv_wait_passes(test, r, 1))
				return;
			if (!lv_arm(test, r, x->key, p->kind, LV_R_LOOP, v))
				return;
			lv_nt_kill(t, lv_nt_index(t, x), rep & 1, true);
			y = lv_nt_add(t, target, true);
			KUNIT_EXPECT_PTR_EQ_MSG(test, y, x, "the pool did not reuse X");
			if (!lv_unpark(test, r))
				return;
			res = r->res;
			if (!v) {
				KUNIT_EXPECT_FALSE_MSG(test, res.nt_found,
						       "rep %u: the unvalidated lookup was not carried away",
						       rep);
				KUNIT_EXPECT_EQ_MSG(test, res.nt_endv, (unsigned long)target,
						    "rep %u: the unvalidated lookup ended on chain %lu",
						    rep, res.nt_endv);
				wrong += !res.nt_found && res.nt_endv != 0;
			} else {
				KUNIT_EXPECT_TRUE_MSG(test, res.nt_found,
						      "rep %u: the validated lookup missed its key: %s",
						      rep, r->err);
				KUNIT_EXPECT_GE(test, res.nt_restarts, 1);
				found += res.nt_found;
			}
			if (y)
				lv_nt_kill(t, lv_nt_index(t, y), false, false);
		}
	}
	lv_reader_check(test, r, p->name);
	KUNIT_EXPECT_EQ(test, wrong, lv_reps);
	KUNIT_EXPECT_EQ(test, found, lv_reps);
	kunit_info(test, "without the nulls check %u of %u lookups ended on the wrong chain; with it %u of %u found their key",
		   wrong, lv_reps, found, lv_reps);
}

#define LV_SAFE_COVERS "hlist_nulls_for_each_entry_safe hlist_nulls_del_rcu " \
	"hlist_nulls_add_head_rcu hlist_nulls_for_each_entry_rcu"

/*
 * hlist_nulls_for_each_entry_safe() lets the loop unhash its current
 * element: every odd-keyed object of chain 0 is moved to chain 2 while
 * readers look up the anchors.
 */
void nulls_safe_move(struct kunit *test)
{
	struct lv_nt *t = lv_nt_new(test);
	struct hlist_nulls_node *pos;
	unsigned int rep;
	struct lv_nobj *o;
	struct lv_reader *r;
	int i, moved, odd0, n2, steps;

	rcuvet_covers(test, LV_SAFE_COVERS);
	lv_gate(test, "nulls_unsafe");
	lv_nt_anchors(t);
	r = lv_reader_start(test, NULL, t, LV_W_NT_RCU);
	for (rep = 0; rep < lv_reps; rep++) {
		for (i = 0; i < 8; i++)
			lv_nt_add(t, 0, false);
		if (!lv_wait_passes(test, r, 1))
			return;
		moved = 0;
		steps = 0;
		spin_lock(&t->lock);
		if (lv_mutant("nulls_unsafe")) {
			hlist_nulls_for_each_entry_rcu(o, pos, &t->chain[0], node) {
				if (++steps > 64)
					break;
				if (!(o->key & 1))
					continue;
				hlist_nulls_del_rcu(&o->node);
				hlist_nulls_add_head_rcu(&o->node, &t->chain[2]);
				o->chain = 2;
				moved++;
			}
		} else {
			hlist_nulls_for_each_entry_safe(o, pos, &t->chain[0], node) {
				if (++steps > 64)
					break;
				if (!(o->key & 1))
					continue;
				hlist_nulls_del_rcu(&o->node);
				hlist_nulls_add_head_rcu(&o->node, &t->chain[2]);
				o->chain = 2;
				moved++;
			}
		}
		odd0 = 0;
		n2 = 0;
		hlist_nulls_for_each_entry(o, pos, &t->chain[0], node)
			odd0 += o->key & 1;
		hlist_nulls_for_each_entry(o, pos, &t->chain[2], node)
			n2++;
		spin_unlock(&t->lock);
		KUNIT_EXPECT_EQ_MSG(test, odd0, 0,
				    "rep %u: %d odd keys left on chain 0", rep, odd0);
		KUNIT_EXPECT_EQ(test, moved, 4);
		KUNIT_EXPECT_EQ(test, n2, 4);
		if (!lv_wait_passes(test, r, 1))
			return;
		for (i = 0; i < t->nlive; )
			if (lv_nt_is_anchor(t, t->live[i]))
				i++;
			else
				lv_nt_kill(t, i, false, false);
	}
	lv_reader_check(test, r, "hlist_nulls_for_each_entry_rcu");
}
