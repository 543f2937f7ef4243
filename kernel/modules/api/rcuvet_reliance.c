// SPDX-License-Identifier: GPL-2.0
/*
 * rcuvet_reliance: the report of readers that rely on flavor
 * consolidation (CONFIG_RCU_CONSOLIDATION_RELIANCE, debugfs
 * rcu/consolidation_reliance, kernel/patches/0002-*).
 *
 * Each site is a function of its own, never inlined, so that the report
 * names it ("function+0x../0x.. [rcuvet_reliance]"), and runs one reader:
 * the report must list it, with the check and context it names, or must
 * not (a lock, SRCU or rcu_read_lock() protects it), no hit having been
 * lost meanwhile.  reliance_overflow lowers the table's limit to 0 and
 * shows that the report counts the hits of new sites as lost.
 * reliance_probe_helper shows that a check in a function that a condition
 * calls is not the condition's: it does not fail when the condition is
 * evaluated again to probe it, and is recorded as a direct call only when
 * the real evaluation calls it.  reliance_lockdep_inside shows that the
 * checks lockdep makes while it registers a lock class are neither
 * recorded nor counted as lost.
 */
#include <kunit/test.h>
#include <linux/fs.h>
#include <linux/local_lock.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/srcu.h>
#include <linux/vmalloc.h>
#include "rcuvet.h"
#include "rcuvet_tree.h"

#define RELIANCE_REPORT "/sys/kernel/debug/rcu/consolidation_reliance"
#define RELIANCE_MAX_SITES "/sys/kernel/debug/rcu/consolidation_reliance_max_sites"
#define RELIANCE_BUF_SIZE (512 * 1024)

static int reliance_target = 7;
static int __rcu *reliance_ptr = RCU_INITIALIZER(&reliance_target);
static int *reliance_seen;
static DEFINE_MUTEX(reliance_mutex);
static DEFINE_SPINLOCK(reliance_spin);
DEFINE_STATIC_SRCU(reliance_srcu);

struct reliance_node {
	struct list_head list;
	int value;
};

static struct reliance_node reliance_node = { .value = 7 };
static LIST_HEAD(reliance_list);

struct reliance_pcpu {
	local_lock_t lock;
};

static DEFINE_PER_CPU(struct reliance_pcpu, reliance_pcpu) = {
	.lock = INIT_LOCAL_LOCK(lock),
};

/* Preemption off, and the condition's lock not held: relies. */
static noinline void reliance_sched_or_mutex_alone(void)
{
	preempt_disable();
	reliance_seen = rcu_dereference_check(reliance_ptr,
					      rcu_read_lock_sched_held() ||
					      lockdep_is_held(&reliance_mutex));
	preempt_enable();
}

/* The same condition with the mutex held: the mutex protects it. */
static noinline void reliance_sched_or_mutex_held(void)
{
	mutex_lock(&reliance_mutex);
	preempt_disable();
	reliance_seen = rcu_dereference_check(reliance_ptr,
					      rcu_read_lock_sched_held() ||
					      lockdep_is_held(&reliance_mutex));
	preempt_enable();
	mutex_unlock(&reliance_mutex);
}

/* srcu_dereference_check() passing on disabled preemption alone: relies. */
static noinline void reliance_srcu_sched_alone(void)
{
	preempt_disable();
	reliance_seen = srcu_dereference_check(reliance_ptr, &reliance_srcu,
					       rcu_read_lock_sched_held());
	preempt_enable();
}

/* The same inside an SRCU reader: SRCU protects it. */
static noinline void reliance_srcu_reader(void)
{
	int idx = srcu_read_lock(&reliance_srcu);

	preempt_disable();
	reliance_seen = srcu_dereference_check(reliance_ptr, &reliance_srcu,
					       rcu_read_lock_sched_held());
	preempt_enable();
	srcu_read_unlock(&reliance_srcu, idx);
}

/* rcu_read_lock() around a bh reader: rcu_read_lock() protects it. */
static noinline void reliance_rcu_read_lock(void)
{
	rcu_read_lock();
	local_bh_disable();
	reliance_seen = rcu_dereference_bh(reliance_ptr);
	local_bh_enable();
	rcu_read_unlock();
}

/*
 * local_lock() disables preemption; it is no spinning lock.  On PREEMPT_RT
 * both locks enter rcu_read_lock() instead, where rcu_dereference() is
 * legal and relies on nothing.
 */
