// SPDX-License-Identifier: GPL-2.0
/*
 * rcuvet_harness_ctl: the harness's own negative controls.  Each mode is
 * one way a run must fail, and the host checks that the verdict fails for
 * the right reason:
 *
 *   mode=pass      a clean passing case (the positive control)
 *   mode=fail      a failing assertion
 *   mode=panic     the guest panics in the middle of the test
 *   mode=hang      the test never returns: the boot times out
 *   mode=splat     the case passes but leaves a lockdep "suspicious RCU
 *                  usage" splat behind
 *   mode=expected  the same splat, announced with the expect-splat
 *                  markers, so the run passes
 *   mode=missing   a splat announced with the markers that never comes
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/panic.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include "rcuvet.h"

static char *mode = "pass";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "pass, fail, panic, hang, splat, expected or missing");

static int __rcu *ctl_ptr;

/* rcu_dereference() outside any reader: lockdep's "suspicious RCU usage". */
static void ctl_bad_dereference(void)
{
	int *p = rcu_dereference(ctl_ptr);

	(void)p;
}

static void harness_control(struct kunit *test)
{
	if (!strcmp(mode, "fail")) {
		KUNIT_EXPECT_EQ_MSG(test, 1, 2, "deliberately failing assertion");
	} else if (!strcmp(mode, "panic")) {
		panic("rcuvet control: deliberate panic in the middle of a test");
	} else if (!strcmp(mode, "hang")) {
		for (;;)
			msleep(1000);
	} else if (!strcmp(mode, "splat")) {
		ctl_bad_dereference();
	} else if (!strcmp(mode, "expected")) {
		rcuvet_expect_splat(1, "WARNING: suspicious RCU usage");
		ctl_bad_dereference();
		rcuvet_end_expect();
	} else if (!strcmp(mode, "missing")) {
		rcuvet_expect_splat(1, "WARNING: suspicious RCU usage");
		rcuvet_end_expect();
	} else {
		KUNIT_EXPECT_STREQ(test, mode, "pass");
	}
}

static struct kunit_case harness_ctl_cases[] = {
	KUNIT_CASE(harness_control),
	{}
};

static struct kunit_suite harness_ctl_suite = {
	.name = "rcuvet_harness_ctl",
	.test_cases = harness_ctl_cases,
};
kunit_test_suite(harness_ctl_suite);

MODULE_DESCRIPTION("rcuvet: negative controls for the harness itself");
MODULE_LICENSE("GPL");
