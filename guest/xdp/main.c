// SPDX-License-Identifier: GPL-2.0
/*
 * xdp-teardown: tear devmap and cpumap entries, maps and target devices
 * down while XDP frames flow through them, and account for every frame.
 *
 *   xdp-teardown [-d SECONDS] [-t MAX_SECONDS] [-o MIN_OPS] [-f MIN_FRAMES]
 *                [-s SEED] [-b BATCH] [-r REPEAT] [-w SETTLE] [SCENARIO...]
 *
 * Each scenario builds its own network: namespace A holds the traffic
 * side, namespace B the NAPI veth's receiving end, and each devmap target
 * a_i (in A) has its peer b_i in a namespace of its own, where a native
 * XDP sink counts and drops what arrives.  Traffic, on every CPU:
 * BPF_PROG_TEST_RUN with live frames (batches, ingress a0) running xdp_src,
 * which redirects through the maps under test; and xdp_feed, which sends
 * frames to c0, whose peer c1 (namespace B) runs xdp_src natively, so that
 * the same redirects happen in veth's NAPI poll and its xdp_do_flush().
 * A teardown thread meanwhile deletes and replaces entries, replaces maps
 * and programs so that their last reference drops, or unregisters target
 * devices, each scenario its own mix.
 *
 * A scenario runs for at least -d seconds and until -o teardown operations
 * and -f frames are done (failing if -t seconds pass first), then stops the
 * traffic, lets the rings drain and checks: every frame accounted (exactly,
 * or within the stated bound where the kernel may drop without telling),
 * no frame seen twice, the race proven (operations that landed while
 * frames flowed), and after the scenario no map or program of it left.
 * A kernel splat (KASAN, WARNING, ...) ends the program at once, the
 * scenario failed: the verdict fails the run on it, the time to it is
 * what a negative control measures, and threads may be stuck in the
 * damaged kernel.  Output is KTAP, one test case per scenario, counters as diagnostics.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <net/if.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/if_link.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "xdp_teardown.h"
#include "xdp_teardown.skel.h"
#include "nl.h"

#define NT		4	/* devmap targets */
#define KEYS		8	/* devmap keys in use, unless a scenario says */
#define CM_LIMIT	192	/* cpumap frames in flight per key */
#define VETH_RING	256	/* VETH_RING_SIZE */
#define BULK		16	/* DEV_MAP_BULK_SIZE */

static struct {
	double duration, max_time, settle, idle;
	unsigned long min_ops, min_frames;
	unsigned int seed, batch, repeat, threads;
} opt = {
	.duration = 8, .max_time = 60, .settle = 15, .idle = 0.25,
	.min_ops = 1000, .min_frames = 100000,
	.seed = 1, .batch = 64, .repeat = 2048, .threads = 3,
};

/* Teardown operations. */
enum op {
	OP_DM_DEL,	/* delete a DEVMAP entry (and put it back) */
	OP_DMH_DEL,	/* the same in the DEVMAP_HASH */
	OP_CM_DEL,	/* the same in the CPUMAP */
	OP_DM_REPL,	/* replace: other target, other egress program */
	OP_DMH_REPL,
	OP_CM_REPL,	/* replace: other qsize, other cpumap program */
	OP_MAP_DM,	/* new inner DEVMAP in outer_dm: the old one's last ref */
	OP_MAP_CM,	/* the same for the inner CPUMAP */
	OP_PROG,	/* replace c1's program and its maps: their last ref */
	OP_UNREG,	/* unregister a target device (veth or its namespace) */
	N_OPS
};

static const char *const op_name[N_OPS] = {
	"dm_delete", "dmh_delete", "cm_delete", "dm_replace", "dmh_replace",
	"cm_replace", "dm_mapfree", "cm_mapfree", "prog_replace", "unregister",
};

struct scen {
	const char *name;
	const char *what;
	int kinds_tr[XT_MAX_KINDS], ntr;
	int kinds_napi[XT_MAX_KINDS], nnapi;
	int ops[16], nops;		/* weighted: an op may appear twice */
	int bug;			/* the cpumap direct-return scenario */
	int keys;			/* DEVMAP and DEVMAP_HASH keys in use */
	int burn_ms;			/* cpumap entries run cpu_slow, this slow */
	int chain;			/* ... redirecting into cm2, not a devmap */
	int hash;			/* ... into DEVMAP_HASH, not DEVMAP */
	int threaded;			/* c1's NAPI polls in kthreads */
};

#define K(...) { __VA_ARGS__ }, sizeof((int[]){ __VA_ARGS__ }) / sizeof(int)

