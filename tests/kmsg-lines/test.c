// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of guest/kmsg-lines.h, the code with which /init turns a
 * program's output into kernel log records (tests/pipeline/kmsg-lines.sh
 * builds and runs it).  The log is a file descriptor that behaves as
 * /dev/kmsg does where it matters:
 *
 * - lseek() fails with EINVAL (a seccomp filter): /dev/kmsg refuses
 *   SEEK_CUR so, and glibc's dprintf() gives up on such an fd (a pipe's
 *   ESPIPE it would accept);
 * - every write() stays one record: a pipe in packet mode (O_DIRECT), whose
 *   read() returns one write's bytes.
 *
 * Every line must arrive as exactly one record holding the whole line
 * after its prefix (an overlong line: its beginning) and ending with a
 * newline (the kernel keeps a record without one open, unprinted), in
 * order, and nothing may fall back to stderr (the shell script checks
 * that).  Prints
 * what went wrong; exits 1 then.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "kmsg-lines.h"

#define MAX_RECORDS 64
#define LONG_LINE 3000		/* longer than a record of /init */

static char input[16384];
static size_t input_len;
static char *want[MAX_RECORDS];
static int truncated[MAX_RECORDS];
static int n_want;
static int failed;

/* What went wrong, the first 5 times. */
static void fail(const char *fmt, const char *a, const char *b)
{
	if (failed++ >= 5)
		return;
	printf(fmt, a, b);
	putchar('\n');
}

/* lseek() fails with EINVAL from now on, as /dev/kmsg's SEEK_CUR does. */
static void refuse_lseek(void)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_lseek, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EINVAL),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {
		.len = sizeof(filter) / sizeof(filter[0]),
		.filter = filter,
	};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		fail("cannot install the seccomp filter: %s%s", strerror(errno), "");
		exit(1);
	}
}

/* A line of the program's output, and the record it must become. */
static void add_line(const char *prefix, const char *line, int newline)
{
	size_t len = strlen(line);

	memcpy(input + input_len, line, len);
	input_len += len;
	if (newline)
		input[input_len++] = '\n';
	if (asprintf(&want[n_want], "%s%s", prefix, line) < 0)
		exit(1);
	truncated[n_want++] = len >= 1000;
}

/* A line of LEN bytes of C. */
static void add_filled(const char *prefix, char c, size_t len)
{
	char *line = malloc(len + 1);

	memset(line, c, len);
	line[len] = '\0';
	add_line(prefix, line, 1);
	free(line);
}

int main(void)
{
	const char *prefix = "prog: ";
	char rec[4096];
	int log[2], out[2], n_got = 0;
	ssize_t n;

	if (pipe2(log, O_DIRECT | O_NONBLOCK) || pipe(out) ||
	    fcntl(log[1], F_SETPIPE_SZ, MAX_RECORDS * 4096) < 0) {
		fail("cannot make the pipes: %s%s", strerror(errno), "");
		return 1;
	}
	refuse_lseek();
	if (lseek(log[1], 0, SEEK_CUR) != -1 || errno != EINVAL) {
		fail("lseek() on the log is not refused with EINVAL%s%s", "", "");
		return 1;
	}
	kmsg = log[1];

	/* A record of /init's own, then a program's output. */
	if (asprintf(&want[n_want++], "rcuvet: begin %s", "prog") < 0)
		return 1;
	log_line("rcuvet: ", "begin prog");
	add_line(prefix, "first line", 1);
	add_line(prefix, "# a KTAP diagnostic: with spaces, tabs\tand 100%s", 1);
	add_filled(prefix, 'x', LONG_LINE);
	add_line(prefix, "the line after an overlong one", 1);
	/* Lines up to the end of forward_lines()' first read, and one across it. */
	while (input_len < 4096 - 600)
		add_filled(prefix, 'p', 500);
	add_filled(prefix, 'q', 4096 - 10 - input_len);
	add_line(prefix, "a line across two reads", 1);
	add_line(prefix, "the last line, without a newline", 0);
	if (write(out[1], input, input_len) != (ssize_t)input_len) {
		fail("cannot write the input: %s%s", strerror(errno), "");
		return 1;
	}
	close(out[1]);
	forward_lines(out[0], prefix);

	while ((n = read(log[0], rec, sizeof(rec) - 1)) > 0) {
		const char *w = n_got < n_want ? want[n_got] : "";
		size_t wlen = strlen(w);

		rec[n] = '\0';
		if (n > 0 && rec[n - 1] == '\n')
			rec[--n] = '\0';	/* the kernel drops it too */
		else
			fail("record '%.60s' has no newline: the kernel keeps it open%s", rec, "");
		if (n_got >= n_want)
			fail("record '%.60s' after the last line%s", rec, "");
		else if (truncated[n_got] ? n < 1000 || strncmp(rec, w, n) :
			 (size_t)n != wlen || memcmp(rec, w, n))
			fail("record '%.60s' is not the line '%.60s'", rec, w);
		n_got++;
	}
	if (failed > 5)
		printf("... and %d more\n", failed - 5);
	if (n_got < n_want) {
		printf("no record for the line '%.60s' nor for the %d after it\n",
		       want[n_got], n_want - n_got - 1);
		failed = 1;
	}
	return !!failed;
}
