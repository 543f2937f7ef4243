// SPDX-License-Identifier: GPL-2.0
/*
 * verdict: decide whether one boot of a test plan passed, from its console.
 *
 *   verdict --plan PLAN [--plan PLAN...] --console LOG [--results TSV]
 *           [--ktap FILE]
 *
 * A boot may run several plans one after the other (negative controls
 * share boots so); their steps then go by "PLAN:STEP" in every row and
 * message, so that each plan's own results can be told apart.
 *
 * A run passes only if all of these hold:
 *  - every KTAP document in the log (not only the first; KUnit's "KTAP
 *    version 1" and kselftest's "TAP version 13") is complete and every
 *    test case in it passed or was skipped (6.1's KUnit prints a module's
 *    suites without the top-level header: inside a step, a suite's own
 *    "    KTAP version 1" opens such a document, which the step's end
 *    closes, complete if no suite of it was left open; and it prints a
 *    skipped parameter as "ok" without "# SKIP": a result that follows
 *    the case's own "# case: rcuvet-skip: REASON" line, from rcuvet_skip(),
 *    counts as skipped for REASON);
 *  - every step of the plan began and ended with status 0, and each
 *    "kunit" step printed at least one result;
 *  - /init printed its end marker ("rcuvet: done"): a panic, a hang or a
 *    truncated log never pass, whatever QEMU's exit status was;
 *  - /init counted no errors ("rcuvet: done errors=0") and the console
 *    lost no lines ("** N printk messages dropped **");
 *  - the console holds no kernel report (WARNING, BUG, KASAN, lockdep,
 *    RCU stalls, hung tasks, kmemleak, refcount, ...) except inside an
 *    "rcuvet: expect-splat COUNT TITLE" ... "rcuvet: end-expect" window
 *    (one or more such lines), where every report's title must be one of
 *    the TITLEs and each TITLE must be that of exactly COUNT reports (see
 *    "Reports" below for what a report and its title are; a test's KTAP
 *    diagnostic line, "# ...", is none, even where it quotes one).
 *
 * Each leaf test case becomes a row of the results file; so do three
 * harness checks (boot-complete, plan-complete, kernel-clean), so that the
 * run's "N passed, N failed" counts what made it fail.  Exit status: 0 pass,
 * 1 fail, 2 bad usage.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE 4096
#define MAX_DEPTH 8
#define MAX_ITEMS 256
#define MAX_SHOWN 8

enum status { PASS, FAIL, SKIP };
static const char *const status_name[] = { "pass", "fail", "skip" };

struct item {
	char name[128];		/* as /init names the step */
	char label[256];	/* as rows and messages name it */
	int kunit;		/* must print at least one KTAP result */
	int begun, ended, status, results;
	int unexpected;		/* unexpected reports in this step */
	double t_begin, t_end;
};

static struct item items[MAX_ITEMS];
static int n_items;
static struct item *cur_item;

static FILE *results_out, *ktap_out;
static int counts[3];

/* Each problem fails one of the three harness checks. */
enum check { BOOT, PLAN, CLEAN, N_CHECKS };
static const char *const check_name[] = {
	"boot-complete", "plan-complete", "kernel-clean"
};
static int problems[N_CHECKS];

/* KTAP state: one frame per nesting level of the open document. */
struct frame {
	char name[256];
	int plan;		/* -1: no plan line seen */
	int results, failed_leaves;
	int any_child_failed;
};
static struct {
	int open;
	int headless;		/* 6.1's module output: no top-level header */
	int depth;		/* deepest level seen since its parent's result */
	struct frame f[MAX_DEPTH];
	double t_last;
	char diag[512];		/* first failure diagnostic of the running case */
	char skip[512];		/* the running case's rcuvet_skip() reason */
	char covers[512];	/* API members it says it covers */
	char where[256];
} doc;

static int end_marker;
static double t_now;