static const struct scen scens[] = {
	{ "delete", "delete entries of DEVMAP, DEVMAP_HASH, CPUMAP and put them back",
	  K(K_DM, K_DMH, K_CM), K(K_DM, K_DMH, K_CM),
	  K(OP_DM_DEL, OP_DM_DEL, OP_DMH_DEL, OP_DMH_DEL, OP_CM_DEL), 0, 0, 0, 0, 0, 0 },
	{ "replace", "replace entries: other target, qsize, entry program",
	  K(K_DM, K_DMH, K_CM), K(K_DM, K_DMH, K_CM),
	  K(OP_DM_REPL, OP_DM_REPL, OP_DMH_REPL, OP_DMH_REPL, OP_CM_REPL), 0, 0, 0, 0, 0, 0 },
	{ "broadcast", "BPF_F_BROADCAST|BPF_F_EXCLUDE_INGRESS while entries go",
	  K(K_BC, K_BCH, K_DM), K(K_BC, K_BCH, K_DMH),
	  K(OP_DM_DEL, OP_DMH_DEL, OP_DM_REPL, OP_DMH_REPL), 0, NT, 0, 0, 0, 0 },
	{ "map_free", "last reference of maps dropped: inner maps, c1's program",
	  K(K_ODM, K_OCM), K(K_DM, K_DMH, K_CM, K_ODM),
	  K(OP_MAP_DM, OP_MAP_DM, OP_MAP_DM, OP_MAP_DM, OP_MAP_DM, OP_MAP_CM,
	    OP_MAP_CM, OP_PROG), 0, 64, 0, 0, 0, 0 },
	{ "unregister", "unregister devmap targets: delete the veth or its netns",
	  K(K_DM, K_DMH, K_ODM), K(K_DM, K_DMH, K_ODM),
	  K(OP_UNREG), 0, XT_DM_ENTRIES, 0, 0, 0, 0 },
	{ "cpumap_busy", "replace cpumap entries while their rings hold frames",
	  K(K_CM), K(K_CM),
	  K(OP_CM_REPL), 0, 0, 0, 0, 0, 0 },
	{ "mixed", "every teardown at once",
	  K(K_DM, K_DMH, K_CM, K_BC, K_BCH, K_ODM, K_OCM),
	  K(K_DM, K_DMH, K_CM, K_ODM, K_OCM),
	  K(OP_DM_DEL, OP_DMH_DEL, OP_CM_DEL, OP_DM_REPL, OP_DMH_REPL,
	    OP_CM_REPL, OP_MAP_DM, OP_MAP_CM, OP_PROG, OP_UNREG), 0, 32, 0, 0, 0, 0 },
	/*
	 * Threaded NAPI: c1's poll runs in a kthread with bottom halves
	 * disabled and no rcu_read_lock(), so its xdp_do_flush() relies on
	 * flavor consolidation alone, every time (check.plan's reliance
	 * step requires the cpumap flush sites from it).
	 */
	{ "threaded", "delete and replace entries while c1 polls in NAPI kthreads",
	  K(K_DM, K_DMH, K_CM), K(K_DM, K_DMH, K_CM),
	  K(OP_DM_DEL, OP_DMH_DEL, OP_CM_DEL, OP_DM_REPL, OP_DMH_REPL, OP_CM_REPL),
	  0, 0, 0, 0, 0, 1 },
	{ "cpumap_direct_return", "cpumap program -> devmap whose xmit drops",
	  K(K_CM), { 0 }, 0, { 0 }, 0, 1, 0, 0, 0, 0, 0 },
	/*
	 * Not run unless named (burn_ms): for the v4.19 grace-period
	 * emulation (docs/xdp-teardown.md).  One cpumap entry (CPU 1) takes
	 * every frame; its program redirects into DEVMAP key 0 and then
	 * burns, while the teardown deletes and replaces key 0.
	 */
	{ "cpumap_devmap_slow", "devmap entries go while a slow cpumap program holds them",
	  K(K_CM), { 0 }, 0, K(OP_DM_DEL, OP_DM_REPL), 0, 1, 200, 0, 0, 0 },
	/* The same for a cpumap: cpu_slow redirects into cm2 key 0 instead. */
	{ "cpumap_cpumap_slow", "cpumap entries go while a slow cpumap program holds them",
	  K(K_CM), { 0 }, 0, K(OP_CM_DEL, OP_CM_REPL), 0, 1, 200, 1, 0, 0 },
	/* The same through DEVMAP_HASH: cpu_slow redirects into its key. */
	{ "cpumap_devmap_hash_slow",
	  "devmap_hash entries go while a slow cpumap program holds them",
	  K(K_CM), { 0 }, 0, K(OP_DMH_DEL, OP_DMH_REPL), 0, 1, 200, 0, 1, 0 },
};

#define N_SCENS (int)(sizeof(scens) / sizeof(scens[0]))

struct target {
	int ia, ib;			/* ifindexes: a in A, b in ns */
	char na[IFNAMSIZ], nb[IFNAMSIZ];
	int ns;				/* b's namespace */
	int gen;
};

/* Kernel counters of the devmap targets, alive and dead. */
struct devstats {
	unsigned long long xmit, xmit_err, tx_dropped, sink_drops;
};

struct run {
	const struct scen *sc;
	struct xdp_teardown *sk;
	int ncpu, nposs;
	int ns_root, ns_a, ns_b;
	struct target t[NT];
	int c0, c1, z0, z1, p0, p1;	/* NAPI, dead-end, dispatcher pairs */
	int sock[2];			/* packet sockets on a0 and c1 */
	__u32 first_map_id, first_prog_id;
	int egress[3];			/* no program, eg_drop8, eg_pass */
	int cpuprog[4];			/* no program (or cpu_seq, cpu_slow), cpu_redir,
					   cpu_pass, cpu_drop */
	int inner_dm, inner_cm;		/* current inner maps (map_free) */
	int c1_prog, c1_maps[3];	/* c1's program copy and its maps */
	int keys;			/* DEVMAP and DEVMAP_HASH keys in use */
	volatile int stop_workers, stop_teardown;
	pthread_mutex_t lock;		/* the fields below */
	unsigned long ops[N_OPS], op_errors, ops_traffic, busy, entries_gone;
	unsigned long torn;		/* devmap and cpumap entries torn down */
	unsigned long maps_freed;	/* maps whose last reference went */
	double op_time[N_OPS], op_max[N_OPS];
	int last_op_err, last_op;
	unsigned long tr_calls, tr_errors;
	int tr_last_err;
	struct devstats dead;		/* of unregistered targets */
	unsigned int next_idx;		/* fresh ifindexes for new targets */
	pthread_mutex_t map_lock[2];	/* inner DEVMAP, inner CPUMAP */
	pthread_mutex_t prog_lock;	/* c1's program copy */
	pthread_mutex_t target_lock[NT];
	double unreg_del, unreg_new;	/* unregister: time to delete, to recreate */
	unsigned long unreg_left;	/* entries still pointing at a dead target */
	unsigned long entries_map;	/* entries freed with their maps */
	void *td0;			/* the first teardown thread */
	int dm_target[XT_DM_ENTRIES];	/* shadow: key -> target, -1 none */
	int dmh_target[XT_DM_ENTRIES];
};

static int failed_cases;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A KTAP diagnostic of the running case. */
static void diag(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	printf("    # %s\n", buf);
}

/* ---- counters ------------------------------------------------------- */

struct counters {
	unsigned long long c[N_COUNTERS];
};

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

static unsigned long long frames_seen(struct run *R)
{
	unsigned long long n = 0;
	int i;

	for (i = 0; i < XT_MAX_CPUS; i++)
		n += ((volatile __u64 *)R->sk->bss->seen)[i];
	return n;
}

/* Each thread draws from its own sequence, seeded from -s. */
static __thread unsigned int rnd_state;

static unsigned int rnd(struct run *R)
{
	(void)R;
	return rand_r(&rnd_state);
}

/* ---- map entries ---------------------------------------------------- */

/*
 * Point a devmap entry at a target; returns the target it points at.  A
 * target that another thread is unregistering cannot be used (EINVAL:
 * its ifindex is gone): then a0, never unregistered, is.
 */