static noinline void reliance_local_lock(void)
{
	local_lock(&reliance_pcpu.lock);
	reliance_seen = ON_RT ? rcu_dereference(reliance_ptr) :
				rcu_dereference_sched(reliance_ptr);
	local_unlock(&reliance_pcpu.lock);
}

/* A spinning lock held: tagged, as that lock may be the protection. */
static noinline void reliance_spinlock(void)
{
	spin_lock(&reliance_spin);
	reliance_seen = ON_RT ? rcu_dereference(reliance_ptr) :
				rcu_dereference_sched(reliance_ptr);
	spin_unlock(&reliance_spin);
}

/* A direct call, recorded as it passes. */
static noinline void reliance_bh_direct(void)
{
	local_bh_disable();
	WRITE_ONCE(reliance_seen, rcu_read_lock_bh_held() ? &reliance_target : NULL);
	local_bh_enable();
}

/* A list traversal whose lockdep condition does not hold (PROVE_RCU_LIST). */
static noinline void reliance_list_alone(void)
{
	struct reliance_node *n;

	preempt_disable();
	list_for_each_entry_rcu(n, &reliance_list, list,
				lockdep_is_held(&reliance_mutex))
		WRITE_ONCE(reliance_seen, &n->value);
	preempt_enable();
}

/* The same traversal with its lock held. */
static noinline void reliance_list_locked(void)
{
	struct reliance_node *n;

	mutex_lock(&reliance_mutex);
	preempt_disable();
	list_for_each_entry_rcu(n, &reliance_list, list,
				lockdep_is_held(&reliance_mutex))
		WRITE_ONCE(reliance_seen, &n->value);
	preempt_enable();
	mutex_unlock(&reliance_mutex);
}

#ifdef rcu_reliance_mark_reader
/* A reader marked by rcu_reliance_mark_reader() under local_bh_disable(). */
static noinline void reliance_marked_bh(void)
{
	local_bh_disable();
	rcu_reliance_mark_reader();
	local_bh_enable();
}

/* The same mark inside rcu_read_lock(). */
static noinline void reliance_marked_rcu(void)
{
	rcu_read_lock();
	local_bh_disable();
	rcu_reliance_mark_reader();
	local_bh_enable();
	rcu_read_unlock();
}
#define RELIANCE_MARK true
#else
#define reliance_marked_bh NULL
#define reliance_marked_rcu NULL
#define RELIANCE_MARK false
#endif

struct reliance_case {
	const char *site;	/* the function the reader is in */
	void (*run)(void);
	bool listed;
	const char *check;	/* the check column, if listed */
	const char *with;	/* a context the line must have */
	const char *without;	/* a context it must not have */
	bool needs;		/* false: skip (option or kernel lacks it) */
};

#define NOT_RT (!ON_RT)
#define LIST_CHECKED IS_ENABLED(CONFIG_PROVE_RCU_LIST)

static const struct reliance_case reliance_cases[] = {
	{ "reliance_sched_or_mutex_alone", reliance_sched_or_mutex_alone,
	  true, "sched_held", "preempt", "spinlock", true },
	{ "reliance_sched_or_mutex_held", reliance_sched_or_mutex_held,
	  false, NULL, NULL, NULL, true },
	{ "reliance_srcu_sched_alone", reliance_srcu_sched_alone,
	  true, "sched_held", "preempt", NULL, true },
	{ "reliance_srcu_reader", reliance_srcu_reader,
	  false, NULL, NULL, NULL, true },
	{ "reliance_rcu_read_lock", reliance_rcu_read_lock,
	  false, NULL, NULL, NULL, true },
	/* On PREEMPT_RT locks and bh-disabled regions are rcu_read_lock() readers. */
	{ "reliance_local_lock", reliance_local_lock,
	  NOT_RT, "sched_held", "preempt", "spinlock", true },
	{ "reliance_spinlock", reliance_spinlock,
	  NOT_RT, "sched_held", "spinlock", NULL, true },
	{ "reliance_bh_direct", reliance_bh_direct,
	  NOT_RT, "bh_held", "bh", NULL, true },
	{ "reliance_list_alone", reliance_list_alone,
	  true, "any_held", "preempt", NULL, LIST_CHECKED },
	{ "reliance_list_locked", reliance_list_locked,
	  false, NULL, NULL, NULL, LIST_CHECKED },
	{ "reliance_marked_bh", reliance_marked_bh,
	  NOT_RT, "marked", "bh", NULL, RELIANCE_MARK },
	{ "reliance_marked_rcu", reliance_marked_rcu,
	  false, NULL, NULL, NULL, RELIANCE_MARK },
};

