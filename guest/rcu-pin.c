// SPDX-License-Identifier: GPL-2.0
/*
 * rcu-pin CPU: pin RCU's grace-period kthreads (rcu_preempt or rcu_sched,
 * and the expedited grace-period kthread workers rcu_exp_*) to CPU.
 *
 * A reader that disables interrupts or runs in a softirq handler on the
 * reader's CPU also stops any RCU kthread, timer or work item queued on
 * that CPU, so a grace period would wait for it whatever RCU's rules.
 * Pinning the grace-period machinery to the updater's CPU, as on a large
 * machine where the reader's CPU is one of many, leaves only RCU's rules
 * to decide whether the grace period waits for the reader.  Exit status 1
 * if no grace-period kthread was found or one could not be pinned.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_gp_kthread(const char *comm)
{
	return !strcmp(comm, "rcu_preempt") || !strcmp(comm, "rcu_sched") ||
	       !strncmp(comm, "rcu_exp_", 8);
}

int main(int argc, char **argv)
{
	char path[64], comm[64];
	int cpu, pinned = 0, bad = 0;
	struct dirent *de;
	cpu_set_t set;
	DIR *proc;
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: rcu-pin CPU\n");
		return 2;
	}
	cpu = atoi(argv[1]);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	proc = opendir("/proc");
	if (!proc) {
		perror("rcu-pin: /proc");
		return 1;
	}
	while ((de = readdir(proc))) {
		int pid = atoi(de->d_name);

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/comm", pid);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(comm, sizeof(comm), f))
			comm[0] = '\0';
		fclose(f);
		comm[strcspn(comm, "\n")] = '\0';
		if (!is_gp_kthread(comm))
			continue;
		if (sched_setaffinity(pid, sizeof(set), &set)) {
			printf("rcu-pin: cannot pin %s (pid %d) to CPU %d: %m\n", comm, pid, cpu);
			bad++;
		} else {
			printf("rcu-pin: %s (pid %d) on CPU %d\n", comm, pid, cpu);
			pinned++;
		}
	}
	closedir(proc);
	return !pinned || bad;
}
