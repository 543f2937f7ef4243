// SPDX-License-Identifier: GPL-2.0
/*
 * rcu-reliance [CHECK...]: copy the kernel's report of RCU readers that
 * rely on flavor consolidation (CONFIG_RCU_CONSOLIDATION_RELIANCE, debugfs
 * rcu/consolidation_reliance) to the log, a line each, prefixed with
 * "rcu-reliance: ".  A CHECK is
 *   SUBSTRING          some site's line contains it;
 *   absent SUBSTRING   no site's line does (a reader that holds
 *                      rcu_read_lock() relies on nothing);
 * with checks, only the sites that one of them names are shown.  The
 * report must be there and complete (its "# N sites" line), and without
 * checks must list a site: a step that shows the report expects readers
 * in it.  Exit status 1 if any of that does not hold, 2 for bad usage.
 * "rcu-reliance --reset" forgets the hits so far.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#define REPORT "/sys/kernel/debug/rcu/consolidation_reliance"
#define MAX_CHECKS 16

struct check {
	const char *site;
	int absent, hits;
};

static int reset(void)
{
	FILE *f = fopen(REPORT, "w");

	if (!f || fputs("0\n", f) < 0 || fclose(f)) {
		printf("rcu-reliance: cannot reset %s\n", REPORT);
		return 1;
	}
	printf("rcu-reliance: reset\n");
	return 0;
}

int main(int argc, char **argv)
{
	struct check checks[MAX_CHECKS];
	int n = 0, sites = 0, complete = 0, bad = 0;
	char line[1024];
	FILE *f;

	if (argc == 2 && !strcmp(argv[1], "--reset"))
		return reset();
	for (int i = 1; i < argc; i++) {
		int absent = !strcmp(argv[i], "absent");

		if ((absent && ++i == argc) || !*argv[i] || n == MAX_CHECKS) {
			printf("rcu-reliance: usage: rcu-reliance [[absent] SUBSTRING]... (at most %d)\n",
			       MAX_CHECKS);
			return 2;
		}
		checks[n].site = argv[i];
		checks[n].absent = absent;
		checks[n].hits = 0;
		n++;
	}
	f = fopen(REPORT, "r");
	if (!f) {
		printf("rcu-reliance: no %s in this kernel: %s\n", REPORT, strerror(errno));
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		int shown = !n;

		if (line[0] == '#') {
			complete |= !strncmp(line, "# ", 2) && strstr(line, " sites, ");
			printf("rcu-reliance: %s", line);
			continue;
		}
		sites++;
		for (int c = 0; c < n; c++) {
			if (strstr(line, checks[c].site)) {
				checks[c].hits++;
				shown = 1;
			}
		}
		if (shown)
			printf("rcu-reliance: %s", line);
	}
	if (ferror(f) || !complete) {
		printf("rcu-reliance: %s is empty or was cut short\n", REPORT);
		bad = 1;
	}
	fclose(f);
	if (!n && !sites) {
		printf("rcu-reliance: no site in %s\n", REPORT);
		bad = 1;
	}
	for (int c = 0; c < n; c++) {
		if (checks[c].absent && checks[c].hits) {
			printf("rcu-reliance: %d site(s) matching '%s', which must be absent\n",
			       checks[c].hits, checks[c].site);
			bad = 1;
		} else if (checks[c].absent) {
			printf("rcu-reliance: no site matching '%s', as it must be\n",
			       checks[c].site);
		} else {
			printf("rcu-reliance: %d site(s) matching '%s'\n",
			       checks[c].hits, checks[c].site);
			bad |= !checks[c].hits;
		}
	}
	return bad;
}