static int dm_set(struct run *R, int map_fd, __u32 key, int target, int eg)
{
	struct bpf_devmap_val v = { .ifindex = R->t[target].ia };

	v.bpf_prog.fd = R->egress[eg];
	if (!bpf_map_update_elem(map_fd, &key, &v, 0))
		return target;
	if ((errno != EINVAL && errno != ENODEV) || !target)
		return -errno;
	return dm_set(R, map_fd, key, 0, eg);
}

/* dm_set(), 0 or an error */
static int dm_put(struct run *R, int map_fd, __u32 key, int target, int eg)
{
	int t = dm_set(R, map_fd, key, target, eg);

	return t < 0 ? t : 0;
}

static int cm_set(struct run *R, int map_fd, __u32 key, __u32 qsize, int prog)
{
	struct bpf_cpumap_val v = { .qsize = qsize };

	v.bpf_prog.fd = R->cpuprog[prog];
	return bpf_map_update_elem(map_fd, &key, &v, 0) ? -errno : 0;
}

static __u32 rnd_qsize(struct run *R)
{
	static const __u32 q[] = { 256, 512, 1024, 2048 };

	return q[rnd(R) % 4];
}

/* Fill a DEVMAP (keys 0..) or DEVMAP_HASH (XT_DMH_BASE + ..) */
static int fill_dm(struct run *R, int fd, int hash, int *shadow)
{
	int k, err;

	for (k = 0; k < R->keys; k++) {
		err = dm_set(R, fd, hash ? XT_DMH_BASE + k : k, k % NT, rnd(R) % 3);
		if (err < 0)
			return err;
		if (shadow)
			shadow[k] = err;
	}
	return 0;
}

static int fill_cm(struct run *R, int fd)
{
	int k, err;

	for (k = 0; k < R->ncpu; k++) {
		err = cm_set(R, fd, k, rnd_qsize(R),
			     R->sc->bug || R->sc->burn_ms ? 0 : rnd(R) % 4);
		if (err)
			return err;
	}
	return 0;
}

static int new_map(enum bpf_map_type type, __u32 max, __u32 vsize)
{
	int fd = bpf_map_create(type, "xt_inner", 4, vsize, max, NULL);

	return fd < 0 ? -errno : fd;
}

/* ---- the topology --------------------------------------------------- */

static int in_ns(struct run *R, int ns)
{
	(void)R;
	return ns_enter(ns);
}

static int attach_xdp(struct run *R, int ns, int ifindex, int prog_fd)
{
	int err = in_ns(R, ns);

	if (!err)
		err = bpf_xdp_attach(ifindex, prog_fd, XDP_FLAGS_DRV_MODE, NULL);
	if (!err)
		err = link_up(ifindex);
	in_ns(R, R->ns_a);
	return err;
}

/* Create target i afresh: a_i in A, b_i in a new namespace, sink on b_i. */
static int target_new(struct run *R, int i)
{
	struct target *t = &R->t[i];
	int err;

	if (t->ns < 0)
		t->ns = ns_new();
	if (t->ns < 0)
		return t->ns;
	t->gen++;
	t->ia = R->next_idx++;
	t->ib = R->next_idx++;
	snprintf(t->na, sizeof(t->na), "a%d_%d", i, t->gen);
	snprintf(t->nb, sizeof(t->nb), "b%d_%d", i, t->gen);
	err = veth_add(t->na, t->ia, t->nb, t->ib, t->ns, R->ncpu);
	if (!err)
		err = attach_xdp(R, t->ns, t->ib, bpf_program__fd(R->sk->progs.xdp_sink));
	if (!err)
		err = link_up(t->ia);
	return err;
}

static int packet_socket(struct run *R, int ns, int ifindex)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL),
		.sll_ifindex = ifindex,
	};
	int prog = bpf_program__fd(R->sk->progs.sock_count);
	int fd, err = in_ns(R, ns);

	if (err)
		return err;
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(ETH_P_ALL));
	if (fd < 0 || bind(fd, (void *)&sll, sizeof(sll)) ||
	    setsockopt(fd, SOL_SOCKET, SO_ATTACH_BPF, &prog, sizeof(prog))) {
		err = -errno;
		if (fd >= 0)
			close(fd);
		fd = err;
	}
	in_ns(R, R->ns_a);
	return fd;
}

static __u32 last_id(int (*next)(__u32, __u32 *))
{
	__u32 id = 0, n;

	while (!next(id, &n))
		id = n;
	return id;
}

/* Ids of maps or programs newer than FIRST still alive: count, print some. */
static int leftovers(const char *what, int (*next)(__u32, __u32 *), __u32 first,
		     int print)
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

