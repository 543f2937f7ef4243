// SPDX-License-Identifier: GPL-2.0
/*
 * rcuvet_list's parked cases: the reader stands on an element X inside
 * its critical section while the updater deletes, replaces or inserts
 * around X, then must resume onto the successor the update left, with
 * each traversal and resumption (_continue_rcu, _from_rcu) of a family.
 */
#include <kunit/test.h>
#include <linux/rcupdate.h>

#include "rcuvet_list.h"

struct lv_mode {
	int walk, resume;
	const char *name;
};

static const struct lv_mode lv_list_modes[] = {
	{ LV_W_LIST_RCU, LV_R_LOOP, "list_for_each_entry_rcu" },
	{ LV_W_LIST_RCU, LV_R_CONTINUE, "list_for_each_entry_continue_rcu" },
	{ LV_W_LIST_RCU, LV_R_FROM, "list_for_each_entry_from_rcu" },
};

static const struct lv_mode lv_hlist_modes[] = {
	{ LV_W_HLIST_RCU, LV_R_LOOP, "hlist_for_each_entry_rcu" },
	{ LV_W_HLIST_RCU, LV_R_CONTINUE, "hlist_for_each_entry_continue_rcu" },
	{ LV_W_HLIST_RCU, LV_R_FROM, "hlist_for_each_entry_from_rcu" },
	{ LV_W_HLIST_BH, LV_R_CONTINUE, "hlist_for_each_entry_continue_rcu_bh" },
};

static const struct lv_mode lv_nulls_modes[] = {
	{ LV_W_NULLS_RCU, LV_R_LOOP, "hlist_nulls_for_each_entry_rcu" },
	{ LV_W_NULLS_STEP, LV_R_LOOP, "hlist_nulls_first_rcu" },
};

static const struct lv_mode lv_bl_modes[] = {
	{ LV_W_BL_RCU, LV_R_LOOP, "hlist_bl_for_each_entry_rcu" },
};

/* Do update U around model position I; return the key due after X. */
static u32 lv_parked_update(struct lv_ctx *c, int u, int i, u32 *gen)
{
	u32 succ = i + 1 < c->n ? c->sh[i + 1]->key : LV_NONE;
	u32 succ2 = i + 2 < c->n ? c->sh[i + 2]->key : LV_NONE;
	u32 key;

	switch (u) {
	case LV_U_DEL:
		lv_del(c, i, LV_D_DEL);
		return succ;
	case LV_U_DEL_INIT:
		lv_del(c, i, LV_D_INIT);
		return succ;
	case LV_U_DEL_SUCC:
		lv_del(c, i + 1, LV_D_DEL);
		return succ2;
	case LV_U_REPLACE:
		*gen = lv_repl(c, i);
		return succ;
	case LV_U_ADD_AFTER:
		key = c->sh[i]->key + 5;
		return lv_ins_key(c, key, LV_A_AFTER) ? key : LV_DEAD;
	case LV_U_ADD_BEFORE:
		key = succ - 5;
		return lv_ins_key(c, key, LV_A_BEFORE) ? key : LV_DEAD;
	case LV_U_ADD_HEAD:
		key = 5;
		return lv_ins_key(c, key, LV_A_HEAD) ? key : LV_DEAD;
	case LV_U_ADD_TAIL:
		key = c->sh[c->n - 1]->key + 5;
		return lv_ins_key(c, key, LV_A_TAIL) ? key : LV_DEAD;
	default:
		key = 10;
		return lv_ins_key(c, key, LV_A_SETFIRST) ? key : LV_DEAD;
	}
}

static void lv_parked(struct kunit *test, int fam, int u,
		      const struct lv_mode *modes, int nmodes)
{
	struct lv_ctx *c = lv_ctx_new(test, fam);
	bool head = u == LV_U_ADD_HEAD || u == LV_U_SET_FIRST;
	const struct lv_mode *m;
	struct lv_reader *r;
	struct lv_park_res res;
	unsigned int rep, round = 0;
	u32 expect, gen = 0;
	int mi, i;

	r = lv_reader_start(test, c, NULL, modes[0].walk);
	for (rep = 0; rep < lv_reps; rep++) {
		for (mi = 0; mi < nmodes; mi++, round++) {
			m = &modes[mi];
			if (head && m->resume != LV_R_LOOP)
				continue;
			switch (u) {
			case LV_U_DEL_SUCC:
			case LV_U_ADD_BEFORE:
				i = round % (LV_FILL - 1);
				break;
			case LV_U_ADD_TAIL:
				i = LV_FILL - 1;
				break;
			default:
				i = round % LV_FILL;
				break;
			}
			lv_fill(c, u == LV_U_SET_FIRST ? 0 : LV_FILL,
				u == LV_U_REPLACE ? i : -1);
			if (c->ufails || !lv_wait_passes(test, r, 1))
				return;
			if (!lv_arm(test, r, head ? LV_PARK_HEAD : c->sh[i]->key,
				    m->walk, m->resume, false))
				return;
			expect = lv_parked_update(c, u, i, &gen);
			/* Every link the update wrote, ->prev and ->pprev too. */
			lv_model_check(c);
			if (!lv_unpark(test, r))
				return;
			res = r->res;
			KUNIT_EXPECT_TRUE_MSG(test, res.ok,
					      "%s, rep %u: the parked pass failed: %s",
					      m->name, rep, r->err);
			KUNIT_EXPECT_TRUE_MSG(test, res.ended,
					      "%s, rep %u: the parked pass did not end at its head",
					      m->name, rep);
			KUNIT_EXPECT_EQ_MSG(test, res.first_key, expect,
					    "%s, rep %u: resumed onto key %d, expected %d",
					    m->name, rep, (int)res.first_key,
					    (int)expect);
			if (m->resume == LV_R_FROM)
				KUNIT_EXPECT_TRUE_MSG(test, res.from_ok,
						      "%s did not start on its element",
						      m->name);
			if (u == LV_U_REPLACE) {
				/* Later passes find the new version only. */
				lv_wait_passes(test, r, 1);
				KUNIT_EXPECT_EQ_MSG(test, READ_ONCE(r->last_gen[0]),
						    gen, "%s, rep %u: replaced element not seen",
						    m->name, rep);
			}
			lv_drain(c);
			if (c->ufails)
				return;
		}
	}
	lv_reader_check(test, r, modes[0].name);
}

void list_parked(struct kunit *test)
{
	const struct lv_param *p = lv_param(test);

	lv_parked(test, LV_LIST, p->kind, lv_list_modes,
		  ARRAY_SIZE(lv_list_modes));
}

void hlist_parked(struct kunit *test)
{
	const struct lv_param *p = lv_param(test);

	lv_parked(test, LV_HLIST, p->kind, lv_hlist_modes,
		  ARRAY_SIZE(lv_hlist_modes));
}

void nulls_parked(struct kunit *test)
{
	const struct lv_param *p = lv_param(test);

	lv_parked(test, LV_NULLS, p->kind, lv_nulls_modes,
		  ARRAY_SIZE(lv_nulls_modes));
}

void bl_parked(struct kunit *test)
{
	const struct lv_param *p = lv_param(test);

	lv_parked(test, LV_BL, p->kind, lv_bl_modes, ARRAY_SIZE(lv_bl_modes));
}
