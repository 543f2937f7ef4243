// SPDX-License-Identifier: GPL-2.0
/*
 * rcuvet_list's list_head cases beyond stress and parking: lockless
 * readers of an insertion-only list, INIT_LIST_HEAD_RCU() under its
 * readers, and list_splice_init_rcu()/list_splice_tail_init_rcu() of a
 * list a reader is inside.
 */
#include <kunit/test.h>
#include <linux/rculist.h>
#include <linux/rcupdate.h>
#include <linux/string.h>

#include "rcuvet_list.h"

/*
 * An insertion-only list walked with no read-side marker at all: every
 * pass sorted and valid, never shorter than the one before, and an
 * element inserted behind a parked reader is the next one it meets.
 */
void list_lockless(struct kunit *test)
{
	const struct lv_param *p = lv_param(test);
	struct lv_ctx *c = lv_ctx_new(test, LV_LIST);
	struct lv_reader *r;
	unsigned int op;
	u32 key;
	int i;

	r = lv_reader_new(test, c, NULL, p->kind);
	r->grow_only = true;
	lv_reader_go(test, r);
	for (op = 0; op < lv_ops && c->n < LV_MAX_ELEMS - 4 && !c->ufails; op++) {
		lv_stress_ins(c);
		lv_model_check(c);
		if (!lv_wait_passes(test, r, 1))
			return;
		if (op % 8 || c->n < 2)
			continue;
		i = lv_rand(c, c->n - 1);
		if (c->sh[i + 1]->key - c->sh[i]->key < 2)
			continue;
		if (!lv_arm(test, r, c->sh[i]->key, p->kind, LV_R_LOOP, false))
			return;
		key = c->sh[i]->key + 1;
		lv_ins_key(c, key, LV_A_AFTER);
		if (!lv_unpark(test, r))
			return;
		KUNIT_EXPECT_EQ_MSG(test, r->res.first_key, key,
				    "the element inserted behind the reader was not next");
	}
	lv_reader_check(test, r, p->name);
}

#define LV_INIT_COVERS "INIT_LIST_HEAD_RCU list_first_or_null_rcu list_next_or_null_rcu " \
	"list_for_each_entry_rcu kfree_rcu call_rcu"

/*
 * INIT_LIST_HEAD_RCU() empties a list under its readers: a reader inside
 * still walks the old elements back to the head, later ones see an empty
 * list, and no pass sees part of it.
 */
void list_init_rcu(struct kunit *test)
{
	struct lv_ctx *c = lv_ctx_new(test, LV_LIST);
	struct lv_elem *e, *one;
	struct lv_reader *r;
	unsigned int rep;
	int i, n;

	rcuvet_covers(test, LV_INIT_COVERS);
	lv_gate(test, "");
	r = lv_reader_new(test, c, NULL, LV_W_LIST_RCU);
	for (rep = 0; rep < lv_reps; rep++) {
		for (i = 0; i < LV_FILL; i++)
			lv_ins_key(c, 10 * (i + 1), LV_A_TAIL);
		for (i = 0; i < c->n; i++)
			WRITE_ONCE(c->sh[i]->grp, true);
		if (!rep)
			lv_reader_go(test, r);
		else if (!lv_wait_passes(test, r, 1))
			return;
		WRITE_ONCE(r->grp_all, LV_FILL);
		if (!lv_wait_passes(test, r, 1) ||
		    !lv_arm(test, r, c->sh[2]->key, LV_W_LIST_RCU, LV_R_LOOP,
			    false))
			return;
		INIT_LIST_HEAD_RCU(&c->lhead);
		KUNIT_EXPECT_TRUE(test, list_empty(&c->lhead));
		rcu_read_lock();
		KUNIT_EXPECT_NULL(test, list_first_or_null_rcu(&c->lhead,
							       struct lv_elem, lh));
		rcu_read_unlock();
		if (!lv_unpark(test, r))
			return;
		KUNIT_EXPECT_TRUE(test, r->res.ok && r->res.ended);
		KUNIT_EXPECT_EQ_MSG(test, r->res.count, LV_FILL,
				    "the reader inside did not finish the old list");
		if (!lv_wait_passes(test, r, 1))
			return;
		KUNIT_EXPECT_EQ(test, READ_ONCE(r->last_count), 0);
		/* The old elements are unreachable: retire them. */
		n = c->n;
		c->n = 0;
		WRITE_ONCE(r->grp_all, 0);
		for (i = 0; i < n; i++)
			lv_retire(c, c->sh[i]);
	}
	/* list_next_or_null_rcu() is NULL on the last element. */
	one = lv_ins_key(c, 10, LV_A_TAIL);
	if (one) {
		rcu_read_lock();
		e = list_first_or_null_rcu(&c->lhead, struct lv_elem, lh);
		KUNIT_EXPECT_PTR_EQ(test, e, one);
		KUNIT_EXPECT_NULL(test, list_next_or_null_rcu(&c->lhead, &one->lh,
							      struct lv_elem, lh));
		rcu_read_unlock();
	}
	lv_reader_check(test, r, "list_for_each_entry_rcu");
}

