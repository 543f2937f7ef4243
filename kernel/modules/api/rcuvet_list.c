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
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/rculist.h>
#include <linux/rculist_bl.h>
#include <linux/rculist_nulls.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "rcuvet.h"
#include "rcuvet_tree.h"

static unsigned int reps = 3;
module_param(reps, uint, 0444);
MODULE_PARM_DESC(reps, "Repetitions of each deterministic (parked) scenario");

static unsigned int ops = 250;
module_param(ops, uint, 0444);
MODULE_PARM_DESC(ops, "Updates per stress case");

static char *mutant = "";
module_param(mutant, charp, 0444);
MODULE_PARM_DESC(mutant, "Comma-separated wrong variants (negative controls)");

#define LV_MAGIC	0x6c697374u	/* "list" */
#define LV_NMAGIC	0x6e756c6cu	/* "null" */
#define LV_DEAD		0xdeadbeefu
#define LV_NONE		U32_MAX		/* no key */
#define LV_PARK_HEAD	(U32_MAX - 1)	/* park before reading the head */
#define LV_MAX_STEPS	256		/* a longer walk went round wrongly */
#define LV_MAX_ELEMS	48
#define LV_MAX_ANCHORS	8
#define LV_TIMEOUT_MS	10000
#define LV_FILL		6		/* elements of a parked scenario */
#define LV_NCHAINS	3
#define LV_NT_MAX	32
#define LV_MAX_RESTARTS	1000

/* Is NAME among the active mutants? */
static bool lv_mutant(const char *name)
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
static void lv_gate(struct kunit *test, const char *concerned)
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

/* Spin until COND (updater side: may reschedule); false on timeout. */
#define lv_wait_until(cond) ({						\
	unsigned long __end = jiffies + msecs_to_jiffies(LV_TIMEOUT_MS);\
	bool __ok;							\
									\
	while (!(__ok = (cond)) && time_before(jiffies, __end))	\
		cond_resched();						\
	__ok;								\
})

/* ------------------------------------------------------------------ */
/* Elements of the list_head, hlist, hlist_nulls and hlist_bl lists.   */

struct lv_elem {
	u32 magic;
	u32 key;
	u32 gen;
	u32 sum;
	int aidx;		/* anchor index, or -1 */
	bool grp;		/* member of an all-or-nothing group */
	struct list_head lh;
	struct hlist_node hn;
	struct hlist_nulls_node nn;
	struct hlist_bl_node bn;
	struct rcu_head rh;
};

static u32 lv_sum(u32 key, u32 gen)
{
	return (key * 0x9e3779b1u) ^ gen ^ 0x5a5a5a5au;
}

enum lv_fam { LV_LIST, LV_HLIST, LV_NULLS, LV_BL, LV_NT };

/* How a reader traverses. */
enum lv_walk_kind {
	LV_W_LIST_RCU,		/* list_for_each_entry_rcu */
	LV_W_LIST_OR_NULL,	/* list_first_or_null_rcu + list_next_or_null_rcu */
	LV_W_LIST_NEXT,		/* list_next_rcu + list_entry_rcu */
	LV_W_LOCKLESS,		/* list_for_each_entry_lockless, no reader lock */
	LV_W_ENTRY_LOCKLESS,	/* list_entry_lockless, no reader lock */
	LV_W_HLIST_RCU,		/* hlist_for_each_entry_rcu */
	LV_W_HLIST_NOTRACE,	/* hlist_for_each_entry_rcu_notrace */
	LV_W_HLIST_STEP,	/* hlist_first_rcu + hlist_next_rcu */
	LV_W_HLIST_BH,		/* hlist_for_each_entry_rcu_bh, rcu_read_lock_bh */
	LV_W_NULLS_RCU,		/* hlist_nulls_for_each_entry_rcu */
	LV_W_NULLS_STEP,	/* hlist_nulls_first_rcu + hlist_nulls_next_rcu */
	LV_W_BL_RCU,		/* hlist_bl_for_each_entry_rcu */
	LV_W_NT_RCU,		/* nulls lookups, hlist_nulls_for_each_entry_rcu */
	LV_W_NT_STEP,		/* nulls lookups, hlist_nulls_first/next_rcu */
};

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

/* How a parked reader resumes. */
enum lv_resume { LV_R_LOOP, LV_R_CONTINUE, LV_R_FROM };

