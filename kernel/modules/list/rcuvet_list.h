/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of the rcuvet_list module share: the elements and the
 * lists they are on, the updater's context and model, the typesafe
 * hlist_nulls objects, the reader and what its parked pass reports, the
 * parameter rows, and the functions one file calls in another.  suite.c
 * describes the cases and holds their table.
 */
#ifndef _RCUVET_LIST_H
#define _RCUVET_LIST_H

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/jiffies.h>
#include <linux/prandom.h>
#include <linux/rculist.h>
#include <linux/rculist_bl.h>
#include <linux/rculist_nulls.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "rcuvet.h"
#include "rcuvet_tree.h"

/* The module's parameters reps and ops (suite.c). */
extern unsigned int lv_reps;
extern unsigned int lv_ops;

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

static inline u32 lv_sum(u32 key, u32 gen)
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

/* How a parked reader resumes. */
enum lv_resume { LV_R_LOOP, LV_R_CONTINUE, LV_R_FROM };

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

/* How the updater inserts and deletes (updater.c). */
enum lv_add { LV_A_HEAD, LV_A_TAIL, LV_A_AFTER, LV_A_BEFORE, LV_A_SETFIRST };
enum lv_del { LV_D_DEL, LV_D_INIT };

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

/* Their SLAB_TYPESAFE_BY_RCU cache: suite.c makes it, nulls.c uses it. */
extern struct kmem_cache *lv_ncache;

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

/* ------------------------------------------------------------------ */
/* The updates of the parked cases (parked.c).                        */

enum lv_upd {
	LV_U_DEL, LV_U_DEL_INIT, LV_U_DEL_SUCC, LV_U_REPLACE, LV_U_ADD_AFTER,
	LV_U_ADD_BEFORE, LV_U_ADD_HEAD, LV_U_ADD_TAIL, LV_U_SET_FIRST,
};

/* ------------------------------------------------------------------ */
/* Parameters.                                                         */

struct lv_param {
	const char *name;
	int kind;
	const char *covers;
	const char *mutants;	/* the mutants this parameter is run under */
};

/* suite.c */
bool lv_mutant(const char *name);
void lv_gate(struct kunit *test, const char *concerned);
const struct lv_param *lv_param(struct kunit *test);

/* reader.c */
struct lv_reader *lv_reader_new(struct kunit *test, struct lv_ctx *c,
				struct lv_nt *t, int walk);
void lv_reader_go(struct kunit *test, struct lv_reader *r);
struct lv_reader *lv_reader_start(struct kunit *test, struct lv_ctx *c,
				  struct lv_nt *t, int walk);
bool lv_wait_passes(struct kunit *test, struct lv_reader *r, int k);
void lv_reader_check(struct kunit *test, struct lv_reader *r,
		     const char *what);
bool lv_arm(struct kunit *test, struct lv_reader *r, u32 key, int walk,
	    int resume, bool validate);
bool lv_unpark(struct kunit *test, struct lv_reader *r);

/* updater.c */
struct lv_ctx *lv_ctx_new(struct kunit *test, int fam);
struct lv_elem *lv_new(struct lv_ctx *c, u32 key, int aidx, bool grp);
void lv_retire(struct lv_ctx *c, struct lv_elem *e);
int lv_pos(struct lv_ctx *c, u32 key);
struct lv_elem *lv_ins_key(struct lv_ctx *c, u32 key, int how);
void lv_del(struct lv_ctx *c, int pos, int how);
u32 lv_repl(struct lv_ctx *c, int pos);
void lv_model_check(struct lv_ctx *c);
void lv_fill(struct lv_ctx *c, int n, int aidx_at);
void lv_drain(struct lv_ctx *c);
u32 lv_rand(struct lv_ctx *c, u32 n);
void lv_stress_ins(struct lv_ctx *c);
void lv_anchors(struct lv_ctx *c, int n);

/*
 * The test cases, by the file that holds them; suite.c's table runs them
 * (KUnit names a case after its function).
 */
void list_stress(struct kunit *test);		/* updater.c */
void hlist_stress(struct kunit *test);
void nulls_stress(struct kunit *test);
void bl_stress(struct kunit *test);
void list_parked(struct kunit *test);		/* parked.c */
void hlist_parked(struct kunit *test);
void nulls_parked(struct kunit *test);
void bl_parked(struct kunit *test);
void list_lockless(struct kunit *test);		/* list_head.c */
void list_init_rcu(struct kunit *test);
void list_splice_rcu_case(struct kunit *test);
void nulls_typesafe(struct kunit *test);	/* nulls.c */
void nulls_moved(struct kunit *test);
void nulls_safe_move(struct kunit *test);

#endif /* _RCUVET_LIST_H */
