// SPDX-License-Identifier: GPL-2.0
/*
 * rcuvet_list's reader: a kthread on CPU 1 that traverses its list (or
 * looks the typesafe hlist_nulls anchors up) pass after pass, inside the
 * read-side critical section its walk calls for, checks every element it
 * meets and every pass as a whole, and parks on an element when the
 * updater asks it to; and the updater's side of it: start, stop, wait
 * for passes, arm and release the parking.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/rculist.h>
#include <linux/rculist_bl.h>
#include <linux/rculist_nulls.h>
#include <linux/rcupdate.h>

#include "rcuvet_list.h"

/* What a step tells the walk: go on, stop, resume, a lookup matched. */
enum { LV_GO, LV_STOP, LV_RESUME, LV_MATCH };

static int lv_fam_of(int walk)
{
	switch (walk) {
	case LV_W_LIST_RCU:
	case LV_W_LIST_OR_NULL:
	case LV_W_LIST_NEXT:
	case LV_W_LOCKLESS:
	case LV_W_ENTRY_LOCKLESS:
		return LV_LIST;
	case LV_W_HLIST_RCU:
	case LV_W_HLIST_NOTRACE:
	case LV_W_HLIST_STEP:
	case LV_W_HLIST_BH:
		return LV_HLIST;
	case LV_W_NULLS_RCU:
	case LV_W_NULLS_STEP:
		return LV_NULLS;
	case LV_W_BL_RCU:
		return LV_BL;
	default:
		return LV_NT;
	}
}

struct lv_walk {
	struct lv_reader *r;
	int walk, resume;
	bool armed, parked, validate;
	u32 park_key;
	int steps, count, anchors, grp;
	u32 last_key;
	bool have_last;
	u32 first_key;
	bool from_ok, ended, bad;
	unsigned long end_nulls;
	bool nt_recorded, nt_found;
	unsigned long nt_endv;
	int nt_restarts;
};

static __printf(2, 0) void lv_vfail(struct lv_reader *r, const char *fmt,
				    va_list ap)
{
	if (!atomic_cmpxchg(&r->claim, 0, 1))
		vsnprintf(r->err, sizeof(r->err), fmt, ap);
	/* The message is written before the error is counted. */
	smp_mb__before_atomic();
	atomic_inc(&r->errors);
}

static __printf(2, 3) int lv_bad(struct lv_walk *w, const char *fmt, ...)
{
	va_list ap;

	w->bad = true;
	va_start(ap, fmt);
	lv_vfail(w->r, fmt, ap);
	va_end(ap);
	return LV_STOP;
}

/* Park inside the critical section until released. */
static void lv_park(struct lv_walk *w)
{
	struct lv_reader *r = w->r;
	unsigned long end;

	WRITE_ONCE(r->park_key, LV_NONE);
	w->parked = true;
	/* Pairs with lv_arm(): the updater acts once we stand here. */
	smp_store_release(&r->parked, true);
	end = jiffies + msecs_to_jiffies(LV_TIMEOUT_MS);
	/* Pairs with lv_unpark(): the update is complete when we go on. */
	while (!smp_load_acquire(&r->release)) {
		if (time_after(jiffies, end)) {
			lv_bad(w, "parked reader was never released");
			return;
		}
		cpu_relax();
	}
}

static bool lv_poisoned(const void *node)
{
	return node == LIST_POISON1 || node == LIST_POISON2;
}

/* Check one element met by a traversal; park on it if asked to. */
static int lv_step(struct lv_walk *w, struct lv_elem *e, const void *node)
{
	struct lv_reader *r = w->r;
	u32 key, gen;
	int aidx;

	if (lv_poisoned(node))
		return lv_bad(w, "met poisoned pointer %#lx after key %u",
			      (unsigned long)node, w->last_key);
	if ((unsigned long)node & 1)
		return lv_bad(w, "node pointer %#lx carries a low bit",
			      (unsigned long)node);
	if (++w->steps > LV_MAX_STEPS)
		return lv_bad(w, "walk did not come back to its head in %d steps",
			      LV_MAX_STEPS);
	if (READ_ONCE(e->magic) != LV_MAGIC)
		return lv_bad(w, "element %p after key %u has magic %#x",
			      e, w->last_key, READ_ONCE(e->magic));
	key = READ_ONCE(e->key);
	gen = READ_ONCE(e->gen);
	if (READ_ONCE(e->sum) != lv_sum(key, gen))
		return lv_bad(w, "element %p (key %u) is corrupt", e, key);
	if (w->have_last && key <= w->last_key)
		return lv_bad(w, "key %u after key %u: not ascending", key,
			      w->last_key);
	w->last_key = key;
	w->have_last = true;
	w->count++;
	aidx = READ_ONCE(e->aidx);
	if (aidx >= 0 && aidx < LV_MAX_ANCHORS) {
		w->anchors++;
		if (gen < r->last_gen[aidx])
			return lv_bad(w, "key %u: version %u seen after version %u",
				      key, gen, r->last_gen[aidx]);
		r->last_gen[aidx] = gen;
	}
	if (READ_ONCE(e->grp))
		w->grp++;
	if (w->parked && w->first_key == LV_NONE)
		w->first_key = key;
	if (w->armed && !w->parked && key == w->park_key) {
		lv_park(w);
		if (w->bad)
			return LV_STOP;
		if (w->resume != LV_R_LOOP)
			return LV_RESUME;
	}
	return LV_GO;
}