static void problem(enum check check, const char *fmt, ...)
{
	va_list ap;

	printf("FAIL: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	problems[check]++;
}

static const char *item_name(void)
{
	return cur_item ? cur_item->label : "boot";
}

static void row(const char *item, const char *test, enum status st,
		double secs, const char *detail, const char *covers)
{
	counts[st]++;
	if (st == FAIL && strcmp(item, "harness"))
		printf("FAIL: %s: test %s failed%s%s\n", item, test,
		       detail && *detail ? ": " : "", detail ? detail : "");
	if (results_out)
		fprintf(results_out, "%s\t%s\t%s\t%.3f\t%s\t%s\n", item, test,
			status_name[st], secs, detail ? detail : "",
			covers ? covers : "");
}

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static int contains_any(const char *line, const char *const *pats)
{
	for (; *pats; pats++)
		if (strstr(line, *pats))
			return 1;
	return 0;
}

/* ---- reports ------------------------------------------------------- */

/*
 * A kernel report (a WARN, a lockdep or KASAN report, a stall...) begins
 * at its title line, the line that says what it is, and owns the lines
 * that follow, up to the next report, "rcuvet:" marker, KTAP result or
 * "---[ end trace ... ]---".  A title line is a line that holds one of the
 * badness substrings below, but for the report's first "Call Trace:" line:
 * it belongs to the report (a second one begins another report).  A WARN()
 * begins one line earlier, at "------------[ cut here ]------------": the
 * lines up to its "WARNING: CPU: ..." title line, such as its "ODEBUG:" or
 * "refcount_t:" message, belong to it.
 *
 * A report's title is its title line without what varies between boots and
 * builds: leading blanks, "CPU: n PID: n " (also "CPU: n UID: n PID: n "),
 * source line numbers (":n" after a .c, .h, .S or .rs file) and symbol
 * offsets ("+0xN/0xN").  So the report that begins
 *   WARNING: CPU: 0 PID: 43 at kernel/rcu/srcutree.c:656 cleanup_srcu_struct+0x1a2/0x1e0
 * has the title "WARNING: at kernel/rcu/srcutree.c cleanup_srcu_struct",
 * and "BUG: KASAN: slab-use-after-free in dev_map_enqueue_multi+0x1c/0x3c0"
 * the title "BUG: KASAN: slab-use-after-free in dev_map_enqueue_multi".
 *
 * A source path is named as in the tree: the build's own prefix, which
 * ccache's base_dir turns into "../../../tree/TAG/" (the kernel objects
 * sit three levels under build/, the trees under build/tree/), is dropped.
 *
 * "expect-splat COUNT TITLE" matches the reports whose title is TITLE
 * (normalized the same way), exactly: a TITLE that is only part of a title
 * matches nothing.  One short form: "WARNING: at FILE" names every WARN()
 * in FILE, whatever function it is in.
 */
static const char *const badness[] = {
	"WARNING:",
	"BUG:",
	"KASAN:",
	"UBSAN:",
	"Oops",
	"kernel BUG at",
	"Kernel panic",
	"general protection fault",
	"Call Trace:",
	"suspicious RCU usage",
	"possible circular locking dependency",
	"possible recursive locking",
	"inconsistent lock state",
	"possible irq lock inversion",
	"bad unlock balance",
	"held lock freed",
	"DEBUG_LOCKS_WARN_ON",
	"trying to register non-static key",
	"detected stall",
	"detected stalls",
	"self-detected stall",
	"kthread starved",
	"blocked for more than",
	"soft lockup",
	"hard LOCKUP",
	"workqueue lockup",
	"new suspected memory leak",
	"unreferenced object",
	"refcount_t:",
	"ODEBUG:",
	"list_add corruption",
	"list_del corruption",
	"unregister_netdevice: waiting for",
	NULL,
};

#define CUT_HERE "------------[ cut here ]------------"
#define CALL_TRACE "Call Trace:"

/* After CUT_HERE, the lines that name the report. */
static const char *const cut_titles[] = {
	"WARNING: CPU: ", "kernel BUG at ", "UBSAN: ", NULL
};

/* Console lines that say lines were lost: the log cannot be judged. */
static const char *const lost_lines[] = {
	"printk messages dropped",
	"output lines suppressed due to ratelimiting",
	NULL,
};

static int starts_any(const char *s, const char *const *prefixes)
{
	for (; *prefixes; prefixes++)
		if (starts(s, *prefixes))
			return 1;
	return 0;
}

/* WORD then digits: the end of the digits, or NULL. */
static const char *skip_number(const char *s, const char *word)
{
	size_t n = strlen(word);

	if (strncmp(s, word, n) || !isdigit((unsigned char)s[n]))
		return NULL;
	for (s += n; isdigit((unsigned char)*s); s++)
		;
	return s;
}

/* "CPU: n [UID: n ]PID: n ": the end of it, or NULL. */
static const char *skip_ids(const char *s)
{
	const char *p = skip_number(s, "CPU: "), *q;

	if (!p)
		return NULL;
	q = skip_number(p, " UID: ");
	p = skip_number(q ? q : p, " PID: ");
	if (!p)
		return NULL;
	return *p == ' ' ? p + 1 : p;
}

/* "+0xN/0xN": the end of it, or NULL. */
static const char *skip_offset(const char *s)
{
	if (!starts(s, "+0x") || !isxdigit((unsigned char)s[3]))
		return NULL;
	for (s += 3; isxdigit((unsigned char)*s); s++)
		;
	if (!starts(s, "/0x") || !isxdigit((unsigned char)s[3]))
		return NULL;
	for (s += 3; isxdigit((unsigned char)*s); s++)
		;
	return s;
}

/* OUT[0..N) ends with the name of a source file. */
static int ends_in_source(const char *out, size_t n)
{
	static const char *const ext[] = { ".c", ".h", ".S", ".rs", NULL };

	for (const char *const *e = ext; *e; e++) {
		size_t len = strlen(*e);

		if (n > len && !strncmp(out + n - len, *e, len))
			return 1;
	}
	return 0;
}

/* LINE is a "Call Trace:" header and nothing else. */
static int is_trace(const char *line)
{
	line += strspn(line, " \t");
	if (!starts(line, CALL_TRACE))
		return 0;
	line += strlen(CALL_TRACE);
	return !line[strspn(line, " \t")];
}

/* S at "../../../tree/TAG/lib/x.c": past the prefix; else NULL. */
static const char *skip_tree_prefix(const char *s)
{
	const char *p = s;

	while (starts(p, "../"))
		p += 3;
	if (p == s || !starts(p, "tree/"))
		return NULL;
	p += strlen("tree/");
	p += strcspn(p, "/ ");
	return *p == '/' ? p + 1 : NULL;
}

static void normalize(const char *s, char *out, size_t size)
{
	size_t n = 0;
	const char *p;

	s += strspn(s, " \t");
	while (*s && n + 1 < size) {
		if ((p = skip_ids(s)) || (p = skip_offset(s)) ||
		    ((!n || out[n - 1] == ' ') && (p = skip_tree_prefix(s)))) {
			s = p;
		} else if (*s == ':' && isdigit((unsigned char)s[1]) &&
			   ends_in_source(out, n)) {
			for (s++; isdigit((unsigned char)*s); s++)
				;
		} else {
			out[n++] = *s++;
		}
	}
	while (n && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
}

/* WANT, a normalized TITLE of expect-splat, names the report TITLE. */
static int title_matches(const char *want, const char *title)
{
	size_t n;

	if (!strcmp(want, title))
		return 1;
	if (!starts(title, "WARNING: at "))
		return 0;
	n = strlen("WARNING: at ");
	n += strcspn(title + n, " ");
	return strlen(want) == n && !strncmp(want, title, n);
}

/*
 * The expected-splat window: one or more "expect-splat COUNT TITLE" lines
 * open it, "end-expect" closes it.
 */
#define MAX_TITLES 8
static struct {
	int open, n;
	int want[MAX_TITLES], seen[MAX_TITLES];
	char title[MAX_TITLES][MAX_LINE];
	char item[256];
} expect;
static int n_unexpected, n_unexpected_boot;

/* The report whose lines the console is printing, if any. */
static struct {
	int open;
	int untitled;		/* began at CUT_HERE, its title line to come */
	int traced;		/* its Call Trace: came */
	char message[MAX_LINE];	/* untitled: its first splat line */
} report;

/* A report began; LINE is its title line. */
static void report_title(const char *line)
{
	char title[MAX_LINE];

	normalize(line, title, sizeof(title));
	for (int i = 0; expect.open && i < expect.n; i++) {
		if (title_matches(expect.title[i], title)) {
			expect.seen[i]++;
			return;
		}
	}
	/* The first few of each step: plans sharing a boot each get theirs. */
	n_unexpected++;
	if ((cur_item ? cur_item->unexpected++ : n_unexpected_boot++) >= MAX_SHOWN)
		return;
	if (expect.open)
		problem(CLEAN, "%s: kernel splat: %s [title '%s', not one the window from %s expects]",
			item_name(), line, title, expect.item);
	else if (strcmp(line, title))
		problem(CLEAN, "%s: kernel splat: %s [title '%s']", item_name(), line, title);
	else
		problem(CLEAN, "%s: kernel splat: %s", item_name(), line);
}

static void report_end(void)
{
	if (report.open && report.untitled)
		report_title(report.message[0] ? report.message : CUT_HERE);
	report.open = 0;
}

static void report_begin(const char *line, int untitled)
{
	report_end();
	report.open = 1;
	report.untitled = untitled;
	report.traced = is_trace(line);
	report.message[0] = '\0';
	if (!untitled)
		report_title(line);
}

static void scan_report(const char *line)
{
	int splat = contains_any(line, badness);

	if (strstr(line, CUT_HERE)) {
		report_begin(line, 1);
	} else if (starts(line, "---[ end trace ")) {
		report_end();
	} else if (report.open && report.untitled) {
		if (starts_any(line, cut_titles) || is_trace(line)) {
			report.untitled = 0;
			report.traced = is_trace(line);
			report_title(starts_any(line, cut_titles) ? line :
				     report.message[0] ? report.message : CUT_HERE);
		} else if (splat && !report.message[0]) {
			snprintf(report.message, sizeof(report.message), "%s", line);
		}
	} else if (report.open && !report.traced && is_trace(line)) {
		report.traced = 1;
	} else if (splat) {
		report_begin(line, 0);
	}
}

/* "expect-splat ARG": ARG is COUNT TITLE. */
static void expect_splat(const char *arg)
{
	char title[MAX_LINE], *end;
	long count = strtol(arg, &end, 10);
	const char *t = end + strspn(end, " ");

	if (!expect.open) {
		expect.open = 1;
		expect.n = 0;
		snprintf(expect.item, sizeof(expect.item), "%s", item_name());
	}
	if (end == arg || *end != ' ' || count < 1 || count > 9999 || !*t) {
		problem(CLEAN, "%s: 'expect-splat %s' is not 'expect-splat COUNT TITLE' (COUNT >= 1)",
			item_name(), arg);
		return;
	}
	normalize(t, title, sizeof(title));
	if (!contains_any(title, badness)) {
		problem(CLEAN, "%s: expect-splat '%s' names no report title (one such as 'WARNING: suspicious RCU usage')",
			item_name(), title);
		return;
	}
	for (int i = 0; i < expect.n; i++) {
		if (!strcmp(expect.title[i], title)) {
			problem(CLEAN, "%s: expect-splat '%s' twice in one window",
				item_name(), title);
			return;
		}
	}
	if (expect.n == MAX_TITLES) {
		problem(CLEAN, "%s: more than %d expect-splat titles in one window",
			item_name(), MAX_TITLES);
		return;
	}
	expect.want[expect.n] = count;
	expect.seen[expect.n] = 0;
	snprintf(expect.title[expect.n], sizeof(expect.title[0]), "%s", title);
	expect.n++;
}

static void end_expect(void)
{
	if (!expect.open)
		problem(CLEAN, "%s: end-expect without expect-splat", item_name());
	for (int i = 0; expect.open && i < expect.n; i++) {
		if (!expect.seen[i])
			problem(CLEAN, "%s: expected splat '%s' did not appear (expected %d)",
				expect.item, expect.title[i], expect.want[i]);
		else if (expect.seen[i] != expect.want[i])
			problem(CLEAN, "%s: expected splat '%s' %d time%s, it appeared %d time%s",
				expect.item, expect.title[i], expect.want[i],
				expect.want[i] == 1 ? "" : "s", expect.seen[i],
				expect.seen[i] == 1 ? "" : "s");
	}
	expect.open = 0;
}

/* ---- KTAP ---------------------------------------------------------- */

static void frame_reset(int level)
{
	struct frame *f = &doc.f[level];

	f->name[0] = '\0';
	f->plan = -1;
	f->results = f->failed_leaves = f->any_child_failed = 0;
}

static void doc_close(const char *why)
{
	int l;

	if (!doc.open)
		return;
	if (why) {
		char path[512] = "";

		for (l = 1; l <= doc.depth && l < MAX_DEPTH; l++) {
			if (!doc.f[l].name[0])
				continue;
			strncat(path, doc.f[l].name, sizeof(path) - strlen(path) - 2);
			strcat(path, ".");
		}
		if (*path)
			path[strlen(path) - 1] = '\0';
		problem(PLAN, "%s: KTAP output stops inside '%s' (%s)", doc.where,
			*path ? path : "its first suite", why);
	}
	doc.open = 0;
}

static void doc_open(void)
{
	int l;

	doc_close("a new document began before it ended");
	doc.open = 1;
	doc.headless = 0;
	doc.depth = 0;
	for (l = 0; l < MAX_DEPTH; l++)
		frame_reset(l);
	doc.t_last = t_now;
	doc.diag[0] = '\0';
	doc.skip[0] = '\0';
	doc.covers[0] = '\0';
	snprintf(doc.where, sizeof(doc.where), "%s", item_name());
}

static void test_path(int level, const char *name, char *out, size_t size)
{
	int l;

	out[0] = '\0';
	for (l = 1; l <= level && l < MAX_DEPTH; l++) {
		if (!doc.f[l].name[0])
			continue;
		strncat(out, doc.f[l].name, size - strlen(out) - 2);
		strcat(out, ".");
	}
	strncat(out, name, size - strlen(out) - 1);
}

static void ktap_result(int level, int ok, const char *rest)
{
	char name[256], path[768];
	struct frame *child = level + 1 < MAX_DEPTH ? &doc.f[level + 1] : NULL;
	int leaf = !child || child->results == 0;
	const char *hash = strstr(rest, " # ");
	int skip = (hash && !strncasecmp(hash + 3, "SKIP", 4)) || doc.skip[0];
	size_t len = hash ? (size_t)(hash - rest) : strlen(rest);
	enum status st;

	/* rest: "N name [# directive]" */
	while (isdigit((unsigned char)*rest)) {
		rest++;
		len--;
	}
	while (*rest == ' ') {
		rest++;
		len--;
	}
	if (len >= sizeof(name))
		len = sizeof(name) - 1;
	memcpy(name, rest, len);
	name[len] = '\0';

	st = !ok ? FAIL : skip ? SKIP : PASS;
	test_path(level, name, path, sizeof(path));

	if (child && child->results && child->plan >= 0 &&
	    child->results != child->plan)
		problem(PLAN, "%s: '%s' planned %d results but printed %d",
			doc.where, path, child->plan, child->results);
	if (leaf) {
		row(doc.where, path, st, t_now - doc.t_last,
		    st == FAIL ? doc.diag : hash ? hash + 3 : doc.skip, doc.covers);
		if (cur_item)
			cur_item->results++;
		doc.f[level].failed_leaves += st == FAIL;
	} else if (st == FAIL && !child->any_child_failed) {
		problem(PLAN, "%s: '%s' reports failure but none of its cases failed",
			doc.where, path);
	}
	if (st == FAIL)
		doc.f[level].any_child_failed = 1;
	doc.f[level].results++;
	report_end();
	if (level + 1 < MAX_DEPTH)
		for (int l = level + 1; l < MAX_DEPTH; l++)
			frame_reset(l);
	doc.depth = level;
	doc.diag[0] = '\0';
	doc.skip[0] = '\0';
	doc.covers[0] = '\0';
	doc.t_last = t_now;

	if (level == 0 && doc.f[0].plan >= 0 && doc.f[0].results >= doc.f[0].plan)
		doc_close(NULL);
}

/* Returns 1 if the line was KTAP. */
static int ktap_line(const char *line)
{
	int spaces = 0, level;
	const char *s = line;

	while (*s == ' ')
		s++, spaces++;
	level = spaces / 4;
	if (level >= MAX_DEPTH)
		return 0;

	/* KUnit prints KTAP version 1; kselftest's ktap_helpers.sh TAP 13. */
	if (!strcmp(s, "KTAP version 1") || !strcmp(s, "TAP version 14") ||
	    !strcmp(s, "TAP version 13")) {
		if (level == 0) {
			doc_open();
		} else if (doc.open) {
			frame_reset(level);
		} else if (level == 1 && cur_item) {
			/* A module's suite on 6.1: no "KTAP version 1" / "1..N" above it. */
			doc_open();
			doc.headless = 1;
			frame_reset(level);
		} else {
			return 0;
		}
		if (doc.open && level > doc.depth)
			doc.depth = level;
		goto ktap;
	}
	if (!doc.open)
		return 0;
	if (starts(s, "# Subtest: ")) {
		snprintf(doc.f[level].name, sizeof(doc.f[level].name), "%s", s + 11);
		if (level > doc.depth)
			doc.depth = level;
		goto ktap;
	}
	if (starts(s, "1..") && isdigit((unsigned char)s[3])) {
		doc.f[level].plan = atoi(s + 3);
		if (level > doc.depth)
			doc.depth = level;
		doc.t_last = t_now;
		if (level == 0 && doc.f[0].plan == 0)
			doc_close(NULL);
		goto ktap;
	}
	if (starts(s, "ok ") && isdigit((unsigned char)s[3])) {
		ktap_result(level, 1, s + 3);
		goto ktap;
	}
	if (starts(s, "not ok ") && isdigit((unsigned char)s[7])) {
		ktap_result(level, 0, s + 7);
		goto ktap;
	}
	if (s[0] == '#' && spaces && strstr(s, ": covers: ")) {
		/* "# case: covers: member..." from rcuvet_covers() */
		const char *c = strstr(s, ": covers: ") + 10;

		if (doc.covers[0])
			strncat(doc.covers, " ", sizeof(doc.covers) - strlen(doc.covers) - 1);
		strncat(doc.covers, c, sizeof(doc.covers) - strlen(doc.covers) - 1);
		goto ktap;
	}
	if (s[0] == '#' && spaces && strstr(s, ": rcuvet-skip: ")) {
		/* "# case: rcuvet-skip: reason" from rcuvet_skip() */
		snprintf(doc.skip, sizeof(doc.skip), "SKIP %s",
			 strstr(s, ": rcuvet-skip: ") + 15);
		goto ktap;
	}
	if (s[0] == '#' && spaces) {
		/* keep the first failure diagnostic of the running case */
		if (!doc.diag[0] && (strstr(s, "FAILED") || strstr(s, "Expected") ||
				     strstr(s, "failed")))
			snprintf(doc.diag, sizeof(doc.diag), "%s", s + 2);
		goto ktap;
	}
	return 0;
ktap:
	if (ktap_out)
		fprintf(ktap_out, "%s\n", line);
	return 1;
}

/* ---- markers from /init and test modules ---------------------------- */

static struct item *find_item(const char *name)
{
	for (int i = 0; i < n_items; i++)
		if (!strcmp(items[i].name, name) && !items[i].ended)
			return &items[i];
	return NULL;
}

static void marker(const char *m)
{
	char name[128];
	int status;

	report_end();
	if (starts(m, "begin ")) {
		struct item *it;

		snprintf(name, sizeof(name), "%s", m + 6);
		it = find_item(name);
		if (!it || it->begun) {
			problem(PLAN, "step '%s' ran but is not (or no longer) in the plan", name);
			return;
		}
		it->begun = 1;
		it->t_begin = t_now;
		cur_item = it;
	} else if (starts(m, "end ") &&
		   sscanf(m + 4, "%127s status=%d", name, &status) == 2) {
		if (!cur_item || strcmp(cur_item->name, name)) {
			problem(PLAN, "end of step '%s' without its begin", name);
			return;
		}
		/* A headless document ends with its step, after a suite's result. */
		doc_close(doc.headless && doc.depth == 0 ? NULL : "the step ended first");
		cur_item->ended = 1;
		cur_item->status = status;
		cur_item->t_end = t_now;
		cur_item = NULL;
	} else if (starts(m, "expect-splat ")) {
		expect_splat(m + 13);
	} else if (!strcmp(m, "end-expect")) {
		end_expect();
	} else if (starts(m, "error: ")) {
		problem(PLAN, "%s: guest reported: %s", item_name(), m + 7);
	} else if (starts(m, "done")) {
		end_marker = 1;
		if (sscanf(m, "done errors=%d", &status) == 1 && status)
			problem(PLAN, "/init counted %d error%s (rcuvet: %s)", status,
				status == 1 ? "" : "s", m);
	}
}

/* ---- input --------------------------------------------------------- */

/*
 * A KTAP diagnostic ("# ..."), a test's own line: never a kernel report,
 * though it may quote one (kselftest-rcutorture quotes the splats it
 * fails a case for).  Lockdep's "#0: ..." lines are the kernel's.
 */
static int is_diagnostic(const char *s)
{
	s += strspn(s, " ");
	return s[0] == '#' && (s[1] == ' ' || !s[1]);
}

/* Strip "[  12.345678] " and remember the time. */
static const char *strip_time(const char *line)
{
	const char *s = line;
	double t;
	int n = 0;

	if (*s != '[')
		return line;
	if (sscanf(s, "[ %lf]%n", &t, &n) == 1 && n > 0) {
		t_now = t;
		s += n;
		if (*s == ' ')
			s++;
		return s;
	}
	return line;
}

/* read_plan: the plan's steps; LABELLED: name them "PLAN:STEP". */
static void read_plan(const char *path, int labelled)
{
	char line[MAX_LINE], kind[32], name[128], plan[96];
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	FILE *f = fopen(path, "r");

	if (!f) {
		perror(path);
		exit(2);
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, " %31s %127s", kind, name) < 1 || kind[0] == '#')
			continue;
		if (!strcmp(kind, "kmemleak-clear") || !strcmp(kind, "kmemleak-scan"))
			snprintf(name, sizeof(name), "%s", kind);
		else if (strcmp(kind, "module") && strcmp(kind, "kunit") &&
			 strcmp(kind, "program"))
			continue;
		if (n_items == MAX_ITEMS) {
			fprintf(stderr, "%s: more than %d steps\n", path, MAX_ITEMS);
			exit(2);
		}
		snprintf(items[n_items].name, sizeof(items[n_items].name), "%s", name);
		snprintf(plan, sizeof(plan), "%.*s", (int)strcspn(base, "."), base);
		snprintf(items[n_items].label, sizeof(items[n_items].label), "%s%s%s",
			 labelled ? plan : "", labelled ? ":" : "", name);
		items[n_items].kunit = !strcmp(kind, "kunit");
		n_items++;
	}
	fclose(f);
}

