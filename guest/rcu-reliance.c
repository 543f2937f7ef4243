// SPDX-License-Identifier: GPL-2.0
/*
 * rcu-reliance [CHECK...]: copy the kernel's report of RCU readers that
 * rely on flavor consolidation (CONFIG_RCU_CONSOLIDATION_RELIANCE, debugfs
 * rcu/consolidation_reliance) to the log, a line each, prefixed with
 * "rcu-reliance: ".  A report line is "HITS CONTEXT CHECK SITE", SITE
 * being "function+0x../0x.. [module]" (the return address of the check),
 * or "file:function" (a reader marked by rcu_reliance_mark_reader() in
 * built-in code, named as the source names it, whatever was inlined).
 * A CHECK is
 *   SUBSTRING          some site's line contains it;
 *   site NAME          some site is in function NAME: SITE is NAME+0x..,
 *                      NAME.suffix+0x.. (a clone) or FILE:NAME; a NAME
 *                      with a ':' (FILE:FUNCTION) must be SITE, whole;
 *   absent SUBSTRING   no site's line contains it;
 *   absent site NAME   no site is in function NAME (a reader that holds
 *                      rcu_read_lock() relies on nothing);
 *   bh site NAME       a reader that runs with bottom halves disabled:
 *                      "site NAME", but "absent site NAME" on PREEMPT_RT,
 *                      where such a region enters rcu_read_lock() (the
 *                      kernel's version string says PREEMPT_RT;
 *                      RCU_RELIANCE_PREEMPT_RT=0 or 1 says so instead);
 * with checks, only the sites that one of them names are shown.  The
 * report must be there and complete (its "# N sites" line), and without
 * checks must list a site: a step that shows the report expects readers
 * in it.  An absent check also needs a report that lost nothing since
 * the last reset: no hit lost for want of room or because lockdep could
 * not tell, and lockdep still on; else a site may be missing for that
 * reason, and the check fails saying so.  Exit status 1 if any of that
 * does not hold, 2 for bad usage.  "rcu-reliance --reset" forgets the
 * hits and losses so far.  RCU_RELIANCE_REPORT names another file (the
 * host's tests).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#define REPORT "/sys/kernel/debug/rcu/consolidation_reliance"
#define MAX_CHECKS 16

struct check {
	const char *what;
	int absent, site, hits;
};

static const char *report(void)
{
	const char *path = getenv("RCU_RELIANCE_REPORT");

	return path && *path ? path : REPORT;
}

static int reset(void)
{
	FILE *f = fopen(report(), "w");

	if (!f || fputs("0\n", f) < 0 || fclose(f)) {
		printf("rcu-reliance: cannot reset %s\n", report());
		return 1;
	}
	printf("rcu-reliance: reset\n");
	return 0;
}

/* Is this a PREEMPT_RT kernel ("bh" checks above)?  -1: a bad override. */
static int preempt_rt(void)
{
	const char *env = getenv("RCU_RELIANCE_PREEMPT_RT");
	struct utsname u;

	if (env && *env)
		return !strcmp(env, "1") ? 1 : strcmp(env, "0") ? -1 : 0;
	return !uname(&u) && strstr(u.version, "PREEMPT_RT");
}

