// SPDX-License-Identifier: GPL-2.0
/*
 * rcu-pin CPU|isolated: pin RCU's grace-period kthreads (rcu_preempt or
 * rcu_sched, and the expedited grace-period kthread workers rcu_exp_*) to
 * CPU, or to the first CPU of /sys/devices/system/cpu/isolated.
 *
 * A reader that disables interrupts or runs in a softirq handler on the
 * reader's CPU also stops any RCU kthread, timer or work item queued on
 * that CPU, so a grace period would wait for it whatever RCU's rules.
 * Pinning the grace-period machinery to the updater's CPU, as on a large
 * machine where the reader's CPU is one of many, leaves only RCU's rules
 * to decide whether the grace period waits for the reader.  Exit status 1
 * if no grace-period kthread was found or one could not be pinned.
 *
 * Booted with rcutree.emulate_unconsolidated=1 (kernel/patches/0001-*),
 * grace periods skip readers that disable interrupts or run in handlers
 * only while that machinery runs on other CPUs than the readers' (see
 * "What the remote reports need" in docs/emulate-4.19.md); otherwise they
 * silently wait for them, as consolidated ones do.  So in that mode this
 * program also checks, after pinning, what the kernel cannot: the CPU is
 * isolated (isolcpus=, no other task is moved there), the first
 * force-quiescent-state scan of a grace period does not wait
 * (rcutree.jiffies_till_first_fqs=0), timers do not migrate
 * (kernel.timer_migration=0), rcu_preempt and rcu_exp_gp_kthread_worker
 * exist and each pinned kthread may run on that CPU only.  It prints
 * "rcu-pin: RCU emulation requirement not met: WHAT" for each that does
 * not hold and exits with status 3; guest/init.c then fails the run.
 * It then waits for a normal grace period (membarrier(), which calls
 * synchronize_rcu()), at whose start the kernel names rcu_preempt's CPUs.
 * "isolated" with no isolated CPU pins nothing and exits 0 when the
 * emulation is off, so that a plan run on both kinds of boot can use it.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#define EMULATE "/sys/module/rcutree/parameters/emulate_unconsolidated"
#define FIRST_FQS "/sys/module/rcutree/parameters/jiffies_till_first_fqs"
#define ISOLATED "/sys/devices/system/cpu/isolated"
#define TIMER_MIGRATION "/proc/sys/kernel/timer_migration"

static int is_gp_kthread(const char *comm)
{
	return !strcmp(comm, "rcu_preempt") || !strcmp(comm, "rcu_sched") ||
	       !strncmp(comm, "rcu_exp_", 8);
}

/* read_line PATH BUF: the file's first line without its newline, or -1. */
static int read_line(const char *path, char *buf, int size)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (!fgets(buf, size, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* in_cpulist LIST CPU: CPU is in LIST ("0-1,3"). */
static int in_cpulist(const char *list, int cpu)
{
	const char *p = list;

	while (*p) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;

		if (end == p)
			return 0;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		if (cpu >= lo && cpu <= hi)
			return 1;
		p = *end == ',' ? end + 1 : end;
		if (*end != ',')
			break;
	}
	return 0;
}

static int unmet;

static void not_met(const char *what)
{
	printf("rcu-pin: RCU emulation requirement not met: %s\n", what);
	unmet++;
}

/* check_emulation CPU PINNED_GP PINNED_EXP: the conditions above. */
static void check_emulation(int cpu, int gp, int exp)
{
	char buf[256], msg[512];

	if (read_line(FIRST_FQS, buf, sizeof(buf)) || strcmp(buf, "0")) {
		snprintf(msg, sizeof(msg),
			 "rcutree.jiffies_till_first_fqs is '%s', not 0: the first force-quiescent-state scan of a grace period waits for a timer",
			 buf);
		not_met(msg);
	}
	if (read_line(ISOLATED, buf, sizeof(buf)) || !in_cpulist(buf, cpu)) {
		snprintf(msg, sizeof(msg),
			 "CPU %d is not isolated (isolated: '%s'): boot with isolcpus=%d so that no other task runs beside RCU's kthreads",
			 cpu, buf, cpu);
		not_met(msg);
	}
	if (!read_line(TIMER_MIGRATION, buf, sizeof(buf)) && strcmp(buf, "0"))
		not_met("kernel.timer_migration is not 0: another CPU, a reader's, may have to expire the timers of RCU's kthreads");
	if (!gp)
		not_met("no rcu_preempt kthread was pinned");
	if (!exp)
		not_met("no rcu_exp_gp_kthread_worker was pinned");
}

int main(int argc, char **argv)
{
	char path[64], comm[64], buf[256];
	int cpu, pinned = 0, bad = 0, gp = 0, exp = 0, emulating;
	struct dirent *de;
	cpu_set_t set, got;
	DIR *proc;

	if (argc != 2) {
		fprintf(stderr, "usage: rcu-pin CPU|isolated\n");
		return 2;
	}
	emulating = !read_line(EMULATE, buf, sizeof(buf)) && buf[0] == 'Y';
	if (!strcmp(argv[1], "isolated")) {
		if (read_line(ISOLATED, buf, sizeof(buf)) || !buf[0]) {
			if (!emulating) {
				printf("rcu-pin: no isolated CPU and no RCU emulation: nothing pinned\n");
				return 0;
			}
			not_met("no isolated CPU (isolcpus=) to pin RCU's kthreads to");
			return 3;
		}
		cpu = atoi(buf);
	} else {
		cpu = atoi(argv[1]);
	}
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
		if (read_line(path, comm, sizeof(comm)) || !is_gp_kthread(comm))
			continue;
		if (sched_setaffinity(pid, sizeof(set), &set)) {
			printf("rcu-pin: cannot pin %s (pid %d) to CPU %d: %m\n", comm, pid, cpu);
			bad++;
			continue;
		}
		/* Read it back: the kernel may narrow or refuse silently. */
		if (sched_getaffinity(pid, sizeof(got), &got) || !CPU_EQUAL(&set, &got)) {
			printf("rcu-pin: %s (pid %d) may run on other CPUs than %d after pinning\n",
			       comm, pid, cpu);
			bad++;
			continue;
		}
		printf("rcu-pin: %s (pid %d) on CPU %d\n", comm, pid, cpu);
		pinned++;
		gp |= !strcmp(comm, "rcu_preempt");
		exp |= !strncmp(comm, "rcu_exp_gp_", 11);
	}
	closedir(proc);
	if (emulating) {
		/*
		 * A normal grace period (synchronize_rcu()), so that the kernel
		 * names the CPUs rcu_preempt now runs on (plans wait-log for it).
		 */
		if (syscall(__NR_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0))
			printf("rcu-pin: membarrier(MEMBARRIER_CMD_GLOBAL): %m\n");
		if (bad)
			not_met("some of RCU's grace-period kthreads are not pinned (above)");
		check_emulation(cpu, gp, exp);
		if (!unmet)
			printf("rcu-pin: RCU emulation requirements met: rcu_preempt and rcu_exp_* on isolated CPU %d, rcutree.jiffies_till_first_fqs=0, timer migration off\n",
			       cpu);
	}
	if (unmet)
		return 3;
	return !pinned || bad;
}