enum { LV_GO, LV_STOP, LV_RESUME, LV_MATCH };

/* The updater's side: the lists and a sorted model of their content. */
struct lv_ctx {
	struct kunit *test;
	int fam;
	unsigned long nulls;
	struct lv_elem *sh[LV_MAX_ELEMS];	/* sorted by key */
	int n;
	int n_anchors;
	u32 gen;
	unsigned int frees;
	unsigned int ufails;
	struct lv_reader *r;		/* the reader replace_nonatomic waits for */
	struct rnd_state rnd;
	/*
	 * The heads come last: a reader carried onto the wrong list takes
	 * a head for an element, and its checks must then read inside this
	 * structure (and fail on the magic) rather than out of bounds.
	 */
	struct list_head lhead;
	struct list_head src;		/* splice source */
	struct hlist_head hhead;
	struct hlist_nulls_head nhead;
	struct hlist_bl_head bhead;
};

/* ------------------------------------------------------------------ */
/* Typesafe hlist_nulls objects.                                       */

struct lv_nobj {
	u32 magic;
	u32 key;
	atomic_t refcnt;
	int chain;			/* updater's bookkeeping */
	u32 freed;			/* LV_DEAD once freed to the cache */
	unsigned long free_gp;
	struct hlist_nulls_node node;
};

static struct kmem_cache *lv_ncache;

struct lv_nt {
	struct kunit *test;
	struct hlist_nulls_head chain[LV_NCHAINS];
	spinlock_t lock;		/* serializes the chains' updaters */
	u32 anchor[LV_NCHAINS];		/* key readers look up, or LV_NONE */
	struct lv_nobj *live[LV_NT_MAX];
	int nlive;
	struct lv_nobj *pool[LV_NT_MAX];	/* freed, reused at once */
	int npool;
	u32 next_key;
	unsigned int allocs, reused_in_gp, from_pool;
	struct rnd_state rnd;
};

/* ------------------------------------------------------------------ */
/* Readers.                                                            */

struct lv_park_res {
	bool ok;		/* the parked pass met no error */
	bool ended;		/* and came back to its own head */
	bool from_ok;		/* _from_rcu started on the parked element */
	u32 first_key;		/* first element after resuming */
	int count;		/* elements seen in the pass */
	bool nt_found;		/* the parked nulls lookup found its key */
	unsigned long nt_endv;	/* nulls value it ended on */
	int nt_restarts;
};

struct lv_reader {
	struct lv_ctx *c;
	struct lv_nt *nt;
	struct list_head *lhead;
	int walk;
	unsigned long nulls;	/* nulls value the chain must end on */
	int n_anchors;		/* anchors every pass must see, or 0 */
	int grp_all;		/* group seen whole or not at all, or 0 */
	bool grow_only;		/* insertion-only list: never shrinks */

	atomic_t passes;
	atomic_t errors;
	atomic_t claim;
	char err[200];
	bool stop, stopped;
	struct completion done;

	/* Parking, armed by the updater. */
	u32 park_key;
	int park_walk, park_resume;
	bool park_validate;
	bool parked, release, park_done;
	struct lv_park_res res;

	/* History across passes. */
	u32 last_gen[LV_MAX_ANCHORS];
	int last_count;
	unsigned int unval_miss, unval_wrong, restarts;
};

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

static struct lv_reader *lv_reader_new(struct kunit *test, struct lv_ctx *c,
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

static void lv_reader_go(struct kunit *test, struct lv_reader *r)
{
	struct task_struct *t;

	t = kthread_run_on_cpu(lv_reader_fn, r, RCUVET_READER_CPU,
			       "rcuvet_list/%u");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, lv_stop_action, r), 0);
	KUNIT_ASSERT_TRUE_MSG(test, lv_wait_until(atomic_read(&r->passes) > 0),
			      "the reader never completed a pass");
}

static struct lv_reader *lv_reader_start(struct kunit *test, struct lv_ctx *c,
					 struct lv_nt *t, int walk)
{
	struct lv_reader *r = lv_reader_new(test, c, t, walk);

	lv_reader_go(test, r);
	return r;
}

/* Wait until K passes that began after this call have completed. */
static bool lv_wait_passes(struct kunit *test, struct lv_reader *r, int k)
{
	int target = atomic_read(&r->passes) + k + 1;

	if (lv_wait_until(atomic_read_acquire(&r->passes) >= target))
		return true;
	KUNIT_FAIL(test, "the reader made no progress");
	return false;
}

