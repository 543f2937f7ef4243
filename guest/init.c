// SPDX-License-Identifier: GPL-2.0
/*
 * rcuvet guest /init: run a test plan and end the VM.
 *
 * The host passes the plan's name and the CPU count it asked QEMU for on
 * the kernel command line (rcuvet_plan=NAME rcuvet_cpus=N, which the kernel
 * hands to init as environment variables); NAME+NAME... runs several plans
 * one after the other, each plan's modules unloaded before the next one
 * begins, so that a module may load again with other parameters.  A plan
 * lives in /etc/rcuvet/plans/NAME.plan, one step a line:
 *
 *   module NAME [PARAM=VALUE...]   load /lib/modules/NAME.ko
 *   kunit NAME [PARAM=VALUE...]    the same, for a KUnit test module
 *   program NAME [ARG...]          run /bin/NAME, its output to the log
 *   expect-splat COUNT TITLE       the next steps must splat COUNT reports
 *                                  titled TITLE, and nothing else,
 *   end-expect                     ... and must have done so by now
 *   kmemleak-clear                 forget leaks reported so far
 *   kmemleak-scan                  wait out kmemleak's minimum age, scan
 *   wait-log SECONDS TEXT          wait until the kernel log shows TEXT
 *                                  (after the last step began)
 *   rmmod NAME                     unload a module
 *   sleep SECONDS                  let kthreads a module started settle
 *
 * Booted with rcutree.emulate_unconsolidated=1, a step that loads a module
 * or runs a program before a "program rcu-pin" step has passed is an
 * error ("RCU emulation requirement not met"): without RCU's kthreads
 * pinned to an isolated CPU, the emulation silently waits for readers that
 * disable interrupts or run in handlers (guest/rcu-pin.c checks the rest).
 *
 * Every line this program prints goes through /dev/kmsg, so the host sees
 * it in order with the kernel's own messages and with a timestamp.  The
 * markers it prints ("rcuvet: begin", "rcuvet: end", "rcuvet: done") are
 * the protocol the host's verdict reads; a run without "rcuvet: done" has
 * failed, whatever else it printed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kmsg-lines.h"

#define MAX_ARGS 64

static int errors;

static void say(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	log_line("rcuvet: ", buf);
}

static void guest_error(const char *fmt, ...)
{
	char buf[900];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	say("error: %s", buf);
	errors++;
}

static void mount_fs(const char *type, const char *dir)
{
	mkdir(dir, 0755);
	if (mount(type, dir, type, 0, NULL) && errno != EBUSY)
		guest_error("cannot mount %s on %s: %s", type, dir, strerror(errno));
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	int ret = 0;

	if (fd < 0 || write(fd, text, strlen(text)) < 0)
		ret = -errno;
	if (fd >= 0)
		close(fd);
	return ret;
}

static void check_cpus(void)
{
	const char *want_s = getenv("rcuvet_cpus");
	long have = sysconf(_SC_NPROCESSORS_ONLN);
	long want = want_s ? atol(want_s) : 1;

	say("cpus online=%ld want=%ld", have, want);
	if (have < want)
		guest_error("only %ld of %ld CPUs are online: cross-CPU tests would %s",
		      have, want, "pass trivially");
}

static int run_module(char **argv)
{
	char path[256], params[1024] = "";
	int fd, i;

	snprintf(path, sizeof(path), "/lib/modules/%s.ko", argv[0]);
	for (i = 1; argv[i]; i++) {
		strncat(params, argv[i], sizeof(params) - strlen(params) - 2);
		strcat(params, " ");
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		guest_error("module %s: cannot open %s: %s", argv[0], path, strerror(errno));
		return -errno;
	}
	if (syscall(SYS_finit_module, fd, params, 0)) {
		int err = errno;

		close(fd);
		guest_error("module %s: finit_module: %s", argv[0], strerror(err));
		return -err;
	}
	close(fd);
	return 0;
}

static int run_program(char **argv)
{
	char path[256];
	int pipefd[2], status;
	pid_t pid;

	snprintf(path, sizeof(path), "/bin/%s", argv[0]);
	if (pipe(pipefd)) {
		guest_error("program %s: pipe: %s", argv[0], strerror(errno));
		return -errno;
	}
	pid = fork();
	if (pid == 0) {
		dup2(pipefd[1], 1);
		dup2(pipefd[1], 2);
		close(pipefd[0]);
		close(pipefd[1]);
		execv(path, argv);
		fprintf(stderr, "rcuvet: error: cannot run %s: %s\n", path,
			strerror(errno));
		_exit(127);
	}
	close(pipefd[1]);
	if (pid < 0) {
		close(pipefd[0]);
		guest_error("program %s: fork: %s", argv[0], strerror(errno));
		return -errno;
	}
	forward_lines(pipefd[0], "");
	close(pipefd[0]);
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	if (WIFSIGNALED(status)) {
		guest_error("program %s: killed by signal %d", argv[0], WTERMSIG(status));
		return 128 + WTERMSIG(status);
	}
	if (WEXITSTATUS(status))
		guest_error("program %s: exit status %d", argv[0], WEXITSTATUS(status));
	return WEXITSTATUS(status);
}

/*
 * Wait until a kernel log record printed after the last "rcuvet: begin"
 * marker contains text: modules such as refscale run their tests in
 * kthreads and report long after their init returned.
 */
