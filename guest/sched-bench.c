// SPDX-License-Identifier: GPL-2.0
/*
 * sched-bench [-n SCALE] [MEASURE...]: what an inlined rcu_read_lock()
 * (CONFIG_RCU_INLINE_READ_LOCK) changes at system level, measured from
 * user space.  The process pins itself to CPU 0 first.  Each MEASURE
 * (all four when none is named) runs once to warm up (a tenth of its
 * loops: TCG translates the code on first use), then RUNS times, and
 * prints one line:
 *
 *   sched-bench: NAME median_ns=M min_ns=LO max_ns=HI runs=11 loops=N
 *
 * the nanoseconds per operation of the median, fastest and slowest run.
 * The measures:
 *
 *   ctxsw    a pipe ping-pong between this process and a child, both on
 *            CPU 0 (the child inherits the affinity): N round trips, each
 *            two context switches, one each way; ns per switch.  What
 *            the context switch pays to save and load the reader nesting
 *            depth, with the pipes' read() and write() included.
 *   getppid  N getppid() calls: kernel/sys.c takes rcu_read_lock() around
 *            rcu_dereference(current->real_parent), and task_tgid_vnr()'s
 *            __task_pid_nr_ns() (kernel/pid.c) a nested one: two reader
 *            pairs a call, one of them outermost.
 *   stat     N stat("/") calls (glibc: newfstatat(AT_FDCWD, "/")):
 *            filename_lookup() walks the path under RCU first (fs/namei.c,
 *            path_init() takes rcu_read_lock(), leave_rcu() drops it).
 *   getuid   N getuid() calls, the baseline: a system call that takes no
 *            RCU reader.  kernel/sys.c's getuid() is
 *            from_kuid_munged(current_user_ns(), current_uid()):
 *            current_cred() is rcu_dereference_protected() (no reader),
 *            and from_kuid() is a plain read without USER_NS, map_id_up()
 *            (smp_rmb(), no reader) with it.  Not getpid(): it is
 *            task_tgid_vnr(), whose __task_pid_nr_ns() takes
 *            rcu_read_lock().  Not close(-1): file_close_fd() takes
 *            files->file_lock, and PREEMPT_RT's spin_lock() takes
 *            rcu_read_lock().
 *
 * (Read in 6.12.118.)  Under QEMU TCG a system call costs some 2-5 us and
 * a context switch 20-40 us, so at SCALE 1 (the default) the whole takes
 * some 20-40 s; -n SCALE multiplies every loop count (-n 0.01 for a
 * smoke run).  The system calls go through syscall(2), never a value
 * that glibc could cache.  Exit status 1 if a system call failed (each
 * failure says which, "sched-bench: error: WHAT: REASON"; the other
 * measures still run), 2 for bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RUNS 11

struct measure {
	const char *name;
	long loops;		/* at SCALE 1 */
	int ops;		/* operations a loop: context switches, calls */
	long nr;		/* the system call of syscall_run() */
	int (*start)(void);
	int (*run)(const struct measure *m, long loops);
	int (*stop)(void);
};

/* fail FORMAT...: say what failed and why (errno); -1. */
static int fail(const char *fmt, ...)
{
	char what[128];
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	fprintf(stderr, "sched-bench: error: %s: %s\n", what, strerror(err));
	return -1;
}

static int ping[2] = { -1, -1 }, pong[2] = { -1, -1 };
static pid_t child = -1;

/* The child's half of the ping-pong: echo each byte until end of file. */
static void echo_bytes(void)
{
	ssize_t n;
	char c;

	close(ping[1]);
	close(pong[0]);
	while ((n = read(ping[0], &c, 1)) == 1) {
		if (write(pong[1], &c, 1) != 1) {
			fail("ctxsw: the child's write");
			_exit(1);
		}
	}
	if (n < 0) {
		fail("ctxsw: the child's read");
		_exit(1);
	}
	_exit(0);
}

static int ctxsw_start(void)
{
	if (pipe(ping) || pipe(pong))
		return fail("ctxsw: pipe");
	fflush(stdout);		/* nothing buffered for the child to repeat */
	child = fork();
	if (child < 0)
		return fail("ctxsw: fork");
	if (!child)
		echo_bytes();
	close(ping[0]);
	close(pong[1]);
	return 0;
}