static void reliance_case_desc(const struct reliance_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s_%s", c->site,
		 c->listed ? "listed" : "absent");
}

KUNIT_ARRAY_PARAM(reliance_case, reliance_cases, reliance_case_desc);

static void reliance_vfree(void *p)
{
	vfree(p);
}

/* The whole report, NUL-terminated; the test fails if it cannot be read. */
static char *reliance_report(struct kunit *test)
{
	ssize_t n, len = 0;
	struct file *f;
	loff_t pos = 0;
	char *buf;

	buf = vzalloc(RELIANCE_BUF_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, reliance_vfree, buf), 0);
	f = filp_open(RELIANCE_REPORT, O_RDONLY, 0);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(f), "cannot open " RELIANCE_REPORT);
	while (len < RELIANCE_BUF_SIZE - 1) {
		n = kernel_read(f, buf + len, RELIANCE_BUF_SIZE - 1 - len, &pos);
		if (n <= 0)
			break;
		len += n;
	}
	filp_close(f, NULL);
	KUNIT_ASSERT_LT_MSG(test, len, (ssize_t)RELIANCE_BUF_SIZE - 1, "report too long");
	KUNIT_ASSERT_NOT_NULL_MSG(test, strstr(buf, " sites (limit "),
				  "report incomplete or of another format:\n%s", buf);
	return buf;
}

static int reliance_write(const char *path, const char *s)
{
	struct file *f = filp_open(path, O_WRONLY, 0);
	loff_t pos = 0;
	ssize_t n;

	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_write(f, s, strlen(s), &pos);
	filp_close(f, NULL);
	return n < 0 ? n : 0;
}

/*
 * The line of the site in function @func, copied into @line: "HITS
 * CONTEXT CHECK SITE", SITE being "func+0x../0x.. [module]" (or
 * "func.part.0+...") or "file:func".
 */
static bool reliance_find(const char *report, const char *func, char *line,
			  size_t size)
{
	size_t n = strlen(func), len;
	const char *p, *end, *site, *colon;
	int i;

	for (p = report; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, '\n');
		if (*p == '#')
			continue;
		for (site = p, i = 0; i < 3 && site; i++) {
			site = memchr(site, ' ', end - site);
			if (site)
				site++;
		}
		if (!site)
			continue;
		colon = memchr(site, ':', end - site);
		if ((!strncmp(site, func, n) && (site[n] == '+' || site[n] == '.')) ||
		    (colon && end - colon - 1 == n && !strncmp(colon + 1, func, n))) {
			len = min_t(size_t, end - p, size - 1);
			memcpy(line, p, len);
			line[len] = '\0';
			return true;
		}
	}
	return false;
}

/* Is @word one of the '+'-separated words of @list? */
static bool reliance_has(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word))) {
		if ((p == list || p[-1] == '+') && (p[n] == '+' || p[n] == '\0'))
			return true;
		p += n;
	}
	return false;
}

/*
 * The report's last line: its sites, limit and losses, @lost for want of
 * room and @unknown because lockdep could not tell.
 */
static void reliance_summary(struct kunit *test, const char *report,
			     unsigned int *sites, unsigned int *limit,
			     unsigned long *lost, unsigned long *unknown)
{
	const char *p = strstr(report, "\n# ");
	int n;

	while (p && !strstr(p, " sites (limit "))
		p = strstr(p + 1, "\n# ");
	KUNIT_ASSERT_NOT_NULL(test, p);
	n = sscanf(p + 1, "# %u sites (limit %u), %lu hits lost (table full), %lu hits lost",
		   sites, limit, lost, unknown);
	KUNIT_ASSERT_EQ_MSG(test, n, 4, "summary: %.200s", p + 1);
}

/*
 * An absent site proves nothing if its hit may have been lost meanwhile:
 * no hit lost for want of room (the table full, or the site's hash chain
 * too long) or because lockdep could not tell, and lockdep still on, as
 * guest/rcu-reliance.c requires of an absent site.  The checks made while
 * lockdep runs, which it cannot answer, are not counted: lockdep's own,
 * and those of the stack unwinder when it saves a trace for a new lock
 * class, as for a case's mutex (before the report skipped them, 17 hits
 * lost with lockdep unsure during one absent case).
 */