static void lv_reader_check(struct kunit *test, struct lv_reader *r,
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
static bool lv_arm(struct kunit *test, struct lv_reader *r, u32 key, int walk,
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
static bool lv_unpark(struct kunit *test, struct lv_reader *r)
{
	/* Pairs with lv_park(): the update is done. */
	smp_store_release(&r->release, true);
	/* Pairs with lv_pass_end(): the pass's results are there. */
	if (lv_wait_until(smp_load_acquire(&r->park_done)))
		return true;
	KUNIT_FAIL(test, "the parked reader never finished its pass");
	return false;
}

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

static struct lv_ctx *lv_ctx_new(struct kunit *test, int fam)
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

static struct lv_elem *lv_new(struct lv_ctx *c, u32 key, int aidx, bool grp)
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
static void lv_retire(struct lv_ctx *c, struct lv_elem *e)
{
	if (lv_mutant("free_now"))
		kfree(e);
	else if (c->frees++ & 1)
		call_rcu(&e->rh, lv_free_cb);
	else
		kfree_rcu(e, rh);
}

/* First model position whose key is >= KEY. */
static int lv_pos(struct lv_ctx *c, u32 key)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (c->sh[i]->key >= key)
			break;
	return i;
}

enum lv_add { LV_A_HEAD, LV_A_TAIL, LV_A_AFTER, LV_A_BEFORE, LV_A_SETFIRST };
enum lv_del { LV_D_DEL, LV_D_INIT };

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

static struct lv_elem *lv_ins_key(struct lv_ctx *c, u32 key, int how)
{
	struct lv_elem *e = lv_new(c, key, -1, false);

	if (e && lv_ins(c, e, how))
		return e;
	return NULL;
}

/* Delete the element at model position POS, then retire it. */
static void lv_del(struct lv_ctx *c, int pos, int how)
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
static u32 lv_repl(struct lv_ctx *c, int pos)
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
static void lv_model_check(struct lv_ctx *c)
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
static void lv_fill(struct lv_ctx *c, int n, int aidx_at)
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

static void lv_drain(struct lv_ctx *c)
{
	while (c->n)
		lv_del(c, 0, LV_D_DEL);
}

/* ------------------------------------------------------------------ */
/* Stress: random updates under a reader that checks every pass.       */

static u32 lv_rand(struct lv_ctx *c, u32 n)
{
	return n ? prandom_u32_state(&c->rnd) % n : 0;
}

static void lv_stress_ins(struct lv_ctx *c)
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
static void lv_anchors(struct lv_ctx *c, int n)
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

	for (op = 0; op < ops && !c->ufails; op++) {
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

/* ------------------------------------------------------------------ */
/* Parameters.                                                         */

struct lv_param {
	const char *name;
	int kind;
	const char *covers;
	const char *mutants;	/* the mutants this parameter is run under */
};

static void lv_param_desc(const struct lv_param *p, char *desc)
{
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
}

static const struct lv_param *lv_param(struct kunit *test)
{
	const struct lv_param *p = test->param_value;

	rcuvet_covers(test, p->covers);
	lv_gate(test, p->mutants);
	return p;
}

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

/*
 * list_head updates under a reader that checks every pass: sorted,
 * valid, no poison, every anchor once, replaced anchors old or new.
 */
static void list_stress(struct kunit *test)
{
	const struct lv_param *p = lv_param(test);
	struct lv_ctx *c = lv_ctx_new(test, LV_LIST);
	struct lv_reader *r;

	lv_anchors(c, 4);
	r = lv_reader_new(test, c, NULL, p->kind);
	r->n_anchors = c->n_anchors;
	lv_reader_go(test, r);
	c->r = r;
	lv_stress(c, r);
	lv_reader_check(test, r, p->name);
}

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

/* hlist updates under a reader, as list_stress. */
static void hlist_stress(struct kunit *test)
{
	const struct lv_param *p = lv_param(test);
	struct lv_ctx *c = lv_ctx_new(test, LV_HLIST);
	struct lv_reader *r;

	lv_anchors(c, 4);
	r = lv_reader_new(test, c, NULL, p->kind);
	r->n_anchors = c->n_anchors;
	lv_reader_go(test, r);
	c->r = r;
	lv_stress(c, r);
	lv_reader_check(test, r, p->name);
}

static const struct lv_param lv_nulls_stress_params[] = {
	{ "hlist_nulls_for_each_entry_rcu", LV_W_NULLS_RCU,
	  "hlist_nulls_add_head_rcu hlist_nulls_del_rcu hlist_nulls_del_init_rcu hlist_nulls_for_each_entry_rcu kfree_rcu call_rcu",
	  "plain_del" },
	{ "hlist_nulls_first_rcu", LV_W_NULLS_STEP,
	  "hlist_nulls_add_head_rcu hlist_nulls_del_rcu hlist_nulls_del_init_rcu hlist_nulls_first_rcu hlist_nulls_next_rcu kfree_rcu call_rcu",
	  "plain_del" },
};

KUNIT_ARRAY_PARAM(lv_nulls_stress, lv_nulls_stress_params, lv_param_desc);

/* hlist_nulls updates under a reader; every walk ends on its nulls value. */
static void nulls_stress(struct kunit *test)
{
	const struct lv_param *p = lv_param(test);
	struct lv_ctx *c = lv_ctx_new(test, LV_NULLS);
	struct lv_reader *r;

	lv_anchors(c, 2);
	r = lv_reader_new(test, c, NULL, p->kind);
	r->n_anchors = c->n_anchors;
	lv_reader_go(test, r);
	lv_stress(c, r);
	lv_reader_check(test, r, p->name);
}

#define LV_BL_STRESS "hlist_bl_add_head_rcu hlist_bl_set_first_rcu hlist_bl_del_rcu " \
	"hlist_bl_first_rcu hlist_bl_for_each_entry_rcu hlist_bl_lock hlist_bl_unlock " \
	"kfree_rcu call_rcu"

/*
 * hlist_bl updates under the bit lock while a reader walks: sorted,
 * valid, never a lock bit in a pointer; the list is drained every 32
 * updates and refilled through hlist_bl_set_first_rcu().
 */
static void bl_stress(struct kunit *test)
{
	struct lv_ctx *c = lv_ctx_new(test, LV_BL);
	struct lv_reader *r;

	rcuvet_covers(test, LV_BL_STRESS);
	lv_gate(test, "plain_del");
	r = lv_reader_start(test, c, NULL, LV_W_BL_RCU);
	lv_stress(c, r);
	lv_reader_check(test, r, "hlist_bl_for_each_entry_rcu");
}

/* ------------------------------------------------------------------ */
/* Parked: the reader stands on X while the updater changes X's        */
/* neighbourhood, then must resume onto the right successor.           */

enum lv_upd {
	LV_U_DEL, LV_U_DEL_INIT, LV_U_DEL_SUCC, LV_U_REPLACE, LV_U_ADD_AFTER,
	LV_U_ADD_BEFORE, LV_U_ADD_HEAD, LV_U_ADD_TAIL, LV_U_SET_FIRST,
};

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
	for (rep = 0; rep < reps; rep++) {
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

static void list_parked(struct kunit *test)
{
	const struct lv_param *p = lv_param(test);

	lv_parked(test, LV_LIST, p->kind, lv_list_modes,
		  ARRAY_SIZE(lv_list_modes));
}

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

static void hlist_parked(struct kunit *test)
{
	const struct lv_param *p = lv_param(test);

	lv_parked(test, LV_HLIST, p->kind, lv_hlist_modes,
		  ARRAY_SIZE(lv_hlist_modes));
}

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

static void nulls_parked(struct kunit *test)
{
	const struct lv_param *p = lv_param(test);

	lv_parked(test, LV_NULLS, p->kind, lv_nulls_modes,
		  ARRAY_SIZE(lv_nulls_modes));
}

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

static void bl_parked(struct kunit *test)
{
	const struct lv_param *p = lv_param(test);

	lv_parked(test, LV_BL, p->kind, lv_bl_modes, ARRAY_SIZE(lv_bl_modes));
}

/* ------------------------------------------------------------------ */
/* list_head: lockless readers, INIT_LIST_HEAD_RCU, splices.           */

static const struct lv_param lv_lockless_params[] = {
	{ "list_for_each_entry_lockless", LV_W_LOCKLESS,
	  "list_for_each_entry_lockless list_add_rcu list_add_tail_rcu", "" },
	{ "list_entry_lockless", LV_W_ENTRY_LOCKLESS,
	  "list_entry_lockless list_add_rcu list_add_tail_rcu", "" },
};

KUNIT_ARRAY_PARAM(lv_lockless, lv_lockless_params, lv_param_desc);

/*
 * An insertion-only list walked with no read-side marker at all: every
 * pass sorted and valid, never shorter than the one before, and an
 * element inserted behind a parked reader is the next one it meets.
 */
static void list_lockless(struct kunit *test)
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
	for (op = 0; op < ops && c->n < LV_MAX_ELEMS - 4 && !c->ufails; op++) {
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
static void list_init_rcu(struct kunit *test)
{
	struct lv_ctx *c = lv_ctx_new(test, LV_LIST);
	struct lv_elem *e, *one;
	struct lv_reader *r;
	unsigned int rep;
	int i, n;

	rcuvet_covers(test, LV_INIT_COVERS);
	lv_gate(test, "");
	r = lv_reader_new(test, c, NULL, LV_W_LIST_RCU);
	for (rep = 0; rep < reps; rep++) {
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

static const struct lv_param lv_splice_params[] = {
	{ "list_splice_init_rcu", 0,
	  "list_splice_init_rcu synchronize_rcu INIT_LIST_HEAD_RCU list_for_each_entry_rcu",
	  "splice_nosync" },
	{ "list_splice_tail_init_rcu", 1,
	  "list_splice_tail_init_rcu synchronize_rcu INIT_LIST_HEAD_RCU list_for_each_entry_rcu",
	  "splice_nosync" },
};

KUNIT_ARRAY_PARAM(lv_splice, lv_splice_params, lv_param_desc);

#define LV_NSRC 4

/*
 * Splice a list that a reader is inside onto another that a reader walks:
 * the splice returns only after the source's reader left (that is what its
 * sync argument is for), that reader ends on its own head having seen the
 * whole source, and the target's readers see the block whole or not at all.
 */
static void list_splice_rcu_case(struct kunit *test)
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
	for (rep = 0; rep < reps; rep++) {
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

/* ------------------------------------------------------------------ */
/* hlist_nulls over a SLAB_TYPESAFE_BY_RCU cache.                      */

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

static const struct lv_param lv_nt_params[] = {
	{ "hlist_nulls_for_each_entry_rcu", LV_W_NT_RCU,
	  "hlist_nulls_add_head_rcu hlist_nulls_del_rcu hlist_nulls_del_init_rcu hlist_nulls_for_each_entry_rcu",
	  "nulls_novalidate" },
	{ "hlist_nulls_first_rcu", LV_W_NT_STEP,
	  "hlist_nulls_add_head_rcu hlist_nulls_del_rcu hlist_nulls_del_init_rcu hlist_nulls_first_rcu hlist_nulls_next_rcu",
	  "nulls_novalidate" },
};

KUNIT_ARRAY_PARAM(lv_nt, lv_nt_params, lv_param_desc);

/*
 * Objects are freed (to the cache, or to the reuse pool) and allocated
 * again on random chains while readers look the anchors up: the validated
 * lookup always finds its anchor.  How often a lookup without the nulls
 * check ended on another chain is reported, not asserted: it depends on
 * timing (nulls_moved makes it happen every time).
 */
static void nulls_typesafe(struct kunit *test)
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
	for (op = 0; op < ops; op++) {
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
static void nulls_moved(struct kunit *test)
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
	for (rep = 0; rep < reps; rep++) {
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
	KUNIT_EXPECT_EQ(test, wrong, reps);
	KUNIT_EXPECT_EQ(test, found, reps);
	kunit_info(test, "without the nulls check %u of %u lookups ended on the wrong chain; with it %u of %u found their key",
		   wrong, reps, found, reps);
}

#define LV_SAFE_COVERS "hlist_nulls_for_each_entry_safe hlist_nulls_del_rcu " \
	"hlist_nulls_add_head_rcu hlist_nulls_for_each_entry_rcu"

/*
 * hlist_nulls_for_each_entry_safe() lets the loop unhash its current
 * element: every odd-keyed object of chain 0 is moved to chain 2 while
 * readers look up the anchors.
 */
static void nulls_safe_move(struct kunit *test)
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
	for (rep = 0; rep < reps; rep++) {
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

/* ------------------------------------------------------------------ */

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
