// SPDX-License-Identifier: GPL-2.0
/*
 * rcuvet_list's updater: the update primitives under test on CPU 0, each
 * keeping a sorted model of the list in step and checking the links it
 * left, the retirement of deleted elements by kfree_rcu() or call_rcu(),
 * the check of the whole list against the model; and the stress cases,
 * random updates under a reader that checks every pass.
 */
#include <kunit/test.h>
#include <linux/prandom.h>
#include <linux/rculist.h>
#include <linux/rculist_bl.h>
#include <linux/rculist_nulls.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "rcuvet_list.h"

/* ------------------------------------------------------------------ */
/* The updater's operations, each keeping the model in step.           */

static __printf(2, 3) void lv_ufail(struct lv_ctx *c, const char *fmt, ...)
{
	char buf[200];
	va_list ap;

	if (c->ufails++ >= 3)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	KUNIT_FAIL(c->test, "%s", buf);
}

static void lv_ctx_free(void *arg)
{
	struct lv_ctx *c = arg;

	while (c->n)
		kfree(c->sh[--c->n]);
}

struct lv_ctx *lv_ctx_new(struct kunit *test, int fam)
{
	struct lv_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->test = test;
	c->fam = fam;
	c->nulls = 5;
	INIT_LIST_HEAD(&c->lhead);
	INIT_LIST_HEAD(&c->src);
	INIT_HLIST_HEAD(&c->hhead);
	INIT_HLIST_NULLS_HEAD(&c->nhead, c->nulls);
	INIT_HLIST_BL_HEAD(&c->bhead);
	prandom_seed_state(&c->rnd, 0x6c697374 + fam);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, lv_ctx_free, c), 0);
	return c;
}

struct lv_elem *lv_new(struct lv_ctx *c, u32 key, int aidx, bool grp)
{
	struct lv_elem *e = kzalloc(sizeof(*e), GFP_KERNEL);

	if (!e) {
		lv_ufail(c, "out of memory");
		return NULL;
	}
	e->magic = LV_MAGIC;
	e->key = key;
	e->gen = ++c->gen;
	e->sum = lv_sum(key, e->gen);
	e->aidx = aidx;
	e->grp = grp;
	return e;
}

static void lv_free_cb(struct rcu_head *rh)
{
	struct lv_elem *e = container_of(rh, struct lv_elem, rh);

	e->magic = LV_DEAD;
	kfree(e);
}

/* Free a deleted element once readers are done with it. */
void lv_retire(struct lv_ctx *c, struct lv_elem *e)
{
	if (lv_mutant("free_now"))
		kfree(e);
	else if (c->frees++ & 1)
		call_rcu(&e->rh, lv_free_cb);
	else
		kfree_rcu(e, rh);
}

/* First model position whose key is >= KEY. */
int lv_pos(struct lv_ctx *c, u32 key)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (c->sh[i]->key >= key)
			break;
	return i;
}

/* Insert E at its sorted place, by the primitive HOW names. */
static bool lv_ins(struct lv_ctx *c, struct lv_elem *e, int how)
{
	int pos = lv_pos(c, e->key), n = c->n;
	bool ok = false;

	if (n >= LV_MAX_ELEMS || (pos < n && c->sh[pos]->key == e->key)) {
		lv_ufail(c, "cannot insert key %u", e->key);
		kfree(e);
		return false;
	}
	switch (c->fam) {
	case LV_LIST:
		switch (how) {
		case LV_A_HEAD:
			ok = pos == 0;
			if (ok)
				list_add_rcu(&e->lh, &c->lhead);
			break;
		case LV_A_TAIL:
			ok = pos == n;
			if (ok)
				list_add_tail_rcu(&e->lh, &c->lhead);
			break;
		case LV_A_AFTER:
			ok = pos > 0;
			if (ok)
				list_add_rcu(&e->lh, &c->sh[pos - 1]->lh);
			break;
		case LV_A_BEFORE:
			ok = pos < n;
			if (ok)
				list_add_tail_rcu(&e->lh, &c->sh[pos]->lh);
			break;
		}
		break;
	case LV_HLIST:
		switch (how) {
		case LV_A_HEAD:
			ok = pos == 0;
			if (ok)
				hlist_add_head_rcu(&e->hn, &c->hhead);
			break;
		case LV_A_TAIL:
			ok = pos == n;
			if (ok)
				hlist_add_tail_rcu(&e->hn, &c->hhead);
			break;
		case LV_A_AFTER:
			ok = pos > 0;
			if (ok)
				hlist_add_behind_rcu(&e->hn, &c->sh[pos - 1]->hn);
			break;
		case LV_A_BEFORE:
			ok = pos < n;
			if (ok)
				hlist_add_before_rcu(&e->hn, &c->sh[pos]->hn);
			break;
		}
		break;
	case LV_NULLS:
		ok = how == LV_A_HEAD && pos == 0;
		if (ok)
			hlist_nulls_add_head_rcu(&e->nn, &c->nhead);
		break;
	case LV_BL:
		hlist_bl_lock(&c->bhead);
		if (how == LV_A_HEAD && pos == 0) {
			hlist_bl_add_head_rcu(&e->bn, &c->bhead);
			ok = true;
		} else if (how == LV_A_SETFIRST && n == 0) {
			/* The list is empty: publish E as its only element. */
			e->bn.next = NULL;
			e->bn.pprev = &c->bhead.first;
			hlist_bl_set_first_rcu(&c->bhead, &e->bn);
			ok = true;
		}
		hlist_bl_unlock(&c->bhead);
		break;
	}
	if (!ok) {
		lv_ufail(c, "insertion %d of key %u at %d of %d is not possible",
			 how, e->key, pos, n);
		kfree(e);
		return false;
	}
	memmove(&c->sh[pos + 1], &c->sh[pos], (n - pos) * sizeof(c->sh[0]));
	c->sh[pos] = e;
	c->n++;
	return true;
}

