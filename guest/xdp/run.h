/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xdp-teardown: what its files share.  struct run is the state of one
 * scenario (its network, maps, threads and counts), struct scen a row of
 * the scenario table in main.c; below them, what each file offers the
 * others: setup.c the network and the map entries, traffic.c the workers
 * that send the frames, teardown.c the teardown operations and their
 * threads, check.c the counters, the checks and the kernel's messages.
 */
#ifndef XT_RUN_H
#define XT_RUN_H

#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <net/if.h>
#include <linux/if_link.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "xdp_teardown.h"
#include "xdp_teardown.skel.h"

#define NT		4	/* devmap targets */
#define KEYS		8	/* devmap keys in use, unless a scenario says */
#define CM_LIMIT	192	/* cpumap frames in flight per key */
#define VETH_RING	256	/* VETH_RING_SIZE */
#define BULK		16	/* DEV_MAP_BULK_SIZE */
#define MIN_HOLDS	3	/* hold scenarios: holds that saw a teardown */
#define HOLD_MS		2000	/* the hold scenarios' hold_ms */
#define HOLD_SLACK_MS	2000	/* cpu_slow's limit: hold_ms and this */
_Static_assert((HOLD_MS + HOLD_SLACK_MS) * 1000000ULL <= 0xffffffffULL,
	       "cpu_slow's limit must fit cfg.hold_ns, 32 bits of ns");
#define FREE_SETTLE_US	50000	/* from the entry's program gone to its kfree() */

/* The options (main.c). */
struct opts {
	double duration, max_time, settle, idle;
	unsigned long min_ops, min_frames;
	unsigned int seed, batch, repeat, threads;
	int hold_drop;		/* -n: cpu_slow drops the frame after a hold */
};

extern struct opts opt;

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

extern const char *const op_name[N_OPS];

/* A scenario: a row of the table in main.c. */
struct scen {
	const char *name;
	const char *what;
	int kinds_tr[XT_MAX_KINDS], ntr;
	int kinds_napi[XT_MAX_KINDS], nnapi;
	int ops[16], nops;		/* weighted: an op may appear twice */
	int bug;			/* the cpumap direct-return scenario */
	int keys;			/* DEVMAP and DEVMAP_HASH keys in use */
	int hold_ms;			/* cpu_slow's holds: this long at most (hold.c) */
	int chain;			/* ... redirecting into cm2, not a devmap */
	int hash;			/* ... into DEVMAP_HASH, not DEVMAP */
	int threaded;			/* c1's NAPI polls in kthreads */
};

/* A devmap target: a_i in A, its peer b_i with the sink in a namespace of its own. */
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

/* The state of the running scenario. */
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
	__u32 last_hold;		/* hold.c: the last hold it tore down under */
	unsigned long holds, holds_waited, holds_freed, holds_late, holds_unknown;
	double free_ms_sum, free_ms_max;
	int dm_target[XT_DM_ENTRIES];	/* shadow: key -> target, -1 none */
	int dmh_target[XT_DM_ENTRIES];
};

/* The BPF programs' counters, summed over the CPUs. */
struct counters {
	unsigned long long c[N_COUNTERS];
};

/* What the kernel said since the last look. */
struct kmsg_news {
	int pool_bad;		/* the page_pool lost or doubly freed pages */
	int splat;		/* a report the verdict fails the run for */
};

/* A traffic worker, one a CPU. */
struct worker {
	struct run *R;
	int cpu;
	pthread_t th;
};

/* A teardown thread. */
struct tdthread {
	struct run *R;
	unsigned int seed;
	pthread_t th;
};

static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Each thread draws from its own sequence, seeded from -s (main.c). */
extern __thread unsigned int rnd_state;

static inline unsigned int rnd(struct run *R)
{
	(void)R;
	return rand_r(&rnd_state);
}

/* setup.c: the network, the maps and their entries */
int dm_set_prog(struct run *R, int map_fd, __u32 key, int target, int prog);
int dm_set(struct run *R, int map_fd, __u32 key, int target, int eg);
int cm_set_prog(int map_fd, __u32 key, __u32 qsize, int prog);
int dm_put(struct run *R, int map_fd, __u32 key, int target, int eg);
int cm_set(struct run *R, int map_fd, __u32 key, __u32 qsize, int prog);
__u32 rnd_qsize(struct run *R);
int fill_dm(struct run *R, int fd, int hash, int *shadow);
int fill_cm(struct run *R, int fd);
int new_map(enum bpf_map_type type, __u32 max, __u32 vsize);
int in_ns(struct run *R, int ns);
int target_new(struct run *R, int i);
int setup(struct run *R);
void cleanup(struct run *R);

/* traffic.c */
void *worker(void *arg);

/* teardown.c */
unsigned long total_torn(struct run *R);
void *teardown(void *arg);

/* hold.c */
int hold_cpu(struct run *R);
int hold_put(struct run *R);
int hold_once(struct run *R, int replace);
void hold_stop(struct run *R);
unsigned long holds_torn(struct run *R);
void hold_evaluate(struct run *R, const struct counters *c);

/* check.c: counters, checks, KTAP diagnostics, the kernel's messages */
extern int check_failed;
void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void expect(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
unsigned long long frames_seen(struct run *R);
void add_target_stats(struct run *R, int i, struct devstats *d);
int leftovers(const char *what, int (*next)(__u32, __u32 *), __u32 first, int print);
int settle(struct run *R, struct counters *c);
int kick_targets(struct run *R);
void evaluate(struct run *R, const struct counters *c, int drained);
void kmsg_open(void);
void kmsg_read(struct kmsg_news *news);

#endif /* XT_RUN_H */