static int setup(struct run *R)
{
	struct xdp_teardown *sk;
	int i, err, zero = 0;
	__u32 key = 0;

	R->first_map_id = last_id(bpf_map_get_next_id);
	R->first_prog_id = last_id(bpf_prog_get_next_id);
	R->next_idx = 100;
	for (i = 0; i < XT_DM_ENTRIES; i++)
		R->dm_target[i] = R->dmh_target[i] = -1;
	R->inner_dm = R->inner_cm = R->c1_prog = -1;
	R->c1_maps[0] = R->c1_maps[1] = R->c1_maps[2] = -1;
	R->sock[0] = R->sock[1] = -1;

	sk = xdp_teardown__open_and_load();
	if (!sk) {
		diag("cannot load the BPF programs: %s", strerror(errno));
		return -1;
	}
	R->sk = sk;
	R->egress[0] = 0;
	R->egress[1] = bpf_program__fd(sk->progs.eg_drop8);
	R->egress[2] = bpf_program__fd(sk->progs.eg_pass);
	R->cpuprog[0] = 0;
	R->cpuprog[1] = bpf_program__fd(sk->progs.cpu_redir);
	R->cpuprog[2] = bpf_program__fd(sk->progs.cpu_pass);
	R->cpuprog[3] = bpf_program__fd(sk->progs.cpu_drop);
	if (R->sc->bug)
		R->cpuprog[0] = bpf_program__fd(sk->progs.cpu_seq);
	if (R->sc->burn_ms)
		R->cpuprog[0] = bpf_program__fd(sk->progs.cpu_slow);

	R->ns_root = ns_self();
	R->ns_a = ns_new();
	R->ns_b = ns_new();
	if (R->ns_root < 0 || R->ns_a < 0 || R->ns_b < 0) {
		diag("cannot create network namespaces: %s", strerror(errno));
		return -1;
	}
	err = in_ns(R, R->ns_a);
	for (i = 0; i < NT && !err; i++)
		err = target_new(R, i);
	if (err) {
		diag("cannot create the devmap targets: %s", strerror(-err));
		return -1;
	}
	/* the NAPI pair: c0 here, c1 in B running xdp_src */
	R->c0 = 30;
	R->c1 = 31;
	err = veth_add("c0", R->c0, "c1", R->c1, R->ns_b, R->ncpu);
	if (!err)
		err = attach_xdp(R, R->ns_b, R->c1, bpf_program__fd(sk->progs.xdp_c1));
	if (!err && R->sc->threaded)
		err = napi_threaded(R->ns_b, "c1");
	if (!err)
		err = link_up(R->c0);
	/* the dead end: z0 up, its peer z1 down with a program */
	R->z0 = 40;
	R->z1 = 41;
	if (!err)
		err = veth_add("z0", R->z0, "z1", R->z1, -1, R->ncpu);
	if (!err)
		err = bpf_xdp_attach(R->z1, bpf_program__fd(sk->progs.xdp_sink),
				     XDP_FLAGS_DRV_MODE, NULL);
	if (!err)
		err = link_up(R->z0);
	/* xdp_kick, run by BPF_PROG_TEST_RUN at the end: in the dispatcher too */
	if (!err)
		err = bpf_xdp_attach(R->z0, bpf_program__fd(sk->progs.xdp_kick),
				     XDP_FLAGS_DRV_MODE, NULL);
	/*
	 * Keep xdp_feed in the XDP dispatcher for the whole scenario: else
	 * every BPF_PROG_TEST_RUN call of it adds it to the dispatcher and
	 * removes it again, text-poking bpf_dispatcher_xdp_func twice (see
	 * docs/xdp-teardown.md: under TCG such pokes may end in an int3
	 * Oops, which is not what this stress is about).
	 */
	R->p0 = 50;
	R->p1 = 51;
	if (!err)
		err = veth_add("p0", R->p0, "p1", R->p1, -1, R->ncpu);
	if (!err)
		err = bpf_xdp_attach(R->p1, bpf_program__fd(sk->progs.xdp_feed),
				     XDP_FLAGS_DRV_MODE, NULL);
	/* ... and xdp_src, which only BPF_PROG_TEST_RUN runs */
	if (!err)
		err = bpf_xdp_attach(R->p0, bpf_program__fd(sk->progs.xdp_src),
				     XDP_FLAGS_DRV_MODE, NULL);
	if (err) {
		diag("cannot create the veth pairs: %s", strerror(-err));
		return -1;
	}
	R->sock[0] = packet_socket(R, R->ns_a, R->t[0].ia);
	R->sock[1] = packet_socket(R, R->ns_b, R->c1);
	if (R->sock[0] < 0 || R->sock[1] < 0) {
		diag("cannot open the packet sockets: %s", strerror(errno));
		return -1;
	}

	/* maps */
	err = fill_dm(R, bpf_map__fd(sk->maps.dm), 0, R->dm_target);
	if (!err)
		err = fill_dm(R, bpf_map__fd(sk->maps.dmh), 1, R->dmh_target);
	if (!err)
		err = fill_cm(R, bpf_map__fd(sk->maps.cm));
	if (!err && R->sc->chain)
		err = cm_set(R, bpf_map__fd(sk->maps.cm2), 0, rnd_qsize(R), 3);
	if (!err) {
		__u32 v = R->c0;

		err = bpf_map_update_elem(bpf_map__fd(sk->maps.feed), &key, &v, 0);
		v = R->z0;
		if (!err)
			err = bpf_map_update_elem(bpf_map__fd(sk->maps.dz), &key, &v, 0);
		if (err)
			err = -errno;
	}
	if (!err) {
		R->inner_dm = new_map(BPF_MAP_TYPE_DEVMAP, XT_DM_ENTRIES,
				      sizeof(struct bpf_devmap_val));
		R->inner_cm = new_map(BPF_MAP_TYPE_CPUMAP, XT_MAX_CPUS,
				      sizeof(struct bpf_cpumap_val));
		err = R->inner_dm < 0 ? R->inner_dm : R->inner_cm < 0 ? R->inner_cm : 0;
	}
	if (!err)
		err = fill_dm(R, R->inner_dm, 0, NULL);
	if (!err)
		err = fill_cm(R, R->inner_cm);
	if (!err && (bpf_map_update_elem(bpf_map__fd(sk->maps.outer_dm), &zero,
					 &R->inner_dm, 0) ||
		     bpf_map_update_elem(bpf_map__fd(sk->maps.outer_cm), &zero,
					 &R->inner_cm, 0)))
		err = -errno;
	if (err) {
		diag("cannot fill the maps: %s", strerror(-err));
		return -1;
	}

	/* configuration */
	for (i = 0; i < R->sc->ntr; i++)
		sk->bss->cfg.kinds_tr[i] = R->sc->kinds_tr[i];
	for (i = 0; i < R->sc->nnapi; i++)
		sk->bss->cfg.kinds_napi[i] = R->sc->kinds_napi[i];
	sk->bss->cfg.napi_ifindex = R->c1;
	sk->bss->cfg.dm_keys = R->keys;
	sk->bss->cfg.dmh_keys = R->keys;
	sk->bss->cfg.ncpus = R->ncpu;
	sk->bss->cfg.cm_cross = R->sc->bug;
	sk->bss->cfg.cm_limit = CM_LIMIT;
	if (R->sc->burn_ms) {
		/* CPU 1: under emulate-4.19 RCU's kthreads have CPU 2 */
		sk->bss->cfg.cm_key = 1 + (R->ncpu > 1);
		sk->bss->cfg.burn_ns = R->sc->burn_ms * 1000000u;
		sk->bss->cfg.cm2_key = R->sc->chain;	/* key 0: CPU 0 */
		sk->bss->cfg.cpu_dmh = R->sc->hash;	/* key XT_DMH_BASE */
		/* a ring that drains within the settle time */
		sk->bss->cfg.cm_limit = 16;
	}
	sk->bss->cfg.eg_mod = 8;
	sk->bss->cfg.cpu_dm_keys = R->keys;
	__sync_synchronize();
	sk->bss->cfg.nkinds_napi = R->sc->nnapi;
	sk->bss->cfg.nkinds_tr = R->sc->ntr;
	return 0;
}