static void lv_walk_list(struct lv_walk *w)
{
	struct list_head *h = w->r->lhead, *p;
	struct lv_elem *e, *x;
	bool first = true;
	int s;

	switch (w->walk) {
	case LV_W_LIST_RCU:
		list_for_each_entry_rcu(e, h, lh) {
			s = lv_step(w, e, &e->lh);
			if (s == LV_STOP)
				return;
			if (s == LV_RESUME)
				goto resume;
		}
		break;
	case LV_W_LIST_OR_NULL:
		for (e = list_first_or_null_rcu(h, struct lv_elem, lh); e;
		     e = list_next_or_null_rcu(h, &e->lh, struct lv_elem, lh))
			if (lv_step(w, e, &e->lh) != LV_GO)
				return;
		break;
	case LV_W_LIST_NEXT:
		for (p = rcu_dereference(list_next_rcu(h)); p != h;
		     p = rcu_dereference(list_next_rcu(p))) {
			e = list_entry_rcu(p, struct lv_elem, lh);
			if (lv_step(w, e, p) != LV_GO)
				return;
		}
		break;
	case LV_W_LOCKLESS:
		list_for_each_entry_lockless(e, h, lh)
			if (lv_step(w, e, &e->lh) != LV_GO)
				return;
		break;
	case LV_W_ENTRY_LOCKLESS:
		for (e = list_entry_lockless(h->next, struct lv_elem, lh);
		     &e->lh != h;
		     e = list_entry_lockless(e->lh.next, struct lv_elem, lh))
			if (lv_step(w, e, &e->lh) != LV_GO)
				return;
		break;
	}
	w->ended = true;
	return;
resume:
	if (w->resume == LV_R_CONTINUE) {
		list_for_each_entry_continue_rcu(e, h, lh)
			if (lv_step(w, e, &e->lh) != LV_GO)
				return;
	} else {
		x = e;
		list_for_each_entry_from_rcu(e, h, lh) {
			if (first) {
				w->from_ok = e == x;
				first = false;
				continue;
			}
			if (lv_step(w, e, &e->lh) != LV_GO)
				return;
		}
	}
	w->ended = true;
}

static void lv_walk_hlist(struct lv_walk *w)
{
	struct hlist_head *h = &w->r->c->hhead;
	struct hlist_node *n;
	struct lv_elem *e, *x;
	bool first = true;
	int s;

	switch (w->walk) {
	case LV_W_HLIST_RCU:
		hlist_for_each_entry_rcu(e, h, hn) {
			s = lv_step(w, e, &e->hn);
			if (s == LV_STOP)
				return;
			if (s == LV_RESUME)
				goto resume;
		}
		break;
	case LV_W_HLIST_NOTRACE:
		hlist_for_each_entry_rcu_notrace(e, h, hn)
			if (lv_step(w, e, &e->hn) != LV_GO)
				return;
		break;
	case LV_W_HLIST_STEP:
		for (n = rcu_dereference(hlist_first_rcu(h)); n;
		     n = rcu_dereference(hlist_next_rcu(n))) {
			e = hlist_entry(n, struct lv_elem, hn);
			if (lv_step(w, e, n) != LV_GO)
				return;
		}
		break;
	case LV_W_HLIST_BH:
		hlist_for_each_entry_rcu_bh(e, h, hn) {
			s = lv_step(w, e, &e->hn);
			if (s == LV_STOP)
				return;
			if (s == LV_RESUME)
				goto resume;
		}
		break;
	}
	w->ended = true;
	return;
resume:
	if (w->resume == LV_R_CONTINUE && w->walk == LV_W_HLIST_BH) {
		hlist_for_each_entry_continue_rcu_bh(e, hn)
			if (lv_step(w, e, &e->hn) != LV_GO)
				return;
	} else if (w->resume == LV_R_CONTINUE) {
		hlist_for_each_entry_continue_rcu(e, hn)
			if (lv_step(w, e, &e->hn) != LV_GO)
				return;
	} else {
		x = e;
		hlist_for_each_entry_from_rcu(e, hn) {
			if (first) {
				w->from_ok = e == x;
				first = false;
				continue;
			}
			if (lv_step(w, e, &e->hn) != LV_GO)
				return;
		}
	}
	w->ended = true;
}