static void reliance_complete(struct kunit *test, const char *report,
			      unsigned long lost0, unsigned long unknown0)
{
	unsigned long lost, unknown;
	unsigned int sites, limit;

	reliance_summary(test, report, &sites, &limit, &lost, &unknown);
	KUNIT_ASSERT_EQ_MSG(test, lost, lost0,
			    "hits lost for want of room: absence unproven");
	KUNIT_ASSERT_EQ_MSG(test, unknown, unknown0,
			    "hits lost with lockdep unsure: absence unproven");
	KUNIT_ASSERT_NULL_MSG(test, strstr(report, "\n# lockdep is off"),
			      "lockdep turned off: absence unproven");
}

static void reliance_site(struct kunit *test)
{
	const struct reliance_case *c = test->param_value;
	char line[256], context[128], check[32];
	unsigned long hits, lost0 = 0, unknown0 = 0;
	unsigned int sites, limit;
	char *report;

	if (!c->needs)
		rcuvet_skip(test, "needs %s", c->run ? "PROVE_RCU_LIST" :
			    "rcu_reliance_mark_reader()");
	if (!c->listed) {
		report = reliance_report(test);
		reliance_summary(test, report, &sites, &limit, &lost0, &unknown0);
	}
	c->run();
	report = reliance_report(test);
	if (!c->listed) {
		KUNIT_EXPECT_FALSE_MSG(test, reliance_find(report, c->site, line, sizeof(line)),
				       "listed, must be absent: %s", line);
		reliance_complete(test, report, lost0, unknown0);
		return;
	}
	KUNIT_ASSERT_TRUE_MSG(test, reliance_find(report, c->site, line, sizeof(line)),
			      "%s not listed; report:\n%s", c->site, report);
	KUNIT_ASSERT_EQ_MSG(test, sscanf(line, "%lu %127s %31s", &hits, context, check), 3,
			    "line: %s", line);
	kunit_info(test, "%s", line);
	KUNIT_EXPECT_GE(test, hits, 1UL);
	KUNIT_EXPECT_STREQ(test, check, c->check);
	if (c->with)
		KUNIT_EXPECT_TRUE_MSG(test, reliance_has(context, c->with),
				      "context %s lacks %s", context, c->with);
	if (c->without)
		KUNIT_EXPECT_FALSE_MSG(test, reliance_has(context, c->without),
				       "context %s has %s", context, c->without);
}

static int reliance_fresh_ran;

/* Four sites of their own, each a distinct function (distinct code). */
#define RELIANCE_FRESH(n)						\
static noinline void reliance_fresh_##n(void)				\
{									\
	preempt_disable();						\
	reliance_seen = rcu_dereference_sched(reliance_ptr);		\
	WRITE_ONCE(reliance_fresh_ran, n);				\
	preempt_enable();						\
}
RELIANCE_FRESH(1)
RELIANCE_FRESH(2)
RELIANCE_FRESH(3)
RELIANCE_FRESH(4)

static void (* const reliance_fresh[])(void) = {
	reliance_fresh_1, reliance_fresh_2, reliance_fresh_3, reliance_fresh_4,
};

static const char * const reliance_fresh_names[] = {
	"reliance_fresh_1", "reliance_fresh_2", "reliance_fresh_3", "reliance_fresh_4",
};

/* The table's limit that reliance_overflow puts back, and how that went. */
struct reliance_limit {
	unsigned int limit;
	int err;
};

static void reliance_limit_restore(void *data)
{
	struct reliance_limit *old = data;
	char buf[16];

	snprintf(buf, sizeof(buf), "%u\n", old->limit);
	old->err = reliance_write(RELIANCE_MAX_SITES, buf);
}

/*
 * With the table's limit at 0, no new site enters it: the hits of the
 * fresh sites that are not in it yet (they are, after an earlier load of
 * this module at the same address) must be counted as lost, and the
 * report must say so.  The limit is put back before anything is checked,
 * and by a KUnit action if an assertion ends the case earlier, so that
 * the rest of the boot does not run with a limit of 0.
 */