/* The SITE column of a report line (without its newline), or NULL. */
static const char *site_of(const char *line, size_t *len)
{
	const char *p = line;

	for (int i = 0; i < 3 && p; i++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	if (!p)
		return NULL;
	*len = strcspn(p, "\r\n");
	return p;
}

/* Is the site of @line in function @name (see "site NAME" above)? */
static int in_function(const char *line, const char *name)
{
	size_t len, n = strlen(name);
	const char *site = site_of(line, &len), *c;

	if (!site)
		return 0;
	if (strchr(name, ':'))
		return len == n && !strncmp(site, name, n);
	if (!strncmp(site, name, n) && (site[n] == '+' || site[n] == '.'))
		return 1;
	if (memchr(site, '+', len))
		return 0;
	/* FILE:FUNCTION: the part after the last ':' */
	for (c = site + len; c > site && c[-1] != ':'; c--)
		;
	return c > site && (size_t)(site + len - c) == n && !strncmp(c, name, n);
}

int main(int argc, char **argv)
{
	unsigned long lost = 0, unknown = 0;
	int n = 0, sites = 0, complete = 0, bad = 0, lockdep_off = 0;
	struct check checks[MAX_CHECKS];
	char line[1024];
	FILE *f;

	if (argc == 2 && !strcmp(argv[1], "--reset"))
		return reset();
	for (int i = 1; i < argc; i++) {
		int absent = !strcmp(argv[i], "absent"), site;
		int bh = !absent && !strcmp(argv[i], "bh");

		if ((absent || bh) && ++i == argc)
			goto usage;
		if (bh && strcmp(argv[i], "site"))
			goto usage;
		if (bh && preempt_rt() < 0) {
			printf("rcu-reliance: RCU_RELIANCE_PREEMPT_RT is '%s', not 0 or 1\n",
			       getenv("RCU_RELIANCE_PREEMPT_RT"));
			return 2;
		}
		absent |= bh && preempt_rt();
		site = !strcmp(argv[i], "site");
		if ((site && ++i == argc) || !*argv[i] || n == MAX_CHECKS)
			goto usage;
		checks[n].what = argv[i];
		checks[n].absent = absent;
		checks[n].site = site;
		checks[n].hits = 0;
		n++;
	}
	f = fopen(report(), "r");
	if (!f) {
		printf("rcu-reliance: no %s in this kernel: %s\n", report(), strerror(errno));
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		int shown = !n;

		if (line[0] == '#') {
			unsigned int s, limit;

			if (sscanf(line, "# %u sites (limit %u), %lu hits lost (table full), %lu hits lost",
				   &s, &limit, &lost, &unknown) == 4)
				complete = 1;
			else if (strstr(line, " sites, "))
				complete = 1;	/* a kernel of the first report's format */
			lockdep_off |= !strncmp(line, "# lockdep is off", 16);
			printf("rcu-reliance: %s", line);
			continue;
		}
		sites++;
		for (int c = 0; c < n; c++) {
			if (checks[c].site ? in_function(line, checks[c].what) :
			    !!strstr(line, checks[c].what)) {
				checks[c].hits++;
				shown = 1;
			}
		}
		if (shown)
			printf("rcu-reliance: %s", line);
	}
	if (ferror(f) || !complete) {
		printf("rcu-reliance: %s is empty or was cut short\n", report());
		bad = 1;
	}
	fclose(f);
	if (!n && !sites) {
		printf("rcu-reliance: no site in %s\n", report());
		bad = 1;
	}
	for (int c = 0; c < n; c++) {
		const char *kind = checks[c].site ? "site in function " : "";

		if (checks[c].absent && checks[c].hits) {
			printf("rcu-reliance: %d site(s) matching %s'%s', which must be absent\n",
			       checks[c].hits, kind, checks[c].what);
			bad = 1;
		} else if (checks[c].absent && (lost || unknown || lockdep_off)) {
			printf("rcu-reliance: no site matching %s'%s', but the report is incomplete (%lu hits lost for want of room, %lu with lockdep unsure, lockdep %s): absence unproven\n",
			       kind, checks[c].what, lost, unknown, lockdep_off ? "off" : "on");
			bad = 1;
		} else if (checks[c].absent) {
			printf("rcu-reliance: no site matching %s'%s', as it must be\n",
			       kind, checks[c].what);
		} else {
			printf("rcu-reliance: %d site(s) matching %s'%s'%s\n",
			       checks[c].hits, kind, checks[c].what,
			       !checks[c].hits && (lost || unknown || lockdep_off) ?
			       " (the report is incomplete)" : "");
			bad |= !checks[c].hits;
		}
	}
	return bad;
usage:
	printf("rcu-reliance: usage: rcu-reliance [[absent] [site] STRING | bh site NAME]... (at most %d) | --reset\n",
	       MAX_CHECKS);
	return 2;
}
