// SPDX-License-Identifier: GPL-2.0
/*
 * rcu-reliance [SUBSTRING]: copy the kernel's report of RCU readers that
 * rely on flavor consolidation (CONFIG_RCU_CONSOLIDATION_RELIANCE, debugfs
 * rcu/consolidation_reliance) to the log, a line each, prefixed with
 * "rcu-reliance: ".  With SUBSTRING, only the sites whose line contains
 * it, and it is an error if there is none.  "rcu-reliance --reset"
 * forgets the hits so far.  A kernel without the report is not an error
 * (nothing to show), except when a SUBSTRING was asked for.
 */
#include <stdio.h>
#include <string.h>

#define REPORT "/sys/kernel/debug/rcu/consolidation_reliance"

int main(int argc, char **argv)
{
	const char *want = argc > 1 ? argv[1] : NULL;
	char line[1024];
	int sites = 0;
	FILE *f;

	if (want && !strcmp(want, "--reset")) {
		f = fopen(REPORT, "w");
		if (!f || fputs("0\n", f) < 0 || fclose(f)) {
			printf("rcu-reliance: cannot reset %s\n", REPORT);
			return 1;
		}
		printf("rcu-reliance: reset\n");
		return 0;
	}
	f = fopen(REPORT, "r");
	if (!f) {
		printf("rcu-reliance: no %s in this kernel\n", REPORT);
		return want ? 1 : 0;
	}
	while (fgets(line, sizeof(line), f)) {
		if (line[0] != '#' && want && !strstr(line, want))
			continue;
		if (line[0] != '#')
			sites++;
		printf("rcu-reliance: %s", line);
	}
	fclose(f);
	if (want) {
		printf("rcu-reliance: %d site(s) matching '%s'\n", sites, want);
		return sites ? 0 : 1;
	}
	return 0;
}
