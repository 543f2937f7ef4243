/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by rcuvet's test modules.
 *
 * The host's verdict fails a run on any kernel splat, except one a test
 * announced beforehand: wrap the code that must splat in
 * rcuvet_expect_splat("pattern") ... rcuvet_end_expect().  Every splat line
 * in between must contain the pattern (or be the "Call Trace:" of such a
 * splat), and at least one must appear.  The markers bypass pr_fmt() so
 * that the host sees them verbatim.
 */
#ifndef RCUVET_H
#define RCUVET_H

#include <linux/printk.h>

#define rcuvet_expect_splat(pattern) \
	printk(KERN_INFO "rcuvet: expect-splat %s\n", pattern)
#define rcuvet_end_expect() printk(KERN_INFO "rcuvet: end-expect\n")

#endif /* RCUVET_H */