struct lv_elem *lv_ins_key(struct lv_ctx *c, u32 key, int how)
{
	struct lv_elem *e = lv_new(c, key, -1, false);

	if (e && lv_ins(c, e, how))
		return e;
	return NULL;
}

/* Delete the element at model position POS, then retire it. */
void lv_del(struct lv_ctx *c, int pos, int how)
{
	struct lv_elem *e = c->sh[pos];
	struct lv_elem *nx = pos + 1 < c->n ? c->sh[pos + 1] : NULL;
	bool plain = lv_mutant("plain_del");
	bool bl_init = lv_mutant("bl_del_init");
	bool check = !plain && !bl_init;

	switch (c->fam) {
	case LV_LIST:
		if (plain)
			list_del(&e->lh);
		else
			list_del_rcu(&e->lh);
		if (check && (e->lh.prev != LIST_POISON2 ||
			      e->lh.next != (nx ? &nx->lh : &c->lhead)))
			lv_ufail(c, "list_del_rcu() left prev %p next %p",
				 e->lh.prev, e->lh.next);
		break;
	case LV_HLIST:
		if (how == LV_D_INIT && plain)
			hlist_del_init(&e->hn);
		else if (how == LV_D_INIT)
			hlist_del_init_rcu(&e->hn);
		else if (plain)
			hlist_del(&e->hn);
		else
			hlist_del_rcu(&e->hn);
		if (check && (e->hn.next != (nx ? &nx->hn : NULL) ||
			      (how == LV_D_INIT ? !hlist_unhashed(&e->hn) :
			       e->hn.pprev != LIST_POISON2)))
			lv_ufail(c, "hlist deletion %d left next %p pprev %p",
				 how, e->hn.next, e->hn.pprev);
		break;
	case LV_NULLS:
		if (plain)
			hlist_nulls_del(&e->nn);
		else if (how == LV_D_INIT)
			hlist_nulls_del_init_rcu(&e->nn);
		else
			hlist_nulls_del_rcu(&e->nn);
		if (check &&
		    (e->nn.next != (nx ? &nx->nn :
				    (struct hlist_nulls_node *)NULLS_MARKER(c->nulls)) ||
		     (how == LV_D_INIT ? !hlist_nulls_unhashed(&e->nn) :
		      e->nn.pprev != LIST_POISON2)))
			lv_ufail(c, "hlist_nulls deletion %d left next %p pprev %p",
				 how, e->nn.next, e->nn.pprev);
		break;
	case LV_BL:
		hlist_bl_lock(&c->bhead);
		if (plain)
			hlist_bl_del(&e->bn);
		else if (bl_init)
			hlist_bl_del_init(&e->bn);
		else
			hlist_bl_del_rcu(&e->bn);
		hlist_bl_unlock(&c->bhead);
		if (check && (e->bn.next != (nx ? &nx->bn : NULL) ||
			      e->bn.pprev != LIST_POISON2))
			lv_ufail(c, "hlist_bl_del_rcu() left next %p pprev %p",
				 e->bn.next, e->bn.pprev);
		break;
	}
	c->n--;
	memmove(&c->sh[pos], &c->sh[pos + 1], (c->n - pos) * sizeof(c->sh[0]));
	lv_retire(c, e);
}

