// SPDX-License-Identifier: GPL-2.0
/*
 * xdp-teardown's accounting and checks: the BPF programs' counters and
 * the veths' statistics, the wait until the rings drain, the kick that
 * flushes the targets, the verdict that every frame is accounted for,
 * the maps and programs a scenario left behind, the KTAP diagnostics
 * that say so, and the kernel's messages (page_pool reports, splats).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <linux/if_packet.h>
#include "nl.h"
#include "run.h"

/* A KTAP diagnostic of the running case. */
void diag(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	printf("    # %s\n", buf);
}

/* ---- counters ------------------------------------------------------- */

static int read_counters(struct run *R, struct counters *out)
{
	int fd = bpf_map__fd(R->sk->maps.cnt);
	__u64 *v = calloc(R->nposs, sizeof(__u64));
	__u32 i;
	int cpu;

	if (!v)
		return -ENOMEM;
	memset(out, 0, sizeof(*out));
	for (i = 0; i < N_COUNTERS; i++) {
		if (bpf_map_lookup_elem(fd, &i, v)) {
			free(v);
			return -errno;
		}
		for (cpu = 0; cpu < R->nposs; cpu++)
			out->c[i] += v[cpu];
	}
	free(v);
	return 0;
}

unsigned long long frames_seen(struct run *R)
{
	unsigned long long n = 0;
	int i;

	for (i = 0; i < XT_MAX_CPUS; i++)
		n += ((volatile __u64 *)R->sk->bss->seen)[i];
	return n;
}

/*
 * A veth statistic summed over its queues, e.g. "tx" "xdp_xmit".
 *
 * Every veth pair has a queue per CPU: veth_xdp_xmit() puts frames into
 * the peer's rx queue smp_processor_id() % queues and then adds to that
 * queue's xdp_xmit and xdp_xmit_errors outside any lock.  With fewer
 * queues than CPUs, two CPUs sending to one device at once lose updates
 * (nopreempt's delete scenario counted 9 of 91,107 frames received but
 * never transmitted); with one queue per CPU each counter has one writer.
 */
static unsigned long long queue_stat(struct run *R, const char *ifname,
				     const char *dir, const char *stat)
{
	unsigned long long sum = 0, v;
	char name[64];
	int q;

	for (q = 0; q < R->ncpu; q++) {
		snprintf(name, sizeof(name), "%s_queue_%d_%s", dir, q, stat);
		if (!ethtool_stat(ifname, name, &v))
			sum += v;
	}
	return sum;
}

void add_target_stats(struct run *R, int i, struct devstats *d)
{
	struct target *t = &R->t[i];
	struct rtnl_link_stats64 st;

	d->xmit += queue_stat(R, t->na, "tx", "xdp_xmit");
	d->xmit_err += queue_stat(R, t->na, "tx", "xdp_xmit_errors");
	if (!link_stats(t->ia, &st))
		d->tx_dropped += st.tx_dropped;
	if (!in_ns(R, t->ns))
		d->sink_drops += queue_stat(R, t->nb, "rx", "xdp_drops");
	in_ns(R, R->ns_a);
}

/* Ids of maps or programs newer than FIRST still alive: count, print some. */
int leftovers(const char *what, int (*next)(__u32, __u32 *), __u32 first, int print)
{
	__u32 id = first, n;
	int count = 0;

	while (!next(id, &n)) {
		id = n;
		count++;
		if (print && count <= 8)
			diag("left behind: %s id %u", what, id);
	}
	return count;
}

/* ---- checks --------------------------------------------------------- */

int check_failed;

void expect(int ok, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (ok)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	diag("failed: %s", buf);
	check_failed++;
}

/*
 * Why frames came without our header, when the programs found it
 * XT_SHIFT bytes in (count_bad() in xdp_teardown.bpf.c); "" otherwise.
 */
static const char *shifted_note(const struct counters *c)
{
	static char note[256];

	if (!c->c[C_SHIFTED])
		return "";
	snprintf(note, sizeof(note),
		 ", %llu with it %d bytes in: copies of live frames taken from before their start, the BPF_PROG_TEST_RUN bug upstream fixed in v6.3 (294635a8165a; rcuvet's backport for 6.1: kernel/patches/6.1/0008, PATCHES=1)",
		 c->c[C_SHIFTED], XT_SHIFT);
	return note;
}