static void reliance_overflow(struct kunit *test)
{
	unsigned int sites0, sites, limit, present = 0, i;
	unsigned long lost0, lost, unknown;
	struct reliance_limit *old;
	char line[256];
	char *report;
	int err;

	old = kunit_kzalloc(test, sizeof(*old), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, old);
	report = reliance_report(test);
	reliance_summary(test, report, &sites0, &old->limit, &lost0, &unknown);
	err = kunit_add_action_or_reset(test, reliance_limit_restore, old);
	KUNIT_ASSERT_EQ(test, err, 0);
	err = reliance_write(RELIANCE_MAX_SITES, "0\n");
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "cannot write " RELIANCE_MAX_SITES);
	/* From here on no site enters the table. */
	report = reliance_report(test);
	reliance_summary(test, report, &sites0, &limit, &lost0, &unknown);
	for (i = 0; i < ARRAY_SIZE(reliance_fresh); i++)
		present += reliance_find(report, reliance_fresh_names[i], line, sizeof(line));
	for (i = 0; i < ARRAY_SIZE(reliance_fresh); i++)
		reliance_fresh[i]();
	report = reliance_report(test);
	kunit_release_action(test, reliance_limit_restore, old);
	KUNIT_EXPECT_EQ_MSG(test, old->err, 0, "cannot put the limit back to %u", old->limit);
	reliance_summary(test, report, &sites, &limit, &lost, &unknown);
	kunit_info(test, "limit %u set to 0; before the fresh sites: %u sites, %lu hits lost; after: %u sites, %lu hits lost; %u of them in the table",
		   old->limit, sites0, lost0, sites, lost, present);
	KUNIT_EXPECT_EQ(test, limit, 0U);
	KUNIT_EXPECT_EQ(test, sites, sites0);
	KUNIT_EXPECT_GE(test, lost - lost0,
			(unsigned long)(ARRAY_SIZE(reliance_fresh) - present));
	if (!present) {
		for (i = 0; i < ARRAY_SIZE(reliance_fresh); i++)
			KUNIT_EXPECT_FALSE(test, reliance_find(report, reliance_fresh_names[i],
							       line, sizeof(line)));
	}
}

/* The hits of the site in function @func, 0 if it is not listed. */
static unsigned long reliance_hits(const char *report, const char *func)
{
	unsigned long hits;
	char line[256];

	if (!reliance_find(report, func, line, sizeof(line)) ||
	    sscanf(line, "%lu", &hits) != 1)
		return 0;
	return hits;
}

/* The site in function @func must be listed, with @check and @with. */
static void reliance_listed(struct kunit *test, const char *report,
			    const char *func, const char *check,
			    const char *with)
{
	char line[256], context[128], chk[32];
	unsigned long hits;

	if (!reliance_find(report, func, line, sizeof(line))) {
		KUNIT_FAIL(test, "%s not listed; report:\n%s", func, report);
		return;
	}
	kunit_info(test, "%s", line);
	if (sscanf(line, "%lu %127s %31s", &hits, context, chk) != 3) {
		KUNIT_FAIL(test, "line: %s", line);
		return;
	}
	KUNIT_EXPECT_STREQ(test, chk, check);
	KUNIT_EXPECT_TRUE_MSG(test, reliance_has(context, with),
			      "context %s lacks %s", context, with);
}

static unsigned int reliance_helper_failed;

/*
 * A helper that a condition calls, out of line, asserting that it runs in
 * a reader: its check is its own, not the condition's.
 */
static noinline bool reliance_sched_helper(void)
{
	bool held = rcu_read_lock_sched_held();

	if (!held)
		WRITE_ONCE(reliance_helper_failed, reliance_helper_failed + 1);
	WARN_ON_ONCE(!held);
	return false;
}

/* The condition passes on its own check: only the probe calls the helper. */
static noinline void reliance_cond_then_helper(void)
{
	preempt_disable();
	reliance_seen = rcu_dereference_check(reliance_ptr,
					      rcu_read_lock_sched_held() ||
					      reliance_sched_helper());
	preempt_enable();
}

/* The helper comes first: both evaluations call it. */
static noinline void reliance_helper_then_cond(void)
{
	preempt_disable();
	reliance_seen = rcu_dereference_check(reliance_ptr,
					      reliance_sched_helper() ||
					      rcu_read_lock_sched_held());
	preempt_enable();
}

/*
 * A condition that calls the helper, and how many times the real
 * evaluation records the helper's own check: once where the helper comes
 * first, never where the condition passes before calling it.
 */
struct reliance_probe_case {
	const char *func;
	void (*run)(void);
	unsigned long helper_records;
};

static const struct reliance_probe_case reliance_probe_cases[] = {
	{ "reliance_cond_then_helper", reliance_cond_then_helper, 0 },
	{ "reliance_helper_then_cond", reliance_helper_then_cond, 1 },
};