/* Replace the element at POS by a new version (same key, newer gen). */
u32 lv_repl(struct lv_ctx *c, int pos)
{
	struct lv_elem *old = c->sh[pos], *e;

	e = lv_new(c, old->key, old->aidx, old->grp);
	if (!e)
		return 0;
	if (lv_mutant("replace_nonatomic")) {
		/* Wrong: a window in which readers find neither version. */
		if (c->fam == LV_LIST)
			list_del_rcu(&old->lh);
		else
			hlist_del_rcu(&old->hn);
		c->n--;
		memmove(&c->sh[pos], &c->sh[pos + 1],
			(c->n - pos) * sizeof(c->sh[0]));
		if (c->r)
			lv_wait_passes(c->test, c->r, 1);
		lv_ins(c, e, pos ? LV_A_AFTER : LV_A_HEAD);
		lv_retire(c, old);
		return e->gen;
	}
	if (c->fam == LV_LIST) {
		list_replace_rcu(&old->lh, &e->lh);
		if (old->lh.prev != LIST_POISON2)
			lv_ufail(c, "list_replace_rcu() left old prev %p",
				 old->lh.prev);
	} else {
		hlist_replace_rcu(&old->hn, &e->hn);
		if (old->hn.pprev != LIST_POISON2)
			lv_ufail(c, "hlist_replace_rcu() left old pprev %p",
				 old->hn.pprev);
	}
	c->sh[pos] = e;
	lv_retire(c, old);
	return e->gen;
}

/* The real list, walked by the updater, matches the model. */
void lv_model_check(struct lv_ctx *c)
{
	struct hlist_nulls_node *npos;
	struct hlist_bl_node *bpos;
	struct list_head *prev;
	struct lv_elem *e;
	int i = 0;

	switch (c->fam) {
	case LV_LIST:
		prev = &c->lhead;
		list_for_each_entry(e, &c->lhead, lh) {
			if (i >= c->n || e != c->sh[i] || e->lh.prev != prev)
				goto bad;
			prev = &e->lh;
			i++;
		}
		if (c->lhead.prev != prev)
			goto bad;
		break;
	case LV_HLIST:
		hlist_for_each_entry(e, &c->hhead, hn) {
			if (i >= c->n || e != c->sh[i] ||
			    rcu_dereference_protected(hlist_pprev_rcu(&e->hn),
						      true) != &e->hn)
				goto bad;
			i++;
		}
		break;
	case LV_NULLS:
		hlist_nulls_for_each_entry(e, npos, &c->nhead, nn) {
			if (i >= c->n || e != c->sh[i])
				goto bad;
			i++;
		}
		if (get_nulls_value(npos) != c->nulls)
			goto bad;
		break;
	case LV_BL:
		hlist_bl_lock(&c->bhead);
		/* Legal outside a reader: the bit lock is held. */
		if (hlist_bl_first_rcu(&c->bhead) != (c->n ? &c->sh[0]->bn : NULL)) {
			hlist_bl_unlock(&c->bhead);
			goto bad;
		}
		hlist_bl_for_each_entry(e, bpos, &c->bhead, bn) {
			if (i >= c->n || e != c->sh[i])
				break;
			i++;
		}
		hlist_bl_unlock(&c->bhead);
		break;
	}
	if (i == c->n)
		return;
bad:
	lv_ufail(c, "the list differs from the model at position %d of %d",
		 i, c->n);
}

/* Fill an empty list with N elements, keys 10, 20, ... */
void lv_fill(struct lv_ctx *c, int n, int aidx_at)
{
	struct lv_elem *e;
	int i, k;

	for (i = 0; i < n; i++) {
		/* Head-only lists are filled from their largest key down. */
		k = (c->fam == LV_NULLS || c->fam == LV_BL) ? n - 1 - i : i;
		e = lv_new(c, 10 * (k + 1), k == aidx_at ? 0 : -1, false);
		if (!e)
			return;
		if (c->fam == LV_NULLS || c->fam == LV_BL)
			lv_ins(c, e, c->n ? LV_A_HEAD : (c->fam == LV_BL ?
				 LV_A_SETFIRST : LV_A_HEAD));
		else
			lv_ins(c, e, LV_A_TAIL);
	}
}

void lv_drain(struct lv_ctx *c)
{
	while (c->n)
		lv_del(c, 0, LV_D_DEL);
}

/* ------------------------------------------------------------------ */
/* Stress: random updates under a reader that checks every pass.       */

u32 lv_rand(struct lv_ctx *c, u32 n)
{
	return n ? prandom_u32_state(&c->rnd) % n : 0;
}

void lv_stress_ins(struct lv_ctx *c)
{
	int pos, how;
	u32 key;

	if (c->fam == LV_NULLS || c->fam == LV_BL) {
		/* Head-only lists: a key below all the others. */
		key = c->n ? c->sh[0]->key - 1 - lv_rand(c, 16) : 1u << 30;
		lv_ins_key(c, key, c->n || c->fam != LV_BL ? LV_A_HEAD :
			   LV_A_SETFIRST);
		return;
	}
	do {
		key = 1 + lv_rand(c, 500000);
		pos = lv_pos(c, key);
	} while (pos < c->n && c->sh[pos]->key == key);
	if (pos == 0)
		how = c->n && lv_rand(c, 2) ? LV_A_BEFORE : LV_A_HEAD;
	else if (pos == c->n)
		how = lv_rand(c, 2) ? LV_A_AFTER : LV_A_TAIL;
	else
		how = lv_rand(c, 2) ? LV_A_AFTER : LV_A_BEFORE;
	lv_ins_key(c, key, how);
}

