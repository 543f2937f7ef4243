// SPDX-License-Identifier: GPL-2.0
/*
 * rcuvet_list: the RCU list APIs (rculist.h, rculist_nulls.h, rculist_bl.h)
 * under concurrent readers.
 *
 * Every update primitive runs on CPU 0 while a reader kthread on CPU 1
 * traverses the same list over and over with the traversal primitive under
 * test, inside rcu_read_lock() (rcu_read_lock_bh() for the _bh iterators,
 * nothing for the _lockless ones).  Every pass checks every element it
 * meets: no LIST_POISON1/2 pointer, valid magic and checksum of key and
 * generation, keys strictly ascending (the updaters keep every list sorted,
 * so an element found out of place, or a list walked twice, shows), the
 * "anchor" elements all present exactly once (a replaced anchor shows its
 * old or its new version, never neither, and never an older version after
 * a newer one), an all-or-nothing group seen whole or not at all (splice,
 * INIT_LIST_HEAD_RCU), the end of an hlist_nulls chain carrying its own
 * nulls value, no lock bit in an hlist_bl pointer.
 *
 * Stepwise and resumed traversals are checked deterministically: the
 * reader parks inside its critical section on a chosen element X (or
 * before reading the head), the updater deletes, replaces or inserts around
 * X and releases it, and the reader must resume onto the successor the
 * update left (list_for_each_entry_continue_rcu(), _from_rcu() and the
 * hlist ones resume from X).  Deleted elements are freed with kfree_rcu()
 * or call_rcu() while the reader may still stand on them: KASAN turns an
 * early free into a report.
 *
 * hlist_nulls with a SLAB_TYPESAFE_BY_RCU cache: objects are freed and
 * reused on another chain while readers look keys up with the algorithm of
 * Documentation/RCU/rculist_nulls.rst (refcount, key recheck, nulls value
 * check and retry).  Both kernels have CONFIG_SLUB_RCU_DEBUG=y (the default
 * with KASAN), which makes SLUB hold back the objects of such a cache for a
 * grace period, so kmem_cache_alloc() cannot hand an object back to the
 * updater while a reader may still see it.  Reuse within a grace period is
 * therefore made with a LIFO free pool kept on top of the cache, which is
 * what SLUB's per-CPU freelist does without that option; nulls_typesafe
 * counts how many allocations came back within a grace period.
 *
 * The article's list also names members that 6.12 no longer has:
 * hlist_bl_del_init_rcu() was removed in v5.5 ("rcu: Remove unused function
 * hlist_bl_del_init_rcu()"); its successor is hlist_bl_del_rcu(), and the
 * non-RCU hlist_bl_del_init() is no substitute (it clears ->next under
 * readers: mutant bl_del_init).  hlist_for_each_entry_rcu_bh() and
 * hlist_for_each_entry_continue_rcu_bh() are still there, for readers in
 * rcu_read_lock_bh(), which a normal grace period waits for since the
 * flavor consolidation.
 *
 * Negative controls, mutant=NAME[,NAME...] (cases not concerned skip):
 *   plain_del         list_del(), hlist_del(), hlist_del_init(),
 *                     hlist_bl_del() instead of the _rcu deletions: a
 *                     parked reader meets the poison or the cleared
 *                     ->next.  hlist_nulls_del() is used for the
 *                     hlist_nulls ones too, and there it is no mutant:
 *                     it keeps ->next like hlist_nulls_del_rcu(), and the
 *                     nulls_parked deletions must still pass
 *   free_now          kfree() right after list_del_rcu(): KASAN report
 *   replace_nonatomic delete then insert instead of list/hlist_replace_rcu()
 *   splice_nosync     list_splice_*init_rcu() with a sync() that does not
 *                     wait: the source's reader is carried into the target
 *   bl_del_init       hlist_bl_del_init() instead of hlist_bl_del_rcu()
 *   nulls_novalidate  the documented lookup without its nulls check
 *   nulls_unsafe      hlist_nulls_for_each_entry_rcu() where the loop moves
 *                     its current element (needs _safe)
 *   no_reader         list_for_each_entry_rcu() outside rcu_read_lock():
 *                     PROVE_RCU_LIST complains (the check; the readers'
 *                     own checks may well pass)
 *   bh_wrong_lock     hlist_for_each_entry_rcu_bh() inside rcu_read_lock()
 *                     instead of rcu_read_lock_bh(): lockdep complains
 *
 * The module is a folder of its own, a file per concern: this one holds
 * the parameters, the mutant gate, the parameter rows of every case and
 * the case table; reader.c the reader kthread, its traversals, checks and
 * parking; updater.c the updater's primitives, which keep a model of the
 * list in step, and the stress cases; parked.c the parked cases;
 * list_head.c the lockless, INIT_LIST_HEAD_RCU and splice cases; nulls.c
 * the SLAB_TYPESAFE_BY_RCU cases; rcuvet_list.h what they share.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "rcuvet_list.h"

unsigned int lv_reps = 3;
module_param_named(reps, lv_reps, uint, 0444);
MODULE_PARM_DESC(reps, "Repetitions of each deterministic (parked) scenario");

unsigned int lv_ops = 250;
module_param_named(ops, lv_ops, uint, 0444);
MODULE_PARM_DESC(ops, "Updates per stress case");

static char *mutant = "";
module_param(mutant, charp, 0444);
MODULE_PARM_DESC(mutant, "Comma-separated wrong variants (negative controls)");

/* Is NAME among the active mutants? */
bool lv_mutant(const char *name)
{
	size_t len = strlen(name);
	const char *p = mutant;

	while (p && *p) {
		if (!strncmp(p, name, len) && (p[len] == ',' || !p[len]))
			return true;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return false;
}

/* With mutants active, skip a case that none of them concerns. */
void lv_gate(struct kunit *test, const char *concerned)
{
	const char *p = concerned;
	size_t len;

	if (!mutant || !*mutant)
		return;
	while (p && *p) {
		char word[32];

		len = strcspn(p, " ");
		if (len && len < sizeof(word)) {
			memcpy(word, p, len);
			word[len] = '\0';
			if (lv_mutant(word))
				return;
		}
		p += len;
		p += strspn(p, " ");
	}
	rcuvet_skip(test, "mutant=%s does not concern this case", mutant);
}

/* ------------------------------------------------------------------ */
/* Parameters: the rows that drive the parameterized cases.           */

static void lv_param_desc(const struct lv_param *p, char *desc)
{
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
}

const struct lv_param *lv_param(struct kunit *test)
{
	const struct lv_param *p = test->param_value;

	rcuvet_covers(test, p->covers);
	lv_gate(test, p->mutants);
	return p;
}

/* The stress cases (updater.c): the traversal each reader uses. */

#define LV_LIST_UPD "list_add_rcu list_add_tail_rcu list_del_rcu list_replace_rcu kfree_rcu call_rcu"

static const struct lv_param lv_list_stress_params[] = {
	{ "list_for_each_entry_rcu", LV_W_LIST_RCU,
	  LV_LIST_UPD " list_for_each_entry_rcu",
	  "plain_del replace_nonatomic no_reader" },
	{ "list_first_or_null_rcu", LV_W_LIST_OR_NULL,
	  LV_LIST_UPD " list_first_or_null_rcu list_next_or_null_rcu list_entry_rcu",
	  "plain_del replace_nonatomic" },
	{ "list_next_rcu", LV_W_LIST_NEXT,
	  LV_LIST_UPD " list_next_rcu list_entry_rcu rcu_dereference",
	  "plain_del replace_nonatomic" },
};

KUNIT_ARRAY_PARAM(lv_list_stress, lv_list_stress_params, lv_param_desc);

#define LV_HLIST_UPD "hlist_add_head_rcu hlist_add_tail_rcu hlist_add_before_rcu " \
	"hlist_add_behind_rcu hlist_del_rcu hlist_del_init_rcu hlist_replace_rcu " \
	"hlist_pprev_rcu kfree_rcu call_rcu"

static const struct lv_param lv_hlist_stress_params[] = {
	{ "hlist_for_each_entry_rcu", LV_W_HLIST_RCU,
	  LV_HLIST_UPD " hlist_for_each_entry_rcu",
	  "plain_del replace_nonatomic" },
	{ "hlist_for_each_entry_rcu_notrace", LV_W_HLIST_NOTRACE,
	  LV_HLIST_UPD " hlist_for_each_entry_rcu_notrace",
	  "plain_del replace_nonatomic" },
	{ "hlist_first_rcu", LV_W_HLIST_STEP,
	  LV_HLIST_UPD " hlist_first_rcu hlist_next_rcu rcu_dereference",
	  "plain_del replace_nonatomic" },
	{ "hlist_for_each_entry_rcu_bh", LV_W_HLIST_BH,
	  LV_HLIST_UPD " hlist_for_each_entry_rcu_bh rcu_read_lock_bh rcu_read_unlock_bh",
	  "plain_del replace_nonatomic bh_wrong_lock" },
};

KUNIT_ARRAY_PARAM(lv_hlist_stress, lv_hlist_stress_params, lv_param_desc);

static const struct lv_param lv_nulls_stress_params[] = {
	{ "hlist_nulls_for_each_entry_rcu", LV_W_NULLS_RCU,
	  "hlist_nulls_add_head_rcu hlist_nulls_del_rcu hlist_nulls_del_init_rcu hlist_nulls_for_each_entry_rcu kfree_rcu call_rcu",
	  "plain_del" },
	{ "hlist_nulls_first_rcu", LV_W_NULLS_STEP,
	  "hlist_nulls_add_head_rcu hlist_nulls_del_rcu hlist_nulls_del_init_rcu hlist_nulls_first_rcu hlist_nulls_next_rcu kfree_rcu call_rcu",
	  "plain_del" },
};

KUNIT_ARRAY_PARAM(lv_nulls_stress, lv_nulls_stress_params, lv_param_desc);

/* The parked cases (parked.c): the update each makes around X. */

#define LV_LIST_RESUME "list_for_each_entry_rcu list_for_each_entry_continue_rcu list_for_each_entry_from_rcu"

static const struct lv_param lv_list_parked_params[] = {
	{ "list_del_rcu", LV_U_DEL,
	  "list_del_rcu kfree_rcu call_rcu " LV_LIST_RESUME, "plain_del free_now" },
	{ "list_del_rcu_successor", LV_U_DEL_SUCC,
	  "list_del_rcu kfree_rcu call_rcu " LV_LIST_RESUME, "" },
	{ "list_replace_rcu", LV_U_REPLACE,
	  "list_replace_rcu kfree_rcu call_rcu " LV_LIST_RESUME, "" },
	{ "list_add_rcu", LV_U_ADD_AFTER, "list_add_rcu " LV_LIST_RESUME, "" },
	{ "list_add_tail_rcu", LV_U_ADD_BEFORE,
	  "list_add_tail_rcu " LV_LIST_RESUME, "" },
	{ "list_add_rcu_head", LV_U_ADD_HEAD,
	  "list_add_rcu list_for_each_entry_rcu", "" },
	{ "list_add_tail_rcu_head", LV_U_ADD_TAIL,
	  "list_add_tail_rcu " LV_LIST_RESUME, "" },
};

KUNIT_ARRAY_PARAM(lv_list_parked, lv_list_parked_params, lv_param_desc);

#define LV_HLIST_RESUME "hlist_for_each_entry_rcu hlist_for_each_entry_continue_rcu " \
	"hlist_for_each_entry_from_rcu hlist_for_each_entry_rcu_bh " \
	"hlist_for_each_entry_continue_rcu_bh rcu_read_lock_bh rcu_read_unlock_bh"

static const struct lv_param lv_hlist_parked_params[] = {
	{ "hlist_del_rcu", LV_U_DEL,
	  "hlist_del_rcu kfree_rcu call_rcu " LV_HLIST_RESUME, "plain_del" },
	{ "hlist_del_init_rcu", LV_U_DEL_INIT,
	  "hlist_del_init_rcu kfree_rcu call_rcu " LV_HLIST_RESUME, "plain_del" },
	{ "hlist_del_rcu_successor", LV_U_DEL_SUCC,
	  "hlist_del_rcu kfree_rcu call_rcu " LV_HLIST_RESUME, "" },
	{ "hlist_replace_rcu", LV_U_REPLACE,
	  "hlist_replace_rcu kfree_rcu call_rcu " LV_HLIST_RESUME, "" },
	{ "hlist_add_behind_rcu", LV_U_ADD_AFTER,
	  "hlist_add_behind_rcu " LV_HLIST_RESUME, "" },
	{ "hlist_add_before_rcu", LV_U_ADD_BEFORE,
	  "hlist_add_before_rcu hlist_pprev_rcu " LV_HLIST_RESUME, "" },
	{ "hlist_add_head_rcu", LV_U_ADD_HEAD,
	  "hlist_add_head_rcu hlist_for_each_entry_rcu", "" },
	{ "hlist_add_tail_rcu", LV_U_ADD_TAIL,
	  "hlist_add_tail_rcu " LV_HLIST_RESUME, "" },
};

KUNIT_ARRAY_PARAM(lv_hlist_parked, lv_hlist_parked_params, lv_param_desc);

#define LV_NULLS_WALKS "hlist_nulls_for_each_entry_rcu hlist_nulls_first_rcu hlist_nulls_next_rcu"

static const struct lv_param lv_nulls_parked_params[] = {
	{ "hlist_nulls_del_rcu", LV_U_DEL,
	  "hlist_nulls_del_rcu kfree_rcu call_rcu " LV_NULLS_WALKS, "plain_del" },
	{ "hlist_nulls_del_init_rcu", LV_U_DEL_INIT,
	  "hlist_nulls_del_init_rcu kfree_rcu call_rcu " LV_NULLS_WALKS,
	  "plain_del" },
	{ "hlist_nulls_del_rcu_successor", LV_U_DEL_SUCC,
	  "hlist_nulls_del_rcu kfree_rcu call_rcu " LV_NULLS_WALKS, "" },
	{ "hlist_nulls_add_head_rcu", LV_U_ADD_HEAD,
	  "hlist_nulls_add_head_rcu " LV_NULLS_WALKS, "" },
};

KUNIT_ARRAY_PARAM(lv_nulls_parked, lv_nulls_parked_params, lv_param_desc);

#define LV_BL_COMMON "hlist_bl_for_each_entry_rcu hlist_bl_first_rcu hlist_bl_lock hlist_bl_unlock"

static const struct lv_param lv_bl_parked_params[] = {
	{ "hlist_bl_del_rcu", LV_U_DEL,
	  "hlist_bl_del_rcu kfree_rcu call_rcu " LV_BL_COMMON,
	  "plain_del bl_del_init" },
	{ "hlist_bl_del_rcu_successor", LV_U_DEL_SUCC,
	  "hlist_bl_del_rcu kfree_rcu call_rcu " LV_BL_COMMON, "" },
	{ "hlist_bl_add_head_rcu", LV_U_ADD_HEAD,
	  "hlist_bl_add_head_rcu " LV_BL_COMMON, "" },
	{ "hlist_bl_set_first_rcu", LV_U_SET_FIRST,
	  "hlist_bl_set_first_rcu " LV_BL_COMMON, "" },
};

KUNIT_ARRAY_PARAM(lv_bl_parked, lv_bl_parked_params, lv_param_desc);

/* The lockless and splice cases (list_head.c). */

static const struct lv_param lv_lockless_params[] = {
	{ "list_for_each_entry_lockless", LV_W_LOCKLESS,
	  "list_for_each_entry_lockless list_add_rcu list_add_tail_rcu", "" },
	{ "list_entry_lockless", LV_W_ENTRY_LOCKLESS,
	  "list_entry_lockless list_add_rcu list_add_tail_rcu", "" },
};

KUNIT_ARRAY_PARAM(lv_lockless, lv_lockless_params, lv_param_desc);

static const struct lv_param lv_splice_params[] = {
	{ "list_splice_init_rcu", 0,
	  "list_splice_init_rcu synchronize_rcu INIT_LIST_HEAD_RCU list_for_each_entry_rcu",
	  "splice_nosync" },
	{ "list_splice_tail_init_rcu", 1,
	  "list_splice_tail_init_rcu synchronize_rcu INIT_LIST_HEAD_RCU list_for_each_entry_rcu",
	  "splice_nosync" },
};

KUNIT_ARRAY_PARAM(lv_splice, lv_splice_params, lv_param_desc);

/* The typesafe hlist_nulls cases (nulls.c): the lookup's traversal. */

static const struct lv_param lv_nt_params[] = {
	{ "hlist_nulls_for_each_entry_rcu", LV_W_NT_RCU,
	  "hlist_nulls_add_head_rcu hlist_nulls_del_rcu hlist_nulls_del_init_rcu hlist_nulls_for_each_entry_rcu",
	  "nulls_novalidate" },
	{ "hlist_nulls_first_rcu", LV_W_NT_STEP,
	  "hlist_nulls_add_head_rcu hlist_nulls_del_rcu hlist_nulls_del_init_rcu hlist_nulls_first_rcu hlist_nulls_next_rcu",
	  "nulls_novalidate" },
};

KUNIT_ARRAY_PARAM(lv_nt, lv_nt_params, lv_param_desc);

/* ------------------------------------------------------------------ */
/* The suite.                                                         */

static int lv_init(struct kunit *test)
{
	rcuvet_pin_updater(test);
	return 0;
}

static int lv_suite_init(struct kunit_suite *suite)
{
	lv_ncache = kmem_cache_create("rcuvet_list_nobj", sizeof(struct lv_nobj),
				      0, SLAB_TYPESAFE_BY_RCU, NULL);
	return lv_ncache ? 0 : -ENOMEM;
}

static void lv_suite_exit(struct kunit_suite *suite)
{
	rcu_barrier();
	kmem_cache_destroy(lv_ncache);
}

/* The stress cases can take over a second each under a loaded TCG host. */
#define LV_SLOW { .speed = KUNIT_SPEED_SLOW }

static struct kunit_case lv_cases[] = {
	KUNIT_CASE_PARAM_ATTR(list_stress, lv_list_stress_gen_params, LV_SLOW),
	KUNIT_CASE_PARAM(list_parked, lv_list_parked_gen_params),
	KUNIT_CASE_PARAM(list_lockless, lv_lockless_gen_params),
	KUNIT_CASE(list_init_rcu),
	KUNIT_CASE_PARAM(list_splice_rcu_case, lv_splice_gen_params),
	KUNIT_CASE_PARAM_ATTR(hlist_stress, lv_hlist_stress_gen_params, LV_SLOW),
	KUNIT_CASE_PARAM(hlist_parked, lv_hlist_parked_gen_params),
	KUNIT_CASE_PARAM_ATTR(nulls_stress, lv_nulls_stress_gen_params, LV_SLOW),
	KUNIT_CASE_PARAM(nulls_parked, lv_nulls_parked_gen_params),
	KUNIT_CASE_PARAM_ATTR(nulls_typesafe, lv_nt_gen_params, LV_SLOW),
	KUNIT_CASE_PARAM(nulls_moved, lv_nt_gen_params),
	KUNIT_CASE(nulls_safe_move),
	KUNIT_CASE_SLOW(bl_stress),
	KUNIT_CASE_PARAM(bl_parked, lv_bl_parked_gen_params),
	{}
};

static struct kunit_suite lv_suite = {
	.name = "rcuvet_list",
	.init = lv_init,
	.suite_init = lv_suite_init,
	.suite_exit = lv_suite_exit,
	.test_cases = lv_cases,
};

kunit_test_suite(lv_suite);

MODULE_DESCRIPTION("rcuvet: RCU list APIs under concurrent readers");
MODULE_LICENSE("GPL");