/*
 * Each condition relies on disabled preemption, its own check passing
 * there and the helper returning false: both sites are listed.  When the
 * condition is evaluated again to probe it, only its own check fails: the
 * helper's passes (no splat), and it is not recorded, since it runs only
 * for the probe.  Where the real evaluation calls the helper, its check is
 * a direct call, listed in reliance_sched_helper, with one hit more.
 */
static void reliance_probe_helper(struct kunit *test)
{
	const struct reliance_probe_case *c;
	unsigned long lost0, unknown0, helper, hits;
	unsigned int sites, limit, failed;
	char *report;

	report = reliance_report(test);
	reliance_summary(test, report, &sites, &limit, &lost0, &unknown0);
	helper = reliance_hits(report, "reliance_sched_helper");
	WRITE_ONCE(reliance_helper_failed, 0);

	for (c = reliance_probe_cases;
	     c < reliance_probe_cases + ARRAY_SIZE(reliance_probe_cases); c++) {
		c->run();
		report = reliance_report(test);
		failed = READ_ONCE(reliance_helper_failed);
		KUNIT_EXPECT_EQ_MSG(test, failed, 0U,
				    "%s: the probe failed the helper's check",
				    c->func);
		reliance_listed(test, report, c->func, "sched_held", "preempt");
		if (c->helper_records)
			reliance_listed(test, report, "reliance_sched_helper",
					"sched_held", "preempt");
		hits = reliance_hits(report, "reliance_sched_helper");
		KUNIT_EXPECT_EQ_MSG(test, hits, helper + c->helper_records,
				    "%s: the helper's hits, the probe's calls not counted",
				    c->func);
		helper = hits;
		reliance_complete(test, report, lost0, unknown0);
	}
}

struct reliance_lock {
	spinlock_t lock;
	struct lock_class_key key;
};

static void reliance_unregister_key(void *key)
{
	lockdep_unregister_key(key);
}

/*
 * A lock of a class that lockdep has not seen: lockdep registers the class
 * and saves stack traces for it, with its per-CPU recursion count set, so
 * that lock_is_held() cannot answer, and the unwinder's __module_address()
 * checks rcu_read_lock_sched_held() for this case's frames, in a module.
 * Those checks are lockdep's, no reader's: no hit may be counted as lost.
 */
static void reliance_lockdep_inside(struct kunit *test)
{
	unsigned long lost0, unknown0;
	unsigned int sites, limit;
	struct reliance_lock *l;
	char *report;
	int err;

	l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, l);
	lockdep_register_key(&l->key);
	err = kunit_add_action_or_reset(test, reliance_unregister_key, &l->key);
	KUNIT_ASSERT_EQ(test, err, 0);
	spin_lock_init(&l->lock);
	lockdep_set_class(&l->lock, &l->key);
	report = reliance_report(test);
	reliance_summary(test, report, &sites, &limit, &lost0, &unknown0);
	spin_lock(&l->lock);
	spin_unlock(&l->lock);
	spin_lock_irq(&l->lock);
	spin_unlock_irq(&l->lock);
	report = reliance_report(test);
	reliance_complete(test, report, lost0, unknown0);
}

static struct kunit_case reliance_test_cases[] = {
	KUNIT_CASE_PARAM(reliance_site, reliance_case_gen_params),
	KUNIT_CASE(reliance_overflow),
	KUNIT_CASE(reliance_probe_helper),
	KUNIT_CASE(reliance_lockdep_inside),
	{}
};

static int reliance_init(struct kunit *test)
{
	if (!IS_ENABLED(CONFIG_RCU_CONSOLIDATION_RELIANCE))
		rcuvet_skip(test, "needs CONFIG_RCU_CONSOLIDATION_RELIANCE");
	if (!debug_lockdep_rcu_enabled())
		rcuvet_skip(test, "needs lockdep enabled");
	return 0;
}

static int reliance_suite_init(struct kunit_suite *suite)
{
	list_add_rcu(&reliance_node.list, &reliance_list);
	return 0;
}

static struct kunit_suite reliance_suite = {
	.name = "rcuvet_reliance",
	.init = reliance_init,
	.suite_init = reliance_suite_init,
	.test_cases = reliance_test_cases,
};

kunit_test_suite(reliance_suite);

MODULE_DESCRIPTION("rcuvet: the report of readers relying on flavor consolidation");
MODULE_LICENSE("GPL");