/* Wait until the counters stop moving and every cpumap ring is empty. */
int settle(struct run *R, struct counters *c)
{
	struct counters prev;
	double end = now() + opt.settle;
	int stable = 0, k, empty;

	read_counters(R, &prev);
	while (now() < end) {
		usleep(100000);
		read_counters(R, c);
		empty = 1;
		for (k = 0; k < XT_MAX_CPUS; k++)
			empty &= R->sk->bss->cm_enq[k] == R->sk->bss->cm_done[k];
		stable = empty && !memcmp(c, &prev, sizeof(*c)) ? stable + 1 : 0;
		if (stable >= 5)
			return 0;
		prev = *c;
	}
	return -ETIMEDOUT;
}

/*
 * One frame to each live target through the kick devmap (no egress
 * program), with XDP_XMIT_FLUSH: frames an earlier bulk left in the
 * target's ring without a flush (see xdp_kick) get received.  veth puts
 * a frame into the peer's rx queue of the sending CPU, so the kick is
 * sent from every CPU: a flush reaches only its own queue.
 */
int kick_targets(struct run *R)
{
	unsigned char pkt[XT_PKT_LEN] = { 0 };
	struct xt_pkt *p = (void *)pkt;
	int map = bpf_map__fd(R->sk->maps.kick);
	int prog = bpf_program__fd(R->sk->progs.xdp_kick);
	cpu_set_t all, one;
	int cpu, err = 0;
	__u32 i, v;

	memset(p->dst, 0x02, 6);
	memset(p->src, 0x04, 6);
	p->proto = htons(XT_ETH_P);
	p->magic = XT_MAGIC;
	p->kind = K_DM;
	if (pthread_getaffinity_np(pthread_self(), sizeof(all), &all))
		return -EINVAL;
	for (cpu = 0; cpu < R->ncpu && !err; cpu++) {
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		err = -pthread_setaffinity_np(pthread_self(), sizeof(one), &one);
		for (i = 0; i < NT && !err; i++) {
			LIBBPF_OPTS(bpf_test_run_opts, o,
				.data_in = pkt, .data_size_in = sizeof(pkt),
				.repeat = 1, .batch_size = 1,
				.flags = BPF_F_TEST_XDP_LIVE_FRAMES);

			v = R->t[i].ia;
			R->sk->bss->kick_key = i;
			if (bpf_map_update_elem(map, &i, &v, 0) ||
			    bpf_prog_test_run_opts(prog, &o))
				err = -errno;
		}
	}
	pthread_setaffinity_np(pthread_self(), sizeof(all), &all);
	return err;
}

#define SUM(c, base, ...) sum_kinds(c, base, (int[]){ __VA_ARGS__, -1 })

static unsigned long long sum_kinds(const struct counters *c, int base, const int *k)
{
	unsigned long long n = 0;

	for (; *k >= 0; k++)
		n += c->c[base + *k];
	return n;
}

