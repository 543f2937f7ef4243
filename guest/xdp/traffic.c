// SPDX-License-Identifier: GPL-2.0
/*
 * xdp-teardown's traffic: one worker a CPU calls BPF_PROG_TEST_RUN with
 * live frames, running xdp_src (ingress a0), which redirects through the
 * maps under test, or xdp_feed, which sends frames to c0 so that c1's
 * NAPI poll redirects them; CPU 0's worker also empties the packet
 * sockets.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include "run.h"

static void drain(struct run *R)
{
	char buf[64];
	int i;

	for (i = 0; i < 2; i++)
		while (recv(R->sock[i], buf, sizeof(buf), MSG_DONTWAIT) > 0)
			;
}

void *worker(void *arg)
{
	struct worker *w = arg;
	struct run *R = w->R;
	unsigned char pkt[XT_PKT_LEN] = { 0 };
	struct xt_pkt *p = (void *)pkt;
	struct xdp_md ctx = { .data_end = XT_PKT_LEN, .ingress_ifindex = R->t[0].ia };
	int src = bpf_program__fd(R->sk->progs.xdp_src);
	int feed = bpf_program__fd(R->sk->progs.xdp_feed);
	cpu_set_t set;
	unsigned long i;

	/*
	 * Not on the held CPU of a hold scenario: preempted by the cpumap
	 * kthread inside BPF_PROG_TEST_RUN's rcu_read_lock(), the worker
	 * would stay there for the whole hold (the kthread holds with
	 * preemption off), and every grace period would wait for it, the
	 * one the hold watches for among them.
	 */
	if (R->sc->hold_ms && w->cpu == hold_cpu(R))
		return NULL;
	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	/* leave the teardown threads the larger share of the CPUs */
	setpriority(PRIO_PROCESS, gettid(), 5);
	memset(p->dst, 0x02, 6);
	memset(p->src, 0x04, 6);
	p->proto = htons(XT_ETH_P);
	p->magic = XT_MAGIC;

	for (i = 0; !R->stop_workers; i++) {
		LIBBPF_OPTS(bpf_test_run_opts, o,
			.data_in = pkt, .data_size_in = sizeof(pkt),
			.ctx_in = &ctx, .ctx_size_in = sizeof(ctx),
			.repeat = opt.repeat, .batch_size = opt.batch,
			.flags = BPF_F_TEST_XDP_LIVE_FRAMES);
		int fd = (i & 1) && R->sc->nnapi ? feed : src;

		if (bpf_prog_test_run_opts(fd, &o)) {
			pthread_mutex_lock(&R->lock);
			R->tr_errors++;
			R->tr_last_err = errno;
			pthread_mutex_unlock(&R->lock);
		}
		__atomic_fetch_add(&R->tr_calls, 1, __ATOMIC_RELAXED);
		/*
		 * Frames that reach the stack queue on the packet sockets,
		 * holding their page_pool pages: drop them soon, or the pools
		 * they came from wait for them (and say so after 60 s).
		 */
		if (w->cpu == 0)
			drain(R);
		/*
		 * Frames enough, teardowns not yet: leave them CPU time (a
		 * netdev unregister or a map free waits for grace periods,
		 * which a saturated guest makes slow).  Frames still flow.
		 */
		if (R->sc->nops && !R->sc->hold_ms && frames_seen(R) >= opt.min_frames &&
		    total_torn(R) < opt.min_ops)
			usleep(opt.idle * 1e6);
	}
	return NULL;
}