static void lv_stress_del(struct lv_ctx *c)
{
	int churn = c->n - c->n_anchors, j, i;

	j = lv_rand(c, churn);
	for (i = 0; i < c->n; i++) {
		if (c->sh[i]->aidx >= 0)
			continue;
		if (!j--)
			break;
	}
	lv_del(c, i, lv_rand(c, 2) && (c->fam == LV_HLIST || c->fam == LV_NULLS) ?
	       LV_D_INIT : LV_D_DEL);
}

static void lv_stress_repl(struct lv_ctx *c)
{
	int a = lv_rand(c, c->n_anchors), i;

	for (i = 0; i < c->n; i++)
		if (c->sh[i]->aidx == a)
			break;
	if (i < c->n)
		lv_repl(c, i);
}

/* Add the anchors: keys spread over the key space, never deleted. */
void lv_anchors(struct lv_ctx *c, int n)
{
	struct lv_elem *e;
	int i;

	for (i = 0; i < n; i++) {
		if (c->fam == LV_NULLS)
			e = lv_new(c, (1u << 31) - i, i, false);
		else
			e = lv_new(c, 100000 * (i + 1), i, false);
		if (!e || !lv_ins(c, e, c->fam == LV_NULLS ? LV_A_HEAD : LV_A_TAIL))
			return;
	}
	c->n_anchors = n;
}

static void lv_stress(struct lv_ctx *c, struct lv_reader *r)
{
	bool repl = c->fam == LV_LIST || c->fam == LV_HLIST;
	unsigned int op;
	u32 roll;

	for (op = 0; op < lv_ops && !c->ufails; op++) {
		roll = lv_rand(c, 8);
		if (c->fam == LV_BL && op % 32 == 31)
			lv_drain(c);	/* then refill through set_first */
		else if (c->n > c->n_anchors &&
			 (c->n >= LV_MAX_ELEMS - 8 || roll < 3))
			lv_stress_del(c);
		else if (repl && c->n_anchors && roll >= 6)
			lv_stress_repl(c);
		else
			lv_stress_ins(c);
		lv_model_check(c);
		if (!lv_wait_passes(c->test, r, 1))
			break;
	}
}

/*
 * FAM's updates under a reader that walks the list as the case's parameter
 * says, N anchors in the list; REPLACE_WAITS: replace_nonatomic waits for
 * that reader (lv_ctx.r).
 */
static void lv_stress_case(struct kunit *test, int fam, int n, bool replace_waits)
{
	const struct lv_param *p = lv_param(test);
	struct lv_ctx *c = lv_ctx_new(test, fam);
	struct lv_reader *r;

	lv_anchors(c, n);
	r = lv_reader_new(test, c, NULL, p->kind);
	r->n_anchors = c->n_anchors;
	lv_reader_go(test, r);
	if (replace_waits)
		c->r = r;
	lv_stress(c, r);
	lv_reader_check(test, r, p->name);
}

/*
 * list_head updates under a reader that checks every pass: sorted,
 * valid, no poison, every anchor once, replaced anchors old or new.
 */
void list_stress(struct kunit *test)
{
	lv_stress_case(test, LV_LIST, 4, true);
}

/* hlist updates under a reader, as list_stress. */
void hlist_stress(struct kunit *test)
{
	lv_stress_case(test, LV_HLIST, 4, true);
}

/* hlist_nulls updates under a reader; every walk ends on its nulls value. */
void nulls_stress(struct kunit *test)
{
	lv_stress_case(test, LV_NULLS, 2, false);
}

#define LV_BL_STRESS "hlist_bl_add_head_rcu hlist_bl_set_first_rcu hlist_bl_del_rcu " \
	"hlist_bl_first_rcu hlist_bl_for_each_entry_rcu hlist_bl_lock hlist_bl_unlock " \
	"kfree_rcu call_rcu"

/*
 * hlist_bl updates under the bit lock while a reader walks: sorted,
 * valid, never a lock bit in a pointer; the list is drained every 32
 * updates and refilled through hlist_bl_set_first_rcu().
 */
void bl_stress(struct kunit *test)
{
	struct lv_ctx *c = lv_ctx_new(test, LV_BL);
	struct lv_reader *r;

	rcuvet_covers(test, LV_BL_STRESS);
	lv_gate(test, "plain_del");
	r = lv_reader_start(test, c, NULL, LV_W_BL_RCU);
	lv_stress(c, r);
	lv_reader_check(test, r, "hlist_bl_for_each_entry_rcu");
}