/* The reader parked in a splice's source, which lv_sync() lets go. */
static struct lv_reader *lv_splice_reader;

/*
 * The splice's sync(): let the source's parked reader go, then wait for
 * it.  A splice that skips its sync() returns with that reader still
 * parked, and one that splices before its sync() does it under that
 * reader, however fast or slow the host.
 */
static void lv_sync(void)
{
	/* Pairs with lv_park(), as lv_unpark(). */
	smp_store_release(&lv_splice_reader->release, true);
	synchronize_rcu();
}

static void lv_nosync(void)
{
}

#define LV_NSRC 4

/*
 * Splice a list that a reader is inside onto another that a reader walks:
 * the splice returns only after the source's reader left (that is what its
 * sync argument is for), that reader ends on its own head having seen the
 * whole source, and the target's readers see the block whole or not at all.
 */
void list_splice_rcu_case(struct kunit *test)
{
	const struct lv_param *p = lv_param(test);
	struct lv_ctx *c = lv_ctx_new(test, LV_LIST);
	void (*sync)(void) = lv_mutant("splice_nosync") ? lv_nosync : lv_sync;
	struct lv_elem *blk[LV_NSRC], *e;
	struct lv_reader *rs, *rd;
	struct list_head *pos;
	unsigned int rep;
	bool left;
	int i, n;

	lv_anchors(c, 4);
	rs = lv_reader_new(test, c, NULL, LV_W_LIST_RCU);
	rs->lhead = &c->src;
	lv_splice_reader = rs;
	rd = lv_reader_new(test, c, NULL, LV_W_LIST_RCU);
	rd->n_anchors = c->n_anchors;
	lv_reader_go(test, rs);
	lv_reader_go(test, rd);
	for (rep = 0; rep < lv_reps; rep++) {
		for (i = 0; i < LV_NSRC; i++) {
			blk[i] = lv_new(c, (p->kind ? 500000 : 10) + i, -1, true);
			if (!blk[i])
				return;
			list_add_tail_rcu(&blk[i]->lh, &c->src);
		}
		if (!lv_wait_passes(test, rs, 1) || !lv_wait_passes(test, rd, 1))
			return;
		WRITE_ONCE(rs->grp_all, LV_NSRC);
		WRITE_ONCE(rd->grp_all, LV_NSRC);
		/*
		 * The reader parks in the source until the splice's sync()
		 * lets it go (lv_sync()), or, if the splice never called it
		 * (splice_nosync, or a kernel that skips it), until the
		 * splice returned.
		 */
		if (!lv_wait_passes(test, rs, 1) ||
		    !lv_arm(test, rs, blk[0]->key, LV_W_LIST_RCU, LV_R_LOOP,
			    false))
			return;
		if (p->kind)
			list_splice_tail_init_rcu(&c->src, &c->lhead, sync);
		else
			list_splice_init_rcu(&c->src, &c->lhead, sync);
		/* Set by the reader as its section's last act. */
		left = smp_load_acquire(&rs->park_done);
		/* As lv_unpark(), for a splice that did not call sync(). */
		smp_store_release(&rs->release, true);
		KUNIT_EXPECT_TRUE_MSG(test, left,
				      "rep %u: splice returned while a reader was inside the source",
				      rep);
		/* Pairs with lv_pass_end(), as in lv_unpark(). */
		if (!lv_wait_until(smp_load_acquire(&rs->park_done))) {
			KUNIT_FAIL(test, "the source's reader never left");
			return;
		}
		KUNIT_EXPECT_TRUE_MSG(test, rs->res.ok && rs->res.ended,
				      "rep %u: source reader: %s", rep, rs->err);
		KUNIT_EXPECT_EQ(test, rs->res.count, LV_NSRC);
		KUNIT_EXPECT_TRUE(test, list_empty(&c->src));
		/* The target holds the block at the right end, sorted. */
		for (i = 0; i < LV_NSRC; i++) {
			n = lv_pos(c, blk[i]->key);
			memmove(&c->sh[n + 1], &c->sh[n],
				(c->n - n) * sizeof(c->sh[0]));
			c->sh[n] = blk[i];
			c->n++;
		}
		lv_model_check(c);
		if (!lv_wait_passes(test, rd, 1))
			return;
		KUNIT_EXPECT_EQ(test, READ_ONCE(rd->last_count),
				c->n_anchors + LV_NSRC);
		/* Take the block back out for the next round. */
		WRITE_ONCE(rs->grp_all, 0);
		WRITE_ONCE(rd->grp_all, 0);
		for (i = 0; i < c->n; )
			if (c->sh[i]->grp)
				lv_del(c, i, LV_D_DEL);
			else
				i++;
		if (c->ufails)
			return;
	}
	n = 0;
	list_for_each(pos, &c->lhead)
		n++;
	KUNIT_EXPECT_EQ(test, n, c->n_anchors);
	e = list_first_or_null_rcu(&c->src, struct lv_elem, lh);
	KUNIT_EXPECT_NULL(test, e);
	lv_reader_check(test, rs, "source");
	lv_reader_check(test, rd, "target");
}