static void wait_log(int seconds, const char *text)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	int waited = 0, found = 0;
	char rec[2048];
	ssize_t n;

	if (fd < 0) {
		guest_error("wait-log: cannot read /dev/kmsg: %s", strerror(errno));
		return;
	}
	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n > 0) {
			rec[n] = '\0';
			if (strstr(rec, "rcuvet: begin "))
				found = 0;	/* only what the last step printed */
			else if (strstr(rec, text))
				found = 1;
			continue;
		}
		if (n < 0 && errno == EPIPE)
			continue;	/* records overwritten: read on */
		if (found)
			break;
		if (waited++ >= seconds) {
			guest_error("wait-log: '%s' not in the log within %d s", text, seconds);
			break;
		}
		sleep(1);
	}
	close(fd);
}

static void unload_module(const char *name)
{
	if (syscall(SYS_delete_module, name, O_NONBLOCK))
		guest_error("rmmod %s: %s", name, strerror(errno));
}

/* The modules the running plan loaded, for unload_plan_modules(). */
#define MAX_MODULES 64
static char loaded[MAX_MODULES][64];
static int n_loaded;

static void unload_plan_modules(void)
{
	while (n_loaded > 0)
		unload_module(loaded[--n_loaded]);
}

#define KMEMLEAK "/sys/kernel/debug/kmemleak"

static void kmemleak_step(const char *what)
{
	int fd, err;

	if (access(KMEMLEAK, F_OK)) {
		say("kmemleak: not in this kernel, %s skipped", what);
		return;
	}
	if (!strcmp(what, "scan")) {
		/* Objects younger than 5 s are never reported. */
		sleep(6);
		err = write_file(KMEMLEAK, "scan");
	} else {
		err = write_file(KMEMLEAK, "scan");
		if (!err)
			err = write_file(KMEMLEAK, "clear");
	}
	if (err) {
		guest_error("kmemleak %s: %s", what, strerror(-err));
		return;
	}
	fd = open(KMEMLEAK, O_RDONLY);
	if (fd >= 0) {
		forward_lines(fd, "kmemleak: ");
		close(fd);
	}
}

/* Split a plan line into words; returns the word count. */
/*
 * The v4.19 grace-period emulation (kernel/patches/0001-*): on, and has
 * a "program rcu-pin" step passed yet?  Said once when a step comes first.
 */
static int emulating, emulation_pinned, emulation_said;

static void check_emulation_boot(void)
{
	char buf[8] = "";
	int fd = open("/sys/module/rcutree/parameters/emulate_unconsolidated", O_RDONLY);

	if (fd < 0)
		return;
	if (read(fd, buf, sizeof(buf) - 1) > 0 && buf[0] == 'Y')
		emulating = 1;
	close(fd);
	if (emulating)
		say("rcu emulation on: plans must start with 'program rcu-pin CPU'");
}

/* check_emulation_step KIND NAME: before a module or program runs. */
static void check_emulation_step(const char *kind, const char *name)
{
	if (!emulating || emulation_pinned || emulation_said)
		return;
	if (!strcmp(kind, "program") && !strcmp(name, "rcu-pin"))
		return;
	emulation_said = 1;
	guest_error("RCU emulation requirement not met: %s %s runs before a passing 'program rcu-pin CPU' (RCU's kthreads on an isolated CPU, rcutree.jiffies_till_first_fqs=0, timer migration off): readers that disable irqs or run in handlers may be waited for (docs/emulate-4.19.md)",
		    kind, name);
}

/* emulation_step_done KIND NAME STATUS: after a step. */
static void emulation_step_done(const char *kind, const char *name, int status)
{
	if (!emulating || strcmp(kind, "program") || strcmp(name, "rcu-pin"))
		return;
	if (!status)
		emulation_pinned = 1;
	else
		guest_error("RCU emulation requirement not met: rcu-pin failed (status %d; its lines above say why)",
			    status);
}