static void check_items(void)
{
	for (int i = 0; i < n_items; i++) {
		struct item *it = &items[i];

		if (!it->begun) {
			if (end_marker)
				problem(PLAN, "step '%s' never ran", it->label);
		} else if (!it->ended) {
			problem(PLAN, "step '%s' began but never ended (crash or hang in it)",
				it->label);
		} else if (it->status) {
			problem(PLAN, "step '%s' ended with status %d", it->label, it->status);
		} else if (it->kunit && !it->results) {
			problem(PLAN, "step '%s' printed no KTAP results", it->label);
		}
	}
}

static void usage(void)
{
	fprintf(stderr, "usage: verdict --plan PLAN [--plan PLAN...] --console LOG [--results TSV] [--ktap FILE]\n");
	exit(2);
}

static FILE *open_out(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		perror(path);
		exit(2);
	}
	return f;
}

int main(int argc, char **argv)
{
	const char *plans[MAX_ITEMS], *console = NULL;
	int n_plans = 0;
	char line[MAX_LINE];
	FILE *in;

	for (int i = 1; i < argc; i++) {
		if (i + 1 >= argc)
			usage();
		if (!strcmp(argv[i], "--plan") && n_plans < MAX_ITEMS)
			plans[n_plans++] = argv[++i];
		else if (!strcmp(argv[i], "--console"))
			console = argv[++i];
		else if (!strcmp(argv[i], "--results"))
			results_out = open_out(argv[++i]);
		else if (!strcmp(argv[i], "--ktap"))
			ktap_out = open_out(argv[++i]);
		else
			usage();
	}
	if (!n_plans || !console)
		usage();
	for (int i = 0; i < n_plans; i++)
		read_plan(plans[i], n_plans > 1);
	in = fopen(console, "r");
	if (!in) {
		perror(console);
		return 2;
	}

	while (fgets(line, sizeof(line), in)) {
		const char *s;

		line[strcspn(line, "\r\n")] = '\0';
		if (contains_any(line, lost_lines))
			problem(BOOT, "the console lost kernel messages, the log cannot be judged: %s",
				line);
		s = strip_time(line);
		if (starts(s, "rcuvet: ")) {
			marker(s + 8);
			continue;
		}
		if (!is_diagnostic(s))
			scan_report(s);
		ktap_line(s);
	}
	fclose(in);

	if (!end_marker)
		problem(BOOT, "no end marker: the guest panicked, hung or the log is truncated");
	doc_close(end_marker ? "the log ended first" : "the guest died");
	report_end();
	check_items();
	if (expect.open)
		problem(CLEAN, "%s: expect-splat window has no end-expect", expect.item);
	if (n_unexpected > MAX_SHOWN)
		printf("FAIL: ... %d kernel splats in all\n", n_unexpected);

	for (int c = 0; c < N_CHECKS; c++) {
		row("harness", check_name[c], problems[c] ? FAIL : PASS, 0,
		    problems[c] ? "see the verdict's FAIL lines" : "", NULL);
	}
	printf("verdict: %s, %d passed, %d failed, %d skipped\n",
	       counts[FAIL] ? "FAIL" : "PASS", counts[PASS], counts[FAIL],
	       counts[SKIP]);
	return counts[FAIL] ? 1 : 0;
}