/* ---- traffic -------------------------------------------------------- */

static unsigned long total_torn(struct run *R);

struct worker {
	struct run *R;
	int cpu;
	pthread_t th;
};

static void drain(struct run *R)
{
	char buf[64];
	int i;

	for (i = 0; i < 2; i++)
		while (recv(R->sock[i], buf, sizeof(buf), MSG_DONTWAIT) > 0)
			;
}

static void *worker(void *arg)
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
		if (R->sc->nops && frames_seen(R) >= opt.min_frames &&
		    total_torn(R) < opt.min_ops)
			usleep(opt.idle * 1e6);
	}
	return NULL;
}

/* ---- teardown ------------------------------------------------------- */

static int op_dm(struct run *R, int hash, int replace)
{
	int fd = bpf_map__fd(hash ? R->sk->maps.dmh : R->sk->maps.dm);
	int *shadow = hash ? R->dmh_target : R->dm_target;
	int k = rnd(R) % R->keys;
	__u32 key = hash ? XT_DMH_BASE + k : k;
	int t = rnd(R) % NT;
	int err;

	if (!replace && bpf_map_delete_elem(fd, &key) && errno != ENOENT)
		return -errno;
	err = dm_set(R, fd, key, t, rnd(R) % 3);
	pthread_mutex_lock(&R->lock);
	shadow[k] = err < 0 ? -1 : err;
	pthread_mutex_unlock(&R->lock);
	return err < 0 ? err : 0;
}

static int op_cm(struct run *R, int replace)
{
	int chain = R->sc->chain;
	int fd = bpf_map__fd(chain ? R->sk->maps.cm2 : R->sk->maps.cm);
	__u32 key = chain ? 0 : rnd(R) % R->ncpu;
	volatile __u64 *enq = R->sk->bss->cm_enq, *done = R->sk->bss->cm_done;

	if (enq[key] != done[key]) {
		pthread_mutex_lock(&R->lock);
		R->busy++;
		pthread_mutex_unlock(&R->lock);
	}
	if (!replace && bpf_map_delete_elem(fd, &key))
		return -errno;
	/* cm2's entries: any program but cpu_slow (cpuprog[0]) */
	return cm_set(R, fd, key, rnd_qsize(R), chain ? 1 + rnd(R) % 3 : rnd(R) % 4);
}

static int op_map(struct run *R, int cpumap)
{
	int outer = bpf_map__fd(cpumap ? R->sk->maps.outer_cm : R->sk->maps.outer_dm);
	int fd, err, zero = 0, old;

	if (cpumap)
		fd = new_map(BPF_MAP_TYPE_CPUMAP, XT_MAX_CPUS, sizeof(struct bpf_cpumap_val));
	else
		fd = new_map(BPF_MAP_TYPE_DEVMAP, XT_DM_ENTRIES, sizeof(struct bpf_devmap_val));
	if (fd < 0)
		return fd;
	err = cpumap ? fill_cm(R, fd) : fill_dm(R, fd, 0, NULL);
	/* this waits for a grace period: not under the lock */
	if (!err && bpf_map_update_elem(outer, &zero, &fd, 0))
		err = -errno;
	if (err) {
		close(fd);
		return err;
	}
	/*
	 * The outer map held the only other reference of the map it let
	 * go: our fd is the last one.  (Two threads may swap in the other
	 * order than they updated: then we close the fd of the map now in
	 * the outer map, which keeps its own reference; harmless.)
	 */
	pthread_mutex_lock(&R->map_lock[cpumap]);
	if (cpumap) {
		old = R->inner_cm;
		R->inner_cm = fd;
	} else {
		old = R->inner_dm;
		R->inner_dm = fd;
	}
	pthread_mutex_unlock(&R->map_lock[cpumap]);
	close(old);
	pthread_mutex_lock(&R->lock);
	R->torn += cpumap ? R->ncpu : R->keys;	/* its entries, freed with it */
	R->entries_map += cpumap ? R->ncpu : R->keys;
	R->maps_freed++;
	pthread_mutex_unlock(&R->lock);
	return 0;
}

/*
 * A copy of xdp_fwd whose dm, dmh and cm are new maps: loaded from the
 * skeleton's final instructions with those map fds swapped.
 */
static int load_fwd_copy(struct run *R, const int maps[3], enum bpf_attach_type eat)
{
	const struct bpf_program *prog = R->sk->progs.xdp_fwd;
	const struct bpf_insn *in = bpf_program__insns(prog);
	size_t i, n = bpf_program__insn_cnt(prog);
	int old[3] = {
		bpf_map__fd(R->sk->maps.dm), bpf_map__fd(R->sk->maps.dmh),
		bpf_map__fd(R->sk->maps.cm),
	};
	struct bpf_insn *insns;
	int fd, j, swapped = 0;

	insns = malloc(n * sizeof(*insns));
	if (!insns)
		return -ENOMEM;
	memcpy(insns, in, n * sizeof(*insns));
	for (i = 0; i + 1 < n; i++) {
		if (insns[i].code != (BPF_LD | BPF_IMM | BPF_DW))
			continue;
		if (insns[i].src_reg == BPF_PSEUDO_MAP_FD)
			for (j = 0; j < 3; j++)
				if (insns[i].imm == old[j]) {
					insns[i].imm = maps[j];
					swapped++;
					break;
				}
		i++;
	}
	LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = eat);
	fd = swapped ? bpf_prog_load(BPF_PROG_TYPE_XDP, "xt_fwd_copy", "GPL",
				     insns, n, &o) : -ENOENT;
	if (fd < 0 && swapped) {
		fd = -errno;
		diag("loading a copy of xdp_fwd failed: %s", strerror(-fd));
	}
	free(insns);
	return fd;
}

/*
 * Replace the program c1 runs (through xdp_c1's tail call) by a fresh copy
 * of xdp_fwd with maps of its own: the old copy's last reference goes, and
 * with it, after a grace period, its maps' (dev_map_free, cpu_map_free).
 */
