/* SPDX-License-Identifier: GPL-2.0 */
/*
 * guest/kmsg-lines.h: /init's lines as kernel log records.  Included by
 * guest/init.c and by its host test, tests/kmsg-lines/test.c, which runs
 * these functions on a file descriptor that refuses lseek() as /dev/kmsg
 * does and that keeps the boundaries of every write().
 */
#ifndef RCUVET_KMSG_LINES_H
#define RCUVET_KMSG_LINES_H

#include <stdio.h>
#include <unistd.h>

/* /dev/kmsg, opened for writing by init's main(); -1 before. */
static int kmsg = -1;

/*
 * One line of a file or a child's output as one log record, with
 * write(2): glibc's dprintf() cannot print to /dev/kmsg at all (the
 * lseek(fd, 0, SEEK_CUR) with which it attaches a stream to the fd fails
 * with EINVAL there), so lines went to the console directly, unordered
 * with the kernel's records: a program's last line was once cut in two
 * by the "rcuvet: begin" record printed before the program ran.  The
 * record ends with its newline: without one the kernel keeps it open for
 * a continuation, and no console prints it until the next record closes
 * it (the end marker, the last record before the reboot, waited so).
 */
static void log_line(const char *prefix, const char *line)
{
	char buf[1024];
	int n = snprintf(buf, sizeof(buf) - 1, "%s%s", prefix, line);

	if (n >= (int)sizeof(buf) - 1)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	if (kmsg < 0 || write(kmsg, buf, n) < 0)
		fprintf(stderr, "%.*s", n, buf);
}

/* Copy a file or a child's output to the log, a line at a time. */
static void forward_lines(int fd, const char *prefix)
{
	char buf[4096], line[1024];
	size_t len = 0;
	ssize_t n, i;

	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (i = 0; i < n; i++) {
			if (buf[i] != '\n' && len < sizeof(line) - 1) {
				line[len++] = buf[i];
				continue;
			}
			if (buf[i] != '\n')
				continue;	/* overlong line: truncated */
			line[len] = '\0';
			log_line(prefix, line);
			len = 0;
		}
	}
	if (len) {
		line[len] = '\0';
		log_line(prefix, line);
	}
}

#endif