void evaluate(struct run *R, const struct counters *c, int drained)
{
	const struct scen *sc = R->sc;
	struct devstats live = { 0 }, all;
	unsigned long long uni, bc, cm_in, acc, loss, bound, c0_xmit = 0, c0_err = 0;
	unsigned long long tp = 0, frames;
	struct rtnl_link_stats64 st;
	struct tpacket_stats ps;
	socklen_t len;
	unsigned long unregs = R->ops[OP_UNREG];
	int i, k, bcast = 0, dying_ok = 0;

	for (i = 0; i < sc->ntr; i++)
		bcast |= sc->kinds_tr[i] == K_BC || sc->kinds_tr[i] == K_BCH;
	for (i = 0; i < NT; i++)
		add_target_stats(R, i, &live);
	all = live;
	all.xmit += R->dead.xmit;
	all.xmit_err += R->dead.xmit_err;
	all.tx_dropped += R->dead.tx_dropped;
	all.sink_drops += R->dead.sink_drops;
	/* tx_dropped: ndo_xdp_xmit errors and the peer's xdp_xmit_errors */
	c0_xmit = queue_stat(R, "c0", "tx", "xdp_xmit");
	if (!link_stats(R->c0, &st))
		c0_err = st.tx_dropped;
	for (i = 0; i < 2; i++) {
		len = sizeof(ps);
		if (!getsockopt(R->sock[i], SOL_PACKET, PACKET_STATISTICS, &ps, &len))
			tp += ps.tp_packets;
	}

	frames = c->c[C_SRC_TR] + c->c[C_SRC_NAPI];
	uni = SUM(c, C_REDIR, K_DM, K_DMH, K_ODM, K_CPU_DM);
	bc = SUM(c, C_REDIR, K_BC, K_BCH);
	cm_in = SUM(c, C_REDIR, K_CM, K_OCM, K_CPU_CM);
	/* the kick frames went to the targets too: not ours to account */
	acc = SUM(c, C_EG_DROP, K_DM, K_DMH, K_ODM, K_CPU_DM, K_BC, K_BCH) +
	      all.xmit + all.tx_dropped - c->c[C_KICK];

	diag("frames: %llu (test_run %llu, napi %llu), test_run calls %lu",
	     frames, c->c[C_SRC_TR], c->c[C_SRC_NAPI], R->tr_calls);
	diag("redirected: devmap %llu [dm %llu dmh %llu outer %llu cpumap->devmap %llu], broadcast %llu, cpumap %llu [cm %llu outer %llu cpumap->cpumap %llu]",
	     uni, c->c[C_REDIR + K_DM], c->c[C_REDIR + K_DMH], c->c[C_REDIR + K_ODM],
	     c->c[C_REDIR + K_CPU_DM], bc, cm_in, c->c[C_REDIR + K_CM],
	     c->c[C_REDIR + K_OCM], c->c[C_REDIR + K_CPU_CM]);
	diag("no entry (lookup missed a torn-down entry): %llu, throttled %llu, to dying targets %llu",
	     SUM(c, C_MISS, K_DM, K_DMH, K_CM, K_ODM, K_OCM) + c->c[C_CPU_MISS],
	     c->c[C_THROTTLE], c->c[C_DYING]);
	diag("egress programs: seen %llu dropped %llu; sinks %llu (veth xdp_drops %llu)",
	     SUM(c, C_EG_SEEN, K_DM, K_DMH, K_ODM, K_CPU_DM, K_BC, K_BCH),
	     SUM(c, C_EG_DROP, K_DM, K_DMH, K_ODM, K_CPU_DM, K_BC, K_BCH),
	     SUM(c, C_SINK, K_DM, K_DMH, K_ODM, K_CPU_DM, K_BC, K_BCH), all.sink_drops);
	diag("veth targets: xdp_xmit %llu, xdp_xmit_errors %llu, tx_dropped %llu (of which unregistered devices: %llu/%llu/%llu)",
	     all.xmit, all.xmit_err, all.tx_dropped, R->dead.xmit, R->dead.xmit_err,
	     R->dead.tx_dropped);
	diag("cpumap programs: seen %llu pass %llu drop %llu redirect %llu miss %llu; stack %llu (no program %llu, packet sockets %llu)",
	     c->c[C_CPU_SEEN], c->c[C_CPU_PASS], c->c[C_CPU_DROP], c->c[C_CPU_REDIR],
	     c->c[C_CPU_MISS], c->c[C_SOCK], c->c[C_SOCK_NOPROG], tp);
	diag("feed: %llu (miss %llu), c0 xdp_xmit %llu tx_dropped %llu",
	     c->c[C_FEED], c->c[C_FEED_MISS], c0_xmit, c0_err);
	{
		char buf[512] = "";
		unsigned long n = 0;

		for (i = 0; i < N_OPS; i++) {
			if (!R->ops[i])
				continue;
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
				 " %s %lu (%.1f/%.0f ms)", op_name[i], R->ops[i],
				 R->op_time[i] * 1e3 / R->ops[i], R->op_max[i] * 1e3);
			n += R->ops[i];
		}
		diag("teardown ops (mean/max): %lu:%s", n, buf);
		/*
		 * What -o counts: devmap and cpumap entries torn down, one
		 * per entry a delete or a replace took out, every entry of a
		 * map whose last reference went, every entry NETDEV_UNREGISTER
		 * took out (looked up before and after each unregister).
		 */
		diag("torn down: %lu entries (by delete/replace %lu, freed with %lu maps %lu, by NETDEV_UNREGISTER %lu); ops under traffic %lu, cpumap rings busy %lu, errors %lu",
		     R->torn, R->torn - R->entries_map - R->entries_gone, R->maps_freed,
		     R->entries_map, R->entries_gone, R->ops_traffic, R->busy, R->op_errors);
		if (R->ops[OP_UNREG])
			diag("unregister: %.0f ms to unregister, %.0f ms to recreate (mean)",
			     R->unreg_del * 1e3 / R->ops[OP_UNREG],
			     R->unreg_new * 1e3 / R->ops[OP_UNREG]);
		if (R->op_errors)
			diag("last op error: %s: %s", op_name[R->last_op],
			     strerror(-R->last_op_err));
		if (sc->hold_ms)
			hold_evaluate(R, c);
		else
			expect(!sc->nops || R->torn >= opt.min_ops, "%lu entries torn down < %lu",
			       R->torn, opt.min_ops);
		/* alone, nothing else puts entries back in the meantime */
		if (R->ops[OP_UNREG] && sc->nops == 1)
			expect(!R->unreg_left,
			       "%lu devmap entries still point at unregistered targets",
			       R->unreg_left);
		else if (R->unreg_left)
			diag("%lu entries pointed at a target after its unregister (put back by other ops)",
			     R->unreg_left);
		expect(!sc->nops || R->ops_traffic * 10 >= n,
		       "only %lu of %lu ops landed while frames flowed", R->ops_traffic, n);
	}
	expect(frames >= opt.min_frames, "%llu frames < %lu", frames, opt.min_frames);
	expect(!R->tr_errors, "%lu BPF_PROG_TEST_RUN calls failed (last: %s)",
	       R->tr_errors, strerror(R->tr_last_err));
	expect(drained, "the rings did not drain within %.0f s", opt.settle);
	expect(!c->c[C_BAD], "%llu frames without our header%s", c->c[C_BAD], shifted_note(c));
	expect(!c->c[C_SEQ_ERR], "%llu frames seen twice or out of order by cpumap (seq ok %llu)",
	       c->c[C_SEQ_ERR], c->c[C_SEQ_OK]);

	/* cpumap: flow control keeps rings from overflowing: exact */
	for (k = 0; k < XT_MAX_CPUS; k++)
		expect(R->sk->bss->cm_enq[k] == R->sk->bss->cm_done[k],
		       "cpumap key %d: %llu enqueued, %llu consumed", k,
		       (unsigned long long)R->sk->bss->cm_enq[k],
		       (unsigned long long)R->sk->bss->cm_done[k]);
	expect(cm_in == c->c[C_CPU_SEEN] + c->c[C_SOCK_NOPROG],
	       "cpumap: %llu redirected != %llu seen by programs + %llu reached the stack without",
	       cm_in, c->c[C_CPU_SEEN], c->c[C_SOCK_NOPROG]);
	expect(c->c[C_CPU_SEEN] == c->c[C_CPU_PASS] + c->c[C_CPU_DROP] +
	       c->c[C_CPU_REDIR] + c->c[C_CPU_MISS], "cpumap programs: verdicts do not add up");
	expect(c->c[C_SOCK] == c->c[C_CPU_PASS] + c->c[C_SOCK_NOPROG],
	       "cpumap: %llu frames reached the stack, %llu passed + %llu without program",
	       c->c[C_SOCK], c->c[C_CPU_PASS], c->c[C_SOCK_NOPROG]);
	expect(tp == c->c[C_SOCK], "packet sockets counted %llu, filters %llu", tp, c->c[C_SOCK]);

	/* feeder and NAPI veth: the veth is never torn down */
	expect(c->c[C_FEED] == c0_xmit + c0_err,
	       "feed: %llu redirected != %llu xmit + %llu dropped by c0",
	       c->c[C_FEED], c0_xmit, c0_err);
	expect(c0_xmit == c->c[C_SRC_NAPI], "c1: %llu frames xmitted to it, %llu seen by its program",
	       c0_xmit, c->c[C_SRC_NAPI]);

	if (sc->bug) {
		unsigned long long zdrop = 0;

		if (!link_stats(R->z0, &st))
			zdrop = st.tx_dropped;
		diag("dead end z0: tx_dropped %llu; frames in their source's order %llu, out of it %llu",
		     zdrop, c->c[C_SEQ_OK], c->c[C_SEQ_ERR]);
		expect(c->c[C_REDIR + K_CPU_DM] == zdrop,
		       "dead end: %llu redirected, %llu dropped by z0",
		       c->c[C_REDIR + K_CPU_DM], zdrop);
		return;
	}

	/* devmaps: what entered the devmaps left them through a counter */
	dying_ok = unregs > 0;
	bound = c->c[C_DYING] + unregs * (R->ncpu * BULK + VETH_RING);
	loss = uni > acc ? uni - acc : 0;
	if (!bcast && !dying_ok) {
		expect(uni == acc, "devmap: %llu redirected != %llu accounted (egress drops + xmit + tx_dropped)",
		       uni, acc);
	} else {
		if (dying_ok)
			diag("devmap: %llu redirected, %llu accounted: %llu unaccounted, bound %llu (frames to dying targets + per unregister %d in flight)",
			     uni, acc, loss, bound, R->ncpu * BULK + VETH_RING);
		expect(loss <= (dying_ok ? bound : 0),
		       "devmap: %llu frames unaccounted (bound %llu)", loss, dying_ok ? bound : 0);
		/* a broadcast frame goes to every entry but the ingress' */
		if (bcast)
			expect(acc <= uni + bc * R->keys,
			       "devmap: %llu accounted > %llu unicast + %llu broadcast x %d entries",
			       acc, uni, bc, R->keys);
	}
	{
		unsigned long long sink = SUM(c, C_SINK, K_DM, K_DMH, K_ODM, K_CPU_DM, K_BC, K_BCH);

		if (!dying_ok) {
			expect(sink == all.xmit, "sinks: %llu received, targets xmitted %llu",
			       sink, all.xmit);
			expect(sink == all.sink_drops, "sinks: %llu counted, veth xdp_drops %llu",
			       sink, all.sink_drops);
		} else {
			expect(sink <= all.xmit + c->c[C_DYING] &&
			       sink + unregs * VETH_RING >= all.xmit,
			       "sinks: %llu received, targets xmitted %llu (bound %lu)",
			       sink, all.xmit, unregs * VETH_RING);
		}
	}
}