static int op_prog(struct run *R)
{
	int maps[3], fd = -1, err = 0, i, zero = 0;

	maps[0] = new_map(BPF_MAP_TYPE_DEVMAP, XT_DM_ENTRIES, sizeof(struct bpf_devmap_val));
	maps[1] = new_map(BPF_MAP_TYPE_DEVMAP_HASH, XT_DM_ENTRIES, sizeof(struct bpf_devmap_val));
	maps[2] = new_map(BPF_MAP_TYPE_CPUMAP, XT_MAX_CPUS, sizeof(struct bpf_cpumap_val));
	for (i = 0; i < 3; i++)
		if (maps[i] < 0 && !err)
			err = maps[i];
	if (!err)
		err = fill_dm(R, maps[0], 0, NULL);
	if (!err)
		err = fill_dm(R, maps[1], 1, NULL);
	if (!err)
		err = fill_cm(R, maps[2]);
	if (err)
		diag("new maps for c1's program: %s", strerror(-err));
	/*
	 * A program array takes programs of its owner's (xdp_c1's) expected
	 * attach type.  libbpf passes BPF_XDP for SEC("xdp") only if its
	 * probe finds the kernel supports expected attach types, which it
	 * makes with a cgroup program: without CONFIG_CGROUP_BPF (our
	 * profiles), 0.  So try what libbpf said, then 0; keep what worked.
	 */
	static int eat = -1;
	int t;

	pthread_mutex_lock(&R->prog_lock);
	for (t = 0; t < 2 && !err; t++) {
		enum bpf_attach_type e = eat >= 0 ? (enum bpf_attach_type)eat : t ? 0 :
			bpf_program__expected_attach_type(R->sk->progs.xdp_c1);

		fd = load_fwd_copy(R, maps, e);
		if (fd < 0) {
			err = fd;
			break;
		}
		if (!bpf_map_update_elem(bpf_map__fd(R->sk->maps.c1_prog), &zero, &fd, 0)) {
			eat = e;
			break;
		}
		err = -errno;
		close(fd);
		fd = -1;
		if (err != -EINVAL || eat >= 0)
			break;
		err = 0;
	}
	if (!err && fd < 0)
		err = -EINVAL;
	if (err)
		diag("cannot replace c1's program: %s", strerror(-err));
	if (err) {
		pthread_mutex_unlock(&R->prog_lock);
		if (fd >= 0)
			close(fd);
		for (i = 0; i < 3; i++)
			if (maps[i] >= 0)
				close(maps[i]);
		return err;
	}
	/* the old copy and its maps lose their last references */
	if (R->c1_prog >= 0) {
		close(R->c1_prog);
		pthread_mutex_lock(&R->lock);
		R->torn += 2 * R->keys + R->ncpu;	/* the entries of its maps */
		R->entries_map += 2 * R->keys + R->ncpu;
		R->maps_freed += 3;
		pthread_mutex_unlock(&R->lock);
	}
	for (i = 0; i < 3; i++) {
		if (R->c1_maps[i] >= 0)
			close(R->c1_maps[i]);
		R->c1_maps[i] = maps[i];
	}
	R->c1_prog = fd;
	pthread_mutex_unlock(&R->prog_lock);
	return 0;
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

static void add_target_stats(struct run *R, int i, struct devstats *d)
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

/* Entries of the DEVMAP(_HASH) FD, keys in use, that point at IFINDEX. */
static int entries_to(struct run *R, int fd, int hash, int ifindex)
{
	struct bpf_devmap_val v;
	int k, n = 0;
	__u32 key;

	for (k = 0; k < R->keys; k++) {
		key = hash ? XT_DMH_BASE + k : k;
		if (!bpf_map_lookup_elem(fd, &key, &v) && (int)v.ifindex == ifindex)
			n++;
	}
	return n;
}

/* The entries of dm, dmh and the inner DEVMAP that point at IFINDEX. */
static int all_entries_to(struct run *R, int ifindex)
{
	int n;

	n = entries_to(R, bpf_map__fd(R->sk->maps.dm), 0, ifindex);
	n += entries_to(R, bpf_map__fd(R->sk->maps.dmh), 1, ifindex);
	pthread_mutex_lock(&R->map_lock[0]);
	n += entries_to(R, R->inner_dm, 0, ifindex);
	pthread_mutex_unlock(&R->map_lock[0]);
	return n;
}

/*
 * Unregister a target while it is a devmap target: NETDEV_UNREGISTER
 * (dev_map_notification()) takes every entry pointing at it out of every
 * devmap and frees it with call_rcu().  Counted: the entries of dm, dmh
 * and the inner DEVMAP that pointed at it just before (looked up), less
 * those still there after (which must be none), then the target is
 * recreated and its entries put back.
 */
static int op_unreg(struct run *R)
{
	int i = 1 + rnd(R) % (NT - 1);	/* a0 is the test_run ingress: keep it */
	int k, gone, left, by_ns, old_ia, err, tries;
	struct target *t = &R->t[i];
	volatile __u32 *dying = R->sk->bss->dying_if;
	int dm = bpf_map__fd(R->sk->maps.dm), dmh = bpf_map__fd(R->sk->maps.dmh);
	struct rtnl_link_stats64 st;
	struct devstats d = { 0 };
	double t0, t1;

	if (pthread_mutex_trylock(&R->target_lock[i]))
		return -EAGAIN;	/* another thread has it */
	/* the entries NETDEV_UNREGISTER will tear down */
	gone = all_entries_to(R, t->ia);
	dying[i] = t->ia;
	__sync_fetch_and_add(&R->sk->bss->ndying, 1);
	add_target_stats(R, i, &d);
	by_ns = rnd(R) % 8 == 0;
	old_ia = t->ia;
	t0 = now();
	if (by_ns) {
		/* the namespace goes: its cleanup unregisters b_i, then a_i */
		close(t->ns);
		t->ns = -1;
		for (tries = 0; tries < 750 && !link_stats(old_ia, &st); tries++)
			usleep(20000);
		err = tries < 750 ? 0 : -ETIMEDOUT;
	} else {
		/* the pair goes; b_i's namespace stays for the next one */
		err = link_del(t->ia);
	}
	t1 = now();
	left = all_entries_to(R, old_ia);
	pthread_mutex_lock(&R->lock);
	R->unreg_left += left;
	gone -= left;
	R->dead.xmit += d.xmit;
	R->dead.xmit_err += d.xmit_err;
	R->dead.tx_dropped += d.tx_dropped;
	R->dead.sink_drops += d.sink_drops;
	R->entries_gone += gone;
	R->torn += gone;
	R->unreg_del += t1 - t0;
	pthread_mutex_unlock(&R->lock);
	if (!err)
		err = target_new(R, i);
	pthread_mutex_lock(&R->lock);
	for (k = 0; k < R->keys && !err; k++) {
		if (R->dm_target[k] == i)
			err = dm_put(R, dm, k, i, rnd(R) % 3);
		if (!err && R->dmh_target[k] == i)
			err = dm_put(R, dmh, XT_DMH_BASE + k, i, rnd(R) % 3);
	}
	R->unreg_new += now() - t1;
	pthread_mutex_unlock(&R->lock);
	pthread_mutex_lock(&R->map_lock[0]);
	for (k = i; k < R->keys && !err; k += NT)
		err = dm_put(R, R->inner_dm, k, i, rnd(R) % 3);
	pthread_mutex_unlock(&R->map_lock[0]);
	__sync_synchronize();
	dying[i] = 0;
	__sync_fetch_and_sub(&R->sk->bss->ndying, 1);
	pthread_mutex_unlock(&R->target_lock[i]);
	return err;
}

static int do_op(struct run *R, int op)
{
	switch (op) {
	case OP_DM_DEL:
		return op_dm(R, 0, 0);
	case OP_DMH_DEL:
		return op_dm(R, 1, 0);
	case OP_DM_REPL:
		return op_dm(R, 0, 1);
	case OP_DMH_REPL:
		return op_dm(R, 1, 1);
	case OP_CM_DEL:
		return op_cm(R, 0);
	case OP_CM_REPL:
		return op_cm(R, 1);
	case OP_MAP_DM:
		return op_map(R, 0);
	case OP_MAP_CM:
		return op_map(R, 1);
	case OP_PROG:
		return op_prog(R);
	case OP_UNREG:
		return op_unreg(R);
	}
	return -EINVAL;
}

/* Entries, maps and programs torn down so far. */
static unsigned long total_torn(struct run *R)
{
	unsigned long n;

	pthread_mutex_lock(&R->lock);
	n = R->torn;
	pthread_mutex_unlock(&R->lock);
	return n;
}

struct tdthread {
	struct run *R;
	unsigned int seed;
	pthread_t th;
};

static void *teardown(void *arg)
{
	struct tdthread *td = arg;
	struct run *R = td->R;

	rnd_state = td->seed;
	if (ns_enter(R->ns_a))
		return NULL;
	while (!R->stop_teardown && R->sc->nops) {
		int op = R->sc->ops[rnd(R) % R->sc->nops];

		/*
		 * Once the teardowns are counted, one thread goes on at a
		 * gentler pace and the others rest: the CPUs go to the traffic.
		 */
		if (total_torn(R) >= opt.min_ops && frames_seen(R) < opt.min_frames) {
			if (td != R->td0) {
				usleep(50000);
				continue;
			}
			usleep(20000);
		}
		volatile __u32 *burning = &R->sk->bss->burning;
		unsigned long long f0 = frames_seen(R);
		int held = *burning;
		double t0 = now(), dt;
		int err = do_op(R, op);
		unsigned long long f1 = frames_seen(R);

		/* under traffic: frames flowed, or cpu_slow held an entry */
		held |= *burning;

		if (err == -EAGAIN)
			continue;
		dt = now() - t0;
		pthread_mutex_lock(&R->lock);
		R->ops[op]++;
		/* one entry; the others count the entries they tear down */
		R->torn += op <= OP_CM_REPL && !err;
		R->op_time[op] += dt;
		if (dt > R->op_max[op])
			R->op_max[op] = dt;
		R->ops_traffic += f1 != f0 || held;
		if (err) {
			R->op_errors++;
			R->last_op_err = err;
			R->last_op = op;
		}
		pthread_mutex_unlock(&R->lock);
	}
	return NULL;
}


/* ---- checks --------------------------------------------------------- */

static int check_failed;

static void expect(int ok, const char *fmt, ...)
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

/* Wait until the counters stop moving and every cpumap ring is empty. */
static int settle(struct run *R, struct counters *c)
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
static int kick_targets(struct run *R)
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

static void evaluate(struct run *R, const struct counters *c, int drained)
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
	expect(!c->c[C_BAD], "%llu frames without our header", c->c[C_BAD]);
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

/* ---- one scenario --------------------------------------------------- */

static int kmsg_fd = -1;

/* What the kernel said since the last look. */
struct kmsg_news {
	int pool_bad;		/* the page_pool lost or doubly freed pages */
	int splat;		/* a report the verdict fails the run for */
};

/*
 * Read the kernel's new messages: the page_pool's reports of lost or
 * doubly freed pages, and the first lines of splats (a subset of the
 * verdict's list: enough to see that the run has failed).
 */
static void kmsg_read(struct kmsg_news *news)
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

static void cleanup(struct run *R)
{
	int i;

	if (R->ns_a >= 0)
		in_ns(R, R->ns_a);
	for (i = 0; i < NT; i++) {
		if (R->t[i].ia)
			link_del(R->t[i].ia);
		if (R->t[i].ns >= 0)
			close(R->t[i].ns);
	}
	link_del(R->c0);
	link_del(R->z0);
	link_del(R->p0);
	for (i = 0; i < 2; i++)
		if (R->sock[i] >= 0)
			close(R->sock[i]);
	if (R->inner_dm >= 0)
		close(R->inner_dm);
	if (R->inner_cm >= 0)
		close(R->inner_cm);
	if (R->c1_prog >= 0)
		close(R->c1_prog);
	for (i = 0; i < 3; i++)
		if (R->c1_maps[i] >= 0)
			close(R->c1_maps[i]);
	xdp_teardown__destroy(R->sk);
	R->sk = NULL;
	if (R->ns_root >= 0) {
		ns_enter(R->ns_root);
		close(R->ns_root);
	}
	if (R->ns_a >= 0)
		close(R->ns_a);
	if (R->ns_b >= 0)
		close(R->ns_b);
}

static int run_scenario(const struct scen *sc, int number)
{
	static struct run run;
	struct run *R = &run;
	struct worker w[XT_MAX_CPUS];
	struct tdthread td[16];
	struct counters c;
	double t0, t;
	struct kmsg_news news = { 0 };
	int i, drained, maps, progs;
	unsigned long ops = 0;

	memset(R, 0, sizeof(*R));
	R->sc = sc;
	R->ns_root = R->ns_a = R->ns_b = -1;
	for (i = 0; i < NT; i++)
		R->t[i].ns = -1;
	pthread_mutex_init(&R->lock, NULL);
	pthread_mutex_init(&R->map_lock[0], NULL);
	pthread_mutex_init(&R->map_lock[1], NULL);
	pthread_mutex_init(&R->prog_lock, NULL);
	for (i = 0; i < NT; i++)
		pthread_mutex_init(&R->target_lock[i], NULL);
	rnd_state = opt.seed * 7919 + number;
	R->keys = sc->keys ? sc->keys : KEYS;
	R->ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	R->nposs = libbpf_num_possible_cpus();
	if (R->ncpu > XT_MAX_CPUS)
		R->ncpu = XT_MAX_CPUS;
	check_failed = 0;
	kmsg_read(&news);
	memset(&news, 0, sizeof(news));
	diag("%s: %s", sc->name, sc->what);
	if (setup(R)) {
		check_failed++;
		goto out;
	}

	t0 = now();
	for (i = 0; i < R->ncpu; i++) {
		w[i].R = R;
		w[i].cpu = i;
		pthread_create(&w[i].th, NULL, worker, &w[i]);
	}
	R->td0 = &td[0];
	for (i = 0; i < (int)opt.threads; i++) {
		td[i].R = R;
		td[i].seed = rnd(R);
		pthread_create(&td[i].th, NULL, teardown, &td[i]);
	}
	for (;;) {
		usleep(100000);
		t = now() - t0;
		ops = total_torn(R);
		if (t >= opt.duration && (!sc->nops || ops >= opt.min_ops) &&
		    frames_seen(R) >= opt.min_frames)
			break;
		if (t >= opt.max_time)
			break;
		kmsg_read(&news);
		if (news.splat) {
			/*
			 * The run has failed.  Threads may be stuck in the
			 * damaged kernel: report and leave without them.
			 */
			diag("failed: the kernel reported a splat after %.1f s: scenario stopped",
			     now() - t0);
			printf("    not ok %d %s\n", number, sc->name);
			fflush(stdout);
			_exit(1);
		}
	}
	R->stop_teardown = 1;
	for (i = 0; i < (int)opt.threads; i++)
		pthread_join(td[i].th, NULL);
	R->stop_workers = 1;
	for (i = 0; i < R->ncpu; i++)
		pthread_join(w[i].th, NULL);
	t = now() - t0;
	drained = !settle(R, &c);
	i = kick_targets(R);
	if (i)
		diag("cannot kick the targets: %s", strerror(-i));
	drained &= !i && !settle(R, &c);
	diag("ran %.1f s on %d CPUs, seed %u, batch %u, repeat %u", t, R->ncpu,
	     opt.seed, opt.batch, opt.repeat);
	evaluate(R, &c, drained);
out:
	cleanup(R);
	/* everything of the scenario must go, once the grace periods pass */
	for (i = 0; i < 300; i++) {
		maps = leftovers("map", bpf_map_get_next_id, R->first_map_id, 0);
		progs = leftovers("program", bpf_prog_get_next_id, R->first_prog_id, 0);
		if (!maps && !progs)
			break;
		usleep(100000);
	}
	if (maps || progs) {
		leftovers("map", bpf_map_get_next_id, R->first_map_id, 1);
		leftovers("program", bpf_prog_get_next_id, R->first_prog_id, 1);
		expect(0, "%d maps and %d programs outlived the scenario by %d s",
		       maps, progs, i / 10);
	} else {
		diag("maps and programs all freed %.1f s after the scenario", i / 10.0);
	}
	kmsg_read(&news);
	expect(!news.pool_bad, "the page_pool reported lost or doubly freed pages");
	printf("    %s %d %s\n", check_failed ? "not ok" : "ok", number, sc->name);
	return check_failed ? -1 : 0;
}

static void usage(void)
{
	int i;

	fprintf(stderr, "usage: xdp-teardown [-d SECONDS] [-t MAX_SECONDS] [-o MIN_OPS] [-f MIN_FRAMES]\n"
		"                    [-s SEED] [-b BATCH] [-r REPEAT] [-w SETTLE] [-i IDLE] [-j THREADS]\n"
		"                    [SCENARIO...]\n"
		"scenarios:");
	for (i = 0; i < N_SCENS; i++)
		fprintf(stderr, " %s", scens[i].name);
	fprintf(stderr, "\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const struct scen *chosen[N_SCENS];
	int n = 0, i, j, ch;

	setvbuf(stdout, NULL, _IOLBF, 0);
	setvbuf(stderr, NULL, _IOLBF, 0);
	while ((ch = getopt(argc, argv, "d:t:o:f:s:b:r:w:i:j:h")) != -1) {
		switch (ch) {
		case 'd': opt.duration = atof(optarg); break;
		case 't': opt.max_time = atof(optarg); break;
		case 'o': opt.min_ops = strtoul(optarg, NULL, 0); break;
		case 'f': opt.min_frames = strtoul(optarg, NULL, 0); break;
		case 's': opt.seed = strtoul(optarg, NULL, 0); break;
		case 'b': opt.batch = strtoul(optarg, NULL, 0); break;
		case 'r': opt.repeat = strtoul(optarg, NULL, 0); break;
		case 'w': opt.settle = atof(optarg); break;
		case 'i': opt.idle = atof(optarg); break;
		case 'j': opt.threads = strtoul(optarg, NULL, 0); break;
		default: usage();
		}
	}
	for (i = optind; i < argc; i++) {
		for (j = 0; j < N_SCENS && strcmp(argv[i], scens[j].name); j++)
			;
		if (j == N_SCENS)
			usage();
		chosen[n++] = &scens[j];
	}
	if (!n)
		for (i = 0; i < N_SCENS; i++)
			if (!scens[i].burn_ms)
				chosen[n++] = &scens[i];
	if (opt.threads < 1 || opt.threads > 16)
		usage();

	kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg_fd >= 0)
		lseek(kmsg_fd, 0, SEEK_END);
	libbpf_set_strict_mode(LIBBPF_STRICT_ALL);

	printf("KTAP version 1\n1..1\n");
	printf("    KTAP version 1\n    # Subtest: xdp_teardown\n    1..%d\n", n);
	for (i = 0; i < n; i++)
		if (run_scenario(chosen[i], i + 1))
			failed_cases++;
	printf("%s 1 xdp_teardown\n", failed_cases ? "not ok" : "ok");
	return failed_cases ? 1 : 0;
}