static void lv_walk_nulls(struct lv_walk *w)
{
	struct hlist_nulls_head *h = &w->r->c->nhead;
	struct hlist_nulls_node *pos;
	struct lv_elem *e;

	if (w->walk == LV_W_NULLS_RCU) {
		hlist_nulls_for_each_entry_rcu(e, pos, h, nn)
			if (lv_step(w, e, pos) != LV_GO)
				return;
	} else {
		for (pos = rcu_dereference(hlist_nulls_first_rcu(h));
		     !is_a_nulls(pos);
		     pos = rcu_dereference(hlist_nulls_next_rcu(pos))) {
			e = hlist_nulls_entry(pos, struct lv_elem, nn);
			if (lv_step(w, e, pos) != LV_GO)
				return;
		}
	}
	w->end_nulls = get_nulls_value(pos);
	w->ended = true;
}

static void lv_walk_bl(struct lv_walk *w)
{
	struct hlist_bl_node *pos;
	struct lv_elem *e;

	hlist_bl_for_each_entry_rcu(e, pos, &w->r->c->bhead, bn)
		if (lv_step(w, e, pos) != LV_GO)
			return;
	w->ended = true;
}

static void lv_nput(struct lv_nobj *o)
{
	atomic_dec(&o->refcnt);
}

/* Check one typesafe object met by a lookup; park on it if asked to. */
static int lv_nt_visit(struct lv_walk *w, struct lv_nobj *o,
		       struct hlist_nulls_node *pos, u32 key, bool validate)
{
	if (lv_poisoned(pos))
		return lv_bad(w, "nulls lookup met poisoned pointer %#lx",
			      (unsigned long)pos);
	if (++w->steps > LV_MAX_STEPS * LV_NCHAINS * 4)
		return lv_bad(w, "nulls lookups took over %d steps", w->steps);
	if (READ_ONCE(o->magic) != LV_NMAGIC)
		return lv_bad(w, "typesafe object %p has magic %#x", o,
			      READ_ONCE(o->magic));
	if (w->armed && !w->parked && validate == w->validate &&
	    READ_ONCE(o->key) == w->park_key) {
		lv_park(w);
		if (w->bad)
			return LV_STOP;
	}
	return READ_ONCE(o->key) == key ? LV_MATCH : LV_GO;
}

struct lv_nlook {
	struct lv_nobj *obj;	/* found, with a reference */
	unsigned long endv;	/* nulls value the last walk ended on */
	int restarts;
};

/*
 * The lookup of Documentation/RCU/rculist_nulls.rst: take a reference,
 * recheck the key, and (validate) restart when the walk ended on another
 * chain's nulls value.
 */
static void lv_nt_lookup(struct lv_walk *w, int ch, u32 key, bool validate,
			 struct lv_nlook *lk)
{
	struct hlist_nulls_head *h = &w->r->nt->chain[ch];
	struct hlist_nulls_node *pos;
	struct lv_nobj *o;
	int s;

	lk->obj = NULL;
	lk->restarts = 0;
begin:
	if (w->walk == LV_W_NT_STEP) {
		for (pos = rcu_dereference(hlist_nulls_first_rcu(h));
		     !is_a_nulls(pos);
		     pos = rcu_dereference(hlist_nulls_next_rcu(pos))) {
			o = hlist_nulls_entry(pos, struct lv_nobj, node);
			s = lv_nt_visit(w, o, pos, key, validate);
			if (s == LV_STOP)
				return;
			if (s == LV_MATCH)
				goto match;
		}
	} else {
		hlist_nulls_for_each_entry_rcu(o, pos, h, node) {
			s = lv_nt_visit(w, o, pos, key, validate);
			if (s == LV_STOP)
				return;
			if (s == LV_MATCH)
				goto match;
		}
	}
	lk->endv = get_nulls_value(pos);
	if (validate && lk->endv != ch)
		goto restart;
	return;
match:
	if (!atomic_inc_not_zero(&o->refcnt))
		goto restart;
	if (READ_ONCE(o->key) != key) {
		lv_nput(o);
		goto restart;
	}
	lk->obj = o;
	lk->endv = ch;
	return;
restart:
	if (++lk->restarts > LV_MAX_RESTARTS) {
		lv_bad(w, "lookup of key %u restarted %d times", key,
		       lk->restarts);
		return;
	}
	goto begin;
}