/* ---- the kernel's messages ----------------------------------------- */

static int kmsg_fd = -1;

/*
 * Read the kernel's new messages: the page_pool's reports of lost or
 * doubly freed pages, and the first lines of splats (a subset of the
 * verdict's list: enough to see that the run has failed).
 */
void kmsg_read(struct kmsg_news *news)
{
	static const char *const pool_bad[] = {
		"stalled pool shutdown", "inflight packet-pages", "Bad page", NULL,
	};
	static const char *const splat[] = {
		"BUG:", "WARNING:", "KASAN:", "Oops", "refcount_t:", NULL,
	};
	char buf[8192];
	int n, i;

	if (kmsg_fd < 0)
		return;
	while ((n = read(kmsg_fd, buf, sizeof(buf) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
		if (n <= 0)
			continue;
		buf[n] = '\0';
		if (strstr(buf, "xdp-teardown"))
			continue;
		for (i = 0; pool_bad[i]; i++)
			if (strstr(buf, pool_bad[i])) {
				news->pool_bad++;
				diag("the kernel says: %.200s",
				     strchr(buf, ';') ? strchr(buf, ';') + 1 : buf);
			}
		for (i = 0; splat[i]; i++)
			news->splat |= !!strstr(buf, splat[i]);
	}
}

/* Watch the kernel's messages from now on; without /dev/kmsg, none. */
void kmsg_open(void)
{
	kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg_fd >= 0)
		lseek(kmsg_fd, 0, SEEK_END);
}