static int ctxsw_run(const struct measure *m, long loops)
{
	char c = 'x';
	ssize_t n;

	for (long i = 0; i < loops; i++) {
		if (write(ping[1], &c, 1) != 1)
			return fail("%s: write", m->name);
		n = read(pong[0], &c, 1);
		if (n == 0) {
			errno = EPIPE;
			return fail("%s: read (the child is gone)", m->name);
		}
		if (n != 1)
			return fail("%s: read", m->name);
	}
	return 0;
}

/* End of file to the child, which exits; its exit status is checked. */
static int ctxsw_stop(void)
{
	int status;

	close(ping[1]);
	close(pong[0]);
	if (child <= 0)
		return 0;
	if (waitpid(child, &status, 0) < 0)
		return fail("ctxsw: waitpid");
	child = -1;
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "sched-bench: error: ctxsw: the child was killed by signal %d\n",
			WTERMSIG(status));
		return -1;
	}
	if (WEXITSTATUS(status)) {
		fprintf(stderr, "sched-bench: error: ctxsw: the child's exit status is %d\n",
			WEXITSTATUS(status));
		return -1;
	}
	return 0;
}

/* A system call without arguments, made directly: nothing cached. */
static int syscall_run(const struct measure *m, long loops)
{
	for (long i = 0; i < loops; i++)
		if (syscall(m->nr) < 0)
			return fail("%s", m->name);
	return 0;
}

static int stat_run(const struct measure *m, long loops)
{
	struct stat st;

	for (long i = 0; i < loops; i++)
		if (stat("/", &st))
			return fail("%s(\"/\")", m->name);
	return 0;
}

static const struct measure measures[] = {
	{ "ctxsw", 10000, 2, 0, ctxsw_start, ctxsw_run, ctxsw_stop },
	{ "getppid", 150000, 1, SYS_getppid, NULL, syscall_run, NULL },
	{ "stat", 30000, 1, 0, NULL, stat_run, NULL },
	{ "getuid", 150000, 1, SYS_getuid, NULL, syscall_run, NULL },
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NR_MEASURES ARRAY_SIZE(measures)

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* bench MEASURE SCALE: its warm-up, its runs and its line; 0 or -1. */
static int bench(const struct measure *m, double scale)
{
	long loops = m->loops * scale;
	double ns[RUNS], t0;
	int i, ret;

	if (loops < 1)
		loops = 1;
	if (m->start && m->start())
		return -1;
	ret = m->run(m, loops / 10 + 1);
	for (i = 0; i < RUNS && !ret; i++) {
		t0 = now_ns();
		ret = m->run(m, loops);
		ns[i] = (now_ns() - t0) / ((double)loops * m->ops);
	}
	if (m->stop && m->stop())
		ret = -1;
	if (ret)
		return -1;
	qsort(ns, RUNS, sizeof(ns[0]), cmp_double);
	printf("sched-bench: %s median_ns=%.1f min_ns=%.1f max_ns=%.1f runs=%d loops=%ld\n",
	       m->name, ns[RUNS / 2], ns[0], ns[RUNS - 1], RUNS, loops);
	fflush(stdout);
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: sched-bench [-n SCALE] [ctxsw|getppid|stat|getuid]...\n");
	return 2;
}

int main(int argc, char **argv)
{
	int chosen[NR_MEASURES] = { 0 }, any = 0, bad = 0, opt;
	double scale = 1;
	cpu_set_t cpu0;
	size_t i;
	char *end;

	while ((opt = getopt(argc, argv, "n:")) != -1) {
		if (opt != 'n')
			return usage();
		scale = strtod(optarg, &end);
		if (end == optarg || *end || !(scale > 0 && scale <= 1000))
			return usage();
	}
	for (; optind < argc; optind++) {
		for (i = 0; i < NR_MEASURES; i++)
			if (!strcmp(argv[optind], measures[i].name))
				break;
		if (i == NR_MEASURES)
			return usage();
		chosen[i] = 1;
		any = 1;
	}
	/* A child that is gone fails a write() with EPIPE, said as such. */
	signal(SIGPIPE, SIG_IGN);
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0)) {
		fail("sched_setaffinity(CPU 0)");
		return 1;
	}
	printf("sched-bench: on CPU 0, scale %g, %d runs a measure\n", scale, RUNS);
	for (i = 0; i < NR_MEASURES; i++)
		if ((chosen[i] || !any) && bench(&measures[i], scale))
			bad = 1;
	return bad;
}