static void lv_nt_record(struct lv_walk *w, struct lv_nlook *lk)
{
	if (!w->parked || w->nt_recorded)
		return;
	w->nt_recorded = true;
	w->nt_found = lk->obj;
	w->nt_endv = lk->endv;
	w->nt_restarts = lk->restarts;
}

/* One pass of typesafe lookups: each anchor, validated then not. */
static void lv_walk_nt(struct lv_walk *w)
{
	struct lv_reader *r = w->r;
	bool validate = !lv_mutant("nulls_novalidate");
	struct lv_nlook lk;
	int ch;
	u32 key;

	for (ch = 0; ch < LV_NCHAINS; ch++) {
		key = READ_ONCE(r->nt->anchor[ch]);
		if (key == LV_NONE)
			continue;
		lv_nt_lookup(w, ch, key, validate, &lk);
		if (w->bad)
			return;
		lv_nt_record(w, &lk);
		r->restarts += lk.restarts;
		if (!lk.obj) {
			lv_bad(w, "validated lookup: key %u not on chain %d (ended on %lu)",
			       key, ch, lk.endv);
			return;
		}
		lv_nput(lk.obj);

		lv_nt_lookup(w, ch, key, false, &lk);
		if (w->bad)
			return;
		lv_nt_record(w, &lk);
		if (lk.obj) {
			lv_nput(lk.obj);
		} else {
			r->unval_miss++;
			if (lk.endv != ch)
				r->unval_wrong++;
		}
	}
	w->ended = true;
}

static void lv_pass_end(struct lv_walk *w)
{
	struct lv_reader *r = w->r;
	int n;

	if (w->ended && !w->bad) {
		n = READ_ONCE(r->n_anchors);
		if (n && w->anchors != n)
			lv_bad(w, "pass saw %d of %d anchors", w->anchors, n);
		n = READ_ONCE(r->grp_all);
		if (n && w->grp && w->grp != n)
			lv_bad(w, "pass saw %d of a group of %d", w->grp, n);
		if (lv_fam_of(w->walk) == LV_NULLS && w->end_nulls != r->nulls)
			lv_bad(w, "chain ended on nulls value %lu, not %lu",
			       w->end_nulls, r->nulls);
		if (r->grow_only && w->count < r->last_count)
			lv_bad(w, "insertion-only list shrank from %d to %d",
			       r->last_count, w->count);
	}
	WRITE_ONCE(r->last_count, w->count);
	if (w->parked) {
		r->res.ok = !w->bad;
		r->res.ended = w->ended;
		r->res.from_ok = w->from_ok;
		r->res.first_key = w->first_key;
		r->res.count = w->count;
		r->res.nt_found = w->nt_found;
		r->res.nt_endv = w->nt_endv;
		r->res.nt_restarts = w->nt_restarts;
		/* The last thing inside the critical section. */
		smp_store_release(&r->park_done, true);
	}
}

static void lv_pass(struct lv_reader *r)
{
	struct lv_walk w = {
		.r = r,
		.first_key = LV_NONE,
	};
	bool bh, lock;

	/* Pairs with lv_arm(): the parking parameters are set. */
	w.park_key = smp_load_acquire(&r->park_key);
	w.armed = w.park_key != LV_NONE;
	w.walk = w.armed ? r->park_walk : READ_ONCE(r->walk);
	w.resume = w.armed ? r->park_resume : LV_R_LOOP;
	w.validate = r->park_validate;

	bh = w.walk == LV_W_HLIST_BH && !lv_mutant("bh_wrong_lock");
	lock = w.walk != LV_W_LOCKLESS && w.walk != LV_W_ENTRY_LOCKLESS &&
	       !(w.walk == LV_W_LIST_RCU && lv_mutant("no_reader"));
	if (bh)
		rcu_read_lock_bh();
	else if (lock)
		rcu_read_lock();

	if (w.armed && w.park_key == LV_PARK_HEAD)
		lv_park(&w);
	if (!w.bad) {
		switch (lv_fam_of(w.walk)) {
		case LV_LIST:
			lv_walk_list(&w);
			break;
		case LV_HLIST:
			lv_walk_hlist(&w);
			break;
		case LV_NULLS:
			lv_walk_nulls(&w);
			break;
		case LV_BL:
			lv_walk_bl(&w);
			break;
		default:
			lv_walk_nt(&w);
			break;
		}
	}
	lv_pass_end(&w);

	if (bh)
		rcu_read_unlock_bh();
	else if (lock)
		rcu_read_unlock();
}

