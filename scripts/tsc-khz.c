// SPDX-License-Identifier: GPL-2.0
/*
 * tsc-khz: the host's TSC frequency in kHz, measured against
 * CLOCK_MONOTONIC_RAW over 200 ms.  Under QEMU's TCG a guest's TSC is the
 * host's, so the guest can be told its frequency (tsc_early_khz=) instead
 * of calibrating it against an emulated timer, which a busy host defeats.
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

static uint64_t ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

/* A (time, TSC) pair read as close together as the host lets us. */
static void sample(uint64_t *t, uint64_t *tsc)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 20; i++) {
		uint64_t a = ns(), c = __rdtsc(), b = ns();

		if (b - a < best) {
			best = b - a;
			*t = a + (b - a) / 2;
			*tsc = c;
		}
	}
}

int main(void)
{
	struct timespec pause = { 0, 200000000 };
	uint64_t t0, c0, t1, c1;

	sample(&t0, &c0);
	nanosleep(&pause, NULL);
	sample(&t1, &c1);
	printf("%llu\n", (unsigned long long)((c1 - c0) * 1000000 / (t1 - t0)));
	return 0;
}