static int split(char *line, char **argv)
{
	int argc = 0;
	char *tok, *save;

	for (tok = strtok_r(line, " \t\n", &save); tok && argc < MAX_ARGS - 1;
	     tok = strtok_r(NULL, " \t\n", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	return argc;
}

static void run_step(char *line)
{
	char *argv[MAX_ARGS];
	char *rest = line + strspn(line, " \t");
	int status, seconds, text = 0;

	rest[strcspn(rest, "\n")] = '\0';
	if (!*rest || *rest == '#')
		return;
	if (!strncmp(rest, "expect-splat ", 13)) {
		say("expect-splat %s", rest + 13);
		return;
	}
	if (sscanf(rest, "wait-log %d %n", &seconds, &text) == 1 && rest[text]) {
		wait_log(seconds, rest + text);
		return;
	}
	if (split(rest, argv) < 1)
		return;
	if (!strcmp(argv[0], "end-expect")) {
		say("end-expect");
	} else if (!strcmp(argv[0], "rmmod") && argv[1]) {
		unload_module(argv[1]);
	} else if (!strcmp(argv[0], "sleep") && argv[1]) {
		sleep(atoi(argv[1]));
	} else if (!strcmp(argv[0], "kmemleak-clear") ||
		   !strcmp(argv[0], "kmemleak-scan")) {
		say("begin %s", argv[0]);
		kmemleak_step(argv[0] + 9);
		say("end %s status=0", argv[0]);
	} else if (argv[1] && (!strcmp(argv[0], "module") ||
			       !strcmp(argv[0], "kunit") ||
			       !strcmp(argv[0], "program"))) {
		check_emulation_step(argv[0], argv[1]);
		say("begin %s", argv[1]);
		if (strcmp(argv[0], "program")) {
			status = run_module(argv + 1);
			if (!status && n_loaded < MAX_MODULES)
				snprintf(loaded[n_loaded++], sizeof(loaded[0]), "%s", argv[1]);
		} else
			status = run_program(argv + 1);
		say("end %s status=%d", argv[1], status);
		emulation_step_done(argv[0], argv[1], status);
	} else {
		guest_error("plan: cannot read step '%s'", argv[0]);
	}
}

static void run_plan(const char *name)
{
	char path[256], line[1024];
	FILE *plan;

	snprintf(path, sizeof(path), "/etc/rcuvet/plans/%s.plan", name);
	plan = fopen(path, "r");
	if (!plan) {
		guest_error("no plan '%s' in this initramfs (%s)", name, strerror(errno));
		return;
	}
	say("plan %s", name);
	while (fgets(line, sizeof(line), plan))
		run_step(line);
	fclose(plan);
}

/* The pid of the task named COMM (a kthread's name), or -1. */
static int find_task(const char *comm)
{
	char path[64], name[64];
	struct dirent *de;
	int pid = -1;
	DIR *proc;
	FILE *f;

	proc = opendir("/proc");
	if (!proc)
		return -1;
	while (pid < 0 && (de = readdir(proc))) {
		int n = atoi(de->d_name);

		if (n <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/comm", n);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(name, sizeof(name), f)) {
			name[strcspn(name, "\n")] = '\0';
			if (!strcmp(name, comm))
				pid = n;
		}
		fclose(f);
	}
	closedir(proc);
	return pid;
}

/*
 * Task PID's state letter and how many times it has gone to sleep (its
 * voluntary context switches), from one read of its status; -1 if gone.
 */
static int task_sleeps(int pid, char *state, long *sleeps)
{
	char path[64], line[128];
	int got = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (got < 2 && fgets(line, sizeof(line), f)) {
		got += sscanf(line, "State: %c", state) == 1;
		got += sscanf(line, "voluntary_ctxt_switches: %ld", sleeps) == 1;
	}
	fclose(f);
	return got == 2 ? 0 : -1;
}

/*
 * On PREEMPT_RT a legacy console such as ttyS0 is printed only by the
 * "pr/legacy" kthread, woken through an irq_work after a record is stored,
 * and kernel_restart() does not wait for it (kernel_power_off() does, but
 * microvm cannot power off): rebooting right after the end marker lost
 * the marker (perf-rt, docs/bench.md).  The kthread waits for work in
 * state S, and only when it found no record left to print (it waits for
 * its locks in state D), so once it is back there after a sleep that
 * began after the marker was stored (and, ending with its newline,
 * closed: log_line()), the marker is out.  A record at debug level,
 * which the console does not show, wakes it once more, so that it sleeps
 * again even if it printed the marker before we looked.  Ten seconds at
 * most: a marker still lost fails the run, as it should.  Kernels that
 * print from printk() itself have no such kthread.
 */
static void wait_for_console_printer(void)
{
	int pid = find_task("pr/legacy"), i;
	long sleeps, now;
	char state;

	if (pid < 0 || task_sleeps(pid, &state, &sleeps))
		return;
	log_line("<7>", "init: waking the console printer before the reboot");
	for (i = 0; i < 1000; i++) {
		usleep(10000);
		if (task_sleeps(pid, &state, &now) || (now > sleeps && state == 'S'))
			return;
	}
}

int main(void)
{
	char plans[1024], *plan, *next;

	mount_fs("proc", "/proc");
	mount_fs("sysfs", "/sys");
	mount_fs("devtmpfs", "/dev");
	mount_fs("debugfs", "/sys/kernel/debug");
	mount_fs("tmpfs", "/tmp");
	kmsg = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	setenv("PATH", "/bin:/sbin", 1);

	check_cpus();
	check_emulation_boot();
	snprintf(plans, sizeof(plans), "%s",
		 getenv("rcuvet_plan") ? getenv("rcuvet_plan") : "default");
	for (plan = strtok_r(plans, "+", &next); plan; plan = strtok_r(NULL, "+", &next)) {
		run_plan(plan);
		if (next && *next)
			unload_plan_modules();
	}
	say("done errors=%d", errors);
	wait_for_console_printer();
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