static int lv_reader_fn(void *arg)
{
	struct lv_reader *r = arg;

	while (!READ_ONCE(r->stop)) {
		lv_pass(r);
		/* A pass's results are visible once it is counted. */
		smp_mb__before_atomic();
		atomic_inc(&r->passes);
		cond_resched();
	}
	kthread_complete_and_exit(&r->done, 0);
}

/* ------------------------------------------------------------------ */
/* The updater's side: start, stop, wait for, arm and release it.     */

static void lv_stop(struct lv_reader *r)
{
	if (r->stopped)
		return;
	WRITE_ONCE(r->stop, true);
	/* Let a reader parked for good go. */
	smp_store_release(&r->release, true);
	wait_for_completion(&r->done);
	r->stopped = true;
}

static void lv_stop_action(void *arg)
{
	lv_stop(arg);
}

struct lv_reader *lv_reader_new(struct kunit *test, struct lv_ctx *c,
				struct lv_nt *t, int walk)
{
	struct lv_reader *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->c = c;
	r->nt = t;
	r->walk = walk;
	if (c) {
		r->lhead = &c->lhead;
		r->nulls = c->nulls;
	}
	r->park_key = LV_NONE;
	init_completion(&r->done);
	return r;
}

void lv_reader_go(struct kunit *test, struct lv_reader *r)
{
	struct task_struct *t;

	t = kthread_run_on_cpu(lv_reader_fn, r, RCUVET_READER_CPU,
			       "rcuvet_list/%u");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, lv_stop_action, r), 0);
	KUNIT_ASSERT_TRUE_MSG(test, lv_wait_until(atomic_read(&r->passes) > 0),
			      "the reader never completed a pass");
}

struct lv_reader *lv_reader_start(struct kunit *test, struct lv_ctx *c,
				  struct lv_nt *t, int walk)
{
	struct lv_reader *r = lv_reader_new(test, c, t, walk);

	lv_reader_go(test, r);
	return r;
}

/* Wait until K passes that began after this call have completed. */
bool lv_wait_passes(struct kunit *test, struct lv_reader *r, int k)
{
	int target = atomic_read(&r->passes) + k + 1;

	if (lv_wait_until(atomic_read_acquire(&r->passes) >= target))
		return true;
	KUNIT_FAIL(test, "the reader made no progress");
	return false;
}

void lv_reader_check(struct kunit *test, struct lv_reader *r,
		     const char *what)
{
	lv_stop(r);
	KUNIT_EXPECT_GT_MSG(test, atomic_read(&r->passes), 0,
			    "%s reader never completed a pass", what);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&r->errors), 0,
			    "%s reader: %d bad passes, the first: %s", what,
			    atomic_read(&r->errors), r->err);
}

/* Make R park at KEY in its next pass; false if it never got there. */
bool lv_arm(struct kunit *test, struct lv_reader *r, u32 key, int walk,
	    int resume, bool validate)
{
	WRITE_ONCE(r->parked, false);
	WRITE_ONCE(r->park_done, false);
	WRITE_ONCE(r->release, false);
	r->park_walk = walk;
	r->park_resume = resume;
	r->park_validate = validate;
	/* Publishes the parameters above to lv_pass(). */
	smp_store_release(&r->park_key, key);
	/* Pairs with lv_park(): the reader stands on the element. */
	if (lv_wait_until(smp_load_acquire(&r->parked)))
		return true;
	KUNIT_FAIL(test, "the reader never reached key %u", key);
	WRITE_ONCE(r->park_key, LV_NONE);
	/* Should it park after all, it goes on at once. */
	smp_store_release(&r->release, true);
	return false;
}

/* Release a parked reader and wait for the end of its pass. */
bool lv_unpark(struct kunit *test, struct lv_reader *r)
{
	/* Pairs with lv_park(): the update is done. */
	smp_store_release(&r->release, true);
	/* Pairs with lv_pass_end(): the pass's results are there. */
	if (lv_wait_until(smp_load_acquire(&r->park_done)))
		return true;
	KUNIT_FAIL(test, "the parked reader never finished its pass");
	return false;
}
