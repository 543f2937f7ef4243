// SPDX-License-Identifier: GPL-2.0
/*
 * BPF programs of the xdp-teardown stress.
 *
 *  xdp_src     the source: runs under BPF_PROG_TEST_RUN (live frames) and
 *              as the native XDP program of the NAPI veth; stamps each
 *              frame and redirects it through the maps under test
 *  xdp_c1      the NAPI veth's program: tail-calls the program in c1_prog
 *              (map_free puts copies of xdp_fwd there), else runs xdp_src
 *  xdp_feed    BPF_PROG_TEST_RUN program that feeds the NAPI veth
 *  xdp_kick    BPF_PROG_TEST_RUN program that flushes a target's ring
 *  xdp_sink    native XDP program of every target's peer: counts, drops
 *  eg_drop8, eg_pass          devmap egress programs
 *  cpu_redir, cpu_pass, cpu_drop, cpu_seq, cpu_slow    cpumap programs
 *  sock_count  socket filter counting cpumap frames that reach the stack
 *
 * Counters are per-CPU (map "cnt"); the cpumap flow control uses shared
 * atomics (cm_enq, cm_done) so that no cpumap ring ever overflows: the
 * kernel reports ring overflow only through a tracepoint, so frames must
 * not be lost there for the accounting to be exact.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "xdp_teardown.h"


struct xt_cfg cfg;
__u32 dying_if[XT_MAX_TARGETS];	/* ifindexes of targets being unregistered */
__u32 ndying;
__u64 cm_enq[XT_MAX_CPUS];
__u64 cm_done[XT_MAX_CPUS];
__u64 seen[XT_MAX_CPUS];		/* xdp_src runs, per CPU, for the guest to poll */
__u32 holding;			/* cpu_slow holds an entry: the hold's number */
__u32 holds;			/* cpu_slow: holds begun */
__u32 release;			/* the guest: the number of the hold it let go */

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, N_COUNTERS);
	__type(key, __u32);
	__type(value, __u64);
} cnt SEC(".maps");

/* per-CPU state: [0] rotation, [1] sequence */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} state SEC(".maps");

/* cpu_seq: last sequence seen per source CPU, per consuming CPU */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, XT_MAX_CPUS);
	__type(key, __u32);
	__type(value, __u64);
} last_seq SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, XT_DM_ENTRIES);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} dm SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__uint(max_entries, XT_DM_ENTRIES);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} dmh SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_CPUMAP);
	__uint(max_entries, XT_MAX_CPUS);
	__type(key, __u32);
	__type(value, struct bpf_cpumap_val);
} cm SEC(".maps");

/* cpu_slow's way on (cpumap_cpumap_slow): its entries never run cpu_slow */
struct {
	__uint(type, BPF_MAP_TYPE_CPUMAP);
	__uint(max_entries, XT_MAX_CPUS);
	__type(key, __u32);
	__type(value, struct bpf_cpumap_val);
} cm2 SEC(".maps");

/* the feeder's way to the NAPI veth */
struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} feed SEC(".maps");

/* cpu_seq's dead end: a veth whose peer is down */
struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} dz SEC(".maps");

/*
 * xdp_kick's way to each target, no egress program: a frame sent with
 * XDP_XMIT_FLUSH, so that the target's NAPI runs.  devmap's bq_xmit_all()
 * skips ndo_xdp_xmit(), and so the flush, when the egress program dropped
 * every frame of the last bulk: frames an earlier full bulk put into the
 * peer's ring without a flush then wait there for the next one.
 */
struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, XT_MAX_TARGETS);
	__type(key, __u32);
	__type(value, __u32);
} kick SEC(".maps");

__u32 kick_key;

/* c1's program copy (map_free): see xdp_c1 */
struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} c1_prog SEC(".maps");

struct dm_inner {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, XT_DM_ENTRIES);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
};

struct cm_inner {
	__uint(type, BPF_MAP_TYPE_CPUMAP);
	__uint(max_entries, XT_MAX_CPUS);
	__type(key, __u32);
	__type(value, struct bpf_cpumap_val);
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, __u32);
	__array(values, struct dm_inner);
} outer_dm SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, __u32);
	__array(values, struct cm_inner);
} outer_cm SEC(".maps");

static __always_inline void count_n(__u32 idx, __u64 n)
{
	__u64 *v = bpf_map_lookup_elem(&cnt, &idx);

	if (v)
		*v += n;
}

static __always_inline void count(__u32 idx)
{
	count_n(idx, 1);
}

static __always_inline __u64 next_state(__u32 idx)
{
	__u64 *v = bpf_map_lookup_elem(&state, &idx);

	if (!v)
		return 0;
	return (*v)++;
}

static __always_inline struct xt_pkt *pkt_of(void *data, void *data_end)
{
	struct xt_pkt *p = data;

	if ((void *)(p + 1) > data_end || p->proto != __builtin_bswap16(XT_ETH_P) ||
	    p->magic != XT_MAGIC)
		return 0;
	return p;
}

/*
 * A frame without our header: counted, and counted again as shifted when
 * the header sits sizeof(struct xdp_frame) bytes in.  That is how
 * xdpf_clone() copies a BPF_PROG_TEST_RUN live frame on a kernel that
 * keeps the frame's xdp_frame in front of data_hard_start (6.1; upstream
 * v6.3, 294635a8165a, put it at data_hard_start): it copies from the
 * xdp_frame on, so the copy's data begins that many bytes early.  The
 * copy is as long as the frame, so only the header's first 24 bytes are
 * in it: proto and magic are compared.
 */
static __always_inline void count_bad(void *data, void *data_end)
{
	struct xt_pkt *p = data + XT_SHIFT;

	count(C_BAD);
	if ((void *)&p->cpu <= data_end /* proto and magic in the frame */ &&
	    p->proto == __builtin_bswap16(XT_ETH_P) &&
	    p->magic == XT_MAGIC)
		count(C_SHIFTED);
}

/*
 * An index into a global array, masked where the verifier can see it:
 * clang drops a mask it can prove useless, so hide the value from it.
 */
static __always_inline __u32 idx(__u32 v, __u32 pow2)
{
	asm volatile("" : "+r"(v));
	return v & (pow2 - 1);
}

static __always_inline __u32 rd(const volatile __u32 *p)
{
	return *p;
}

/* cpumap flow control: take a slot in key's ring, or refuse. */
static __always_inline int cm_take(__u32 key)
{
	__u64 enq, done;

	if (key >= XT_MAX_CPUS)
		return 0;
	key = idx(key, XT_MAX_CPUS);
	enq = *(volatile __u64 *)&cm_enq[key];
	done = *(volatile __u64 *)&cm_done[key];
	if (enq - done >= rd(&cfg.cm_limit))
		return 0;
	__sync_fetch_and_add(&cm_enq[key], 1);
	return 1;
}

static __always_inline void cm_give(__u32 key)
{
	if (key < XT_MAX_CPUS)
		__sync_fetch_and_add(&cm_done[idx(key, XT_MAX_CPUS)], 1);
}

/* Count a frame whose devmap entry points at a target being unregistered. */
static __always_inline void dying_check(void *map, __u32 key)
{
	struct bpf_devmap_val *v;
	__u32 i;

	if (!rd(&ndying))
		return;
	v = bpf_map_lookup_elem(map, &key);
	if (!v)
		return;
	for (i = 0; i < XT_MAX_TARGETS; i++) {
		if (rd(&dying_if[i]) && rd(&dying_if[i]) == v->ifindex) {
			count(C_DYING);
			return;
		}
	}
}

static __always_inline int src(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct xt_pkt *p = pkt_of(data, data_end);
	__u32 napi, nk, kind, cpu, key = 0, n;
	__u64 i;
	long r;
	void *inner;

	if (!p) {
		count_bad(data, data_end);
		return XDP_DROP;
	}
	cpu = bpf_get_smp_processor_id();
	if (cpu < XT_MAX_CPUS)
		seen[idx(cpu, XT_MAX_CPUS)]++;
	napi = ctx->ingress_ifindex == rd(&cfg.napi_ifindex);
	count(napi ? C_SRC_NAPI : C_SRC_TR);
	nk = napi ? rd(&cfg.nkinds_napi) : rd(&cfg.nkinds_tr);
	if (!nk || nk > XT_MAX_KINDS)
		return XDP_DROP;
	i = next_state(0);
	key = idx(i % nk, XT_MAX_KINDS);
	kind = napi ? rd(&cfg.kinds_napi[key]) : rd(&cfg.kinds_tr[key]);
	i /= nk;
	p->kind = kind;
	p->flags = 0;
	p->cpu = cpu;
	p->seq = next_state(1) + 1;

	switch (kind) {
	case K_DM:
	case K_ODM:
		n = rd(&cfg.dm_keys);
		key = n ? i % n : 0;
		if (kind == K_DM) {
			dying_check(&dm, key);
			r = bpf_redirect_map(&dm, key, XDP_ABORTED);
		} else {
			__u32 zero = 0;

			inner = bpf_map_lookup_elem(&outer_dm, &zero);
			if (inner)
				dying_check(inner, key);
			r = inner ? bpf_redirect_map(inner, key, XDP_ABORTED) : XDP_ABORTED;
		}
		break;
	case K_DMH:
		n = rd(&cfg.dmh_keys);
		key = XT_DMH_BASE + (n ? i % n : 0);
		dying_check(&dmh, key);
		r = bpf_redirect_map(&dmh, key, XDP_ABORTED);
		break;
	case K_BC:
	case K_BCH:
		/*
		 * A broadcast reaches every entry: while a target is being
		 * unregistered, count the copies that may go to it as at
		 * most one per key in use.
		 */
		if (rd(&ndying))
			count_n(C_DYING, kind == K_BC ? rd(&cfg.dm_keys) : rd(&cfg.dmh_keys));
		if (kind == K_BC)
			r = bpf_redirect_map(&dm, 0, BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS);
		else
			r = bpf_redirect_map(&dmh, 0, BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS);
		break;
	case K_CM:
	case K_OCM:
		n = rd(&cfg.ncpus);
		if (!n)
			return XDP_DROP;
		if (rd(&cfg.cm_key))
			key = rd(&cfg.cm_key) - 1;
		else
			key = rd(&cfg.cm_cross) ? (cpu + 1) % n : i % n;
		if (!cm_take(key)) {
			count(C_THROTTLE);
			return XDP_DROP;
		}
		if (kind == K_CM) {
			r = bpf_redirect_map(&cm, key, XDP_ABORTED);
		} else {
			__u32 zero = 0;

			inner = bpf_map_lookup_elem(&outer_cm, &zero);
			r = inner ? bpf_redirect_map(inner, key, XDP_ABORTED) : XDP_ABORTED;
		}
		if (r != XDP_REDIRECT)
			cm_give(key);
		break;
	default:
		return XDP_DROP;
	}
	if (kind >= N_KINDS)
		return XDP_DROP;
	if (r == XDP_REDIRECT) {
		count(C_REDIR + kind);
		return XDP_REDIRECT;
	}
	count(C_MISS + kind);
	return XDP_DROP;
}

SEC("xdp")
int xdp_src(struct xdp_md *ctx)
{
	return src(ctx);
}

/*
 * xdp_c1: the NAPI veth c1's program.  Replacing an attached XDP program
 * rewrites the XDP dispatcher's text (bpf_dispatcher_change_prog()); under
 * TCG a CPU running the dispatcher at that moment may take the int3 of the
 * text poke as an Oops (docs/xdp-teardown.md).  So c1's program stays, and
 * map_free replaces the program it tail-calls: the old copy, and its maps,
 * lose their last reference all the same while frames flow.  The key is
 * read at run time (c1_key, always 0): with a constant key the JIT emits
 * a direct tail call, whose jump is text-poked on every update of c1_prog,
 * and the same int3 Oops came back (once in ten debug boots).
 */
__u32 c1_key;

SEC("xdp")
int xdp_c1(struct xdp_md *ctx)
{
	bpf_tail_call(ctx, &c1_prog, rd(&c1_key));
	return src(ctx);
}

/*
 * xdp_fwd: a lean xdp_src for the NAPI veth, DEVMAP, DEVMAP_HASH and
 * CPUMAP in turn.  The map_free scenario loads copies of it, each with
 * maps of its own, and replaces c1's program with them: cheap to verify.
 */
SEC("xdp")
int xdp_fwd(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct xt_pkt *p = pkt_of(data, data_end);
	__u32 kind, cpu, key, n;
	__u64 i;
	long r;

	if (!p) {
		count_bad(data, data_end);
		return XDP_DROP;
	}
	cpu = bpf_get_smp_processor_id();
	if (cpu < XT_MAX_CPUS)
		seen[idx(cpu, XT_MAX_CPUS)]++;
	count(C_SRC_NAPI);
	i = next_state(0);
	kind = i % 3 == 0 ? K_DM : i % 3 == 1 ? K_DMH : K_CM;
	i /= 3;
	p->kind = kind;
	p->flags = 0;
	p->cpu = cpu;
	p->seq = next_state(1) + 1;
	if (kind == K_CM) {
		n = rd(&cfg.ncpus);
		key = n ? i % n : 0;
		if (!cm_take(key)) {
			count(C_THROTTLE);
			return XDP_DROP;
		}
		r = bpf_redirect_map(&cm, key, XDP_ABORTED);
		if (r != XDP_REDIRECT)
			cm_give(key);
	} else {
		n = rd(&cfg.dm_keys);
		key = n ? i % n : 0;
		if (kind == K_DM)
			r = bpf_redirect_map(&dm, key, XDP_ABORTED);
		else
			r = bpf_redirect_map(&dmh, XT_DMH_BASE + key, XDP_ABORTED);
	}
	if (r == XDP_REDIRECT) {
		count(C_REDIR + kind);
		return XDP_REDIRECT;
	}
	count(C_MISS + kind);
	return XDP_DROP;
}

SEC("xdp")
int xdp_feed(struct xdp_md *ctx)
{
	long r = bpf_redirect_map(&feed, 0, XDP_ABORTED);

	(void)ctx;
	if (r == XDP_REDIRECT) {
		count(C_FEED);
		return XDP_REDIRECT;
	}
	count(C_FEED_MISS);
	return XDP_DROP;
}

SEC("xdp")
int xdp_kick(struct xdp_md *ctx)
{
	long r = bpf_redirect_map(&kick, rd(&kick_key), XDP_ABORTED);

	(void)ctx;
	if (r == XDP_REDIRECT) {
		count(C_KICK);
		return XDP_REDIRECT;
	}
	return XDP_DROP;
}

SEC("xdp")
int xdp_sink(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct xt_pkt *p = pkt_of(data, data_end);

	if (!p)
		count_bad(data, data_end);
	else if (p->kind >= N_KINDS)
		count(C_BAD);
	else
		count(C_SINK + p->kind);
	return XDP_DROP;
}

static __always_inline int egress(struct xdp_md *ctx, int may_drop)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct xt_pkt *p = pkt_of(data, data_end);
	__u32 mod = rd(&cfg.eg_mod);

	if (!p) {
		count_bad(data, data_end);
		return XDP_PASS;
	}
	if (p->kind >= N_KINDS) {
		count(C_BAD);
		return XDP_PASS;
	}
	count(C_EG_SEEN + p->kind);
	if (may_drop && mod && p->seq % mod == 0) {
		count(C_EG_DROP + p->kind);
		return XDP_DROP;
	}
	return XDP_PASS;
}

SEC("xdp/devmap")
int eg_drop8(struct xdp_md *ctx)
{
	return egress(ctx, 1);
}

SEC("xdp/devmap")
int eg_pass(struct xdp_md *ctx)
{
	return egress(ctx, 0);
}

/* Common head of the cpumap programs: count, mark, give the slot back. */
static __always_inline struct xt_pkt *cpu_head(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct xt_pkt *p = pkt_of(data, data_end);

	cm_give(bpf_get_smp_processor_id());
	count(C_CPU_SEEN);
	if (!p) {
		count_bad(data, data_end);
		return 0;
	}
	p->flags |= XT_F_CPUPROG;
	return p;
}

static __always_inline int cpu_to(void *map, struct xt_pkt *p, __u32 key)
{
	long r;

	p->kind = K_CPU_DM;
	r = bpf_redirect_map(map, key, XDP_ABORTED);
	if (r == XDP_REDIRECT) {
		count(C_CPU_REDIR);
		count(C_REDIR + K_CPU_DM);
		return XDP_REDIRECT;
	}
	count(C_CPU_MISS);
	return XDP_DROP;
}

SEC("xdp/cpumap")
int cpu_redir(struct xdp_md *ctx)
{
	struct xt_pkt *p = cpu_head(ctx);
	__u32 n = rd(&cfg.cpu_dm_keys);

	if (!p) {
		count(C_CPU_DROP);
		return XDP_DROP;
	}
	n = n ? p->seq % n : 0;
	dying_check(&dm, n);
	return cpu_to(&dm, p, n);
}

struct hold {
	__u64 end;
	__u32 n;
	int done;
};

static long hold_cb(__u64 i, void *ctx)
{
	struct hold *h = ctx;

	(void)i;
	if (rd(&release) == h->n || !rd(&cfg.hold_ns))
		h->done = 1;
	else if (bpf_ktime_get_ns() >= h->end)
		h->done = 2;
	return h->done != 0;
}

/* bpf_loop() runs at most 1 << 23 times: as many of those as it takes */
static long hold_outer_cb(__u64 i, void *ctx)
{
	struct hold *h = ctx;

	(void)i;
	bpf_loop(1 << 23, hold_cb, h, 0);
	return h->done != 0;
}

/*
 * Hold the entry a redirect just looked up until the guest lets it go
 * (release is the hold's number, or cfg.hold_ns 0: no more holds), or
 * cfg.hold_ns passed: then count it.
 */
static __always_inline void hold(void)
{
	struct hold h = { .n = ++holds };	/* one kthread runs cpu_slow */

	h.end = bpf_ktime_get_ns() + rd(&cfg.hold_ns);
	holding = h.n;
	bpf_loop(1 << 10, hold_outer_cb, &h, 0);
	holding = 0;
	count(C_HOLD);
	if (h.done != 1)
		count(C_HOLD_CAP);
}

/*
 * cpu_slow: a redirect into DEVMAP key 0 (with cfg.cpu_dmh, DEVMAP_HASH
 * key XT_DMH_BASE; with cfg.cm2_key, cm2 key cm2_key - 1), then a hold of
 * the entry it looked up before returning.  The cpumap kthread runs its
 * program under rcu_read_lock_bh() only (cpu_map_bpf_prog_run());
 * bpf_redirect_map() leaves the entry it looked up
 * (__dev_map_lookup_elem(), __cpu_map_lookup_elem()) in bpf_redirect_info,
 * and only after the program returns does xdp_do_redirect() dereference
 * it (dev_map_enqueue(), cpu_map_enqueue()).  The hold widens that window
 * from microseconds to as long as the guest needs (hold.c): it deletes or
 * replaces the entry meanwhile and watches for its free, which must wait
 * for the end of the hold unless grace periods ignore bh-disabled regions
 * (no flavor consolidation).  With cfg.hold_drop the frame is dropped
 * after the hold instead, and the entry never used: holds can be counted
 * on a kernel that frees early, without its crash.
 */
SEC("xdp/cpumap")
int cpu_slow(struct xdp_md *ctx)
{
	struct xt_pkt *p = cpu_head(ctx);
	__u32 key = 0, kind = rd(&cfg.cm2_key) ? K_CPU_CM : K_CPU_DM;
	long r;

	if (!p) {
		count(C_CPU_DROP);
		return XDP_DROP;
	}
	p->kind = kind;
	if (kind == K_CPU_CM) {
		key = rd(&cfg.cm2_key) - 1;
		if (!cm_take(key)) {
			count(C_CPU_DROP);
			return XDP_DROP;
		}
		r = bpf_redirect_map(&cm2, key, XDP_ABORTED);
	} else {
		if (rd(&cfg.cpu_dmh))
			r = bpf_redirect_map(&dmh, XT_DMH_BASE, XDP_ABORTED);
		else
			r = bpf_redirect_map(&dm, 0, XDP_ABORTED);
	}
	if (r == XDP_REDIRECT) {
		if (rd(&cfg.hold_ns))
			hold();
		if (!rd(&cfg.hold_drop)) {
			count(C_CPU_REDIR);
			count(C_REDIR + kind);
			return XDP_REDIRECT;
		}
		count(C_CPU_DROP);
	} else {
		count(C_CPU_MISS);
	}
	if (kind == K_CPU_CM)
		cm_give(key);
	return XDP_DROP;
}

SEC("xdp/cpumap")
int cpu_pass(struct xdp_md *ctx)
{
	cpu_head(ctx);
	count(C_CPU_PASS);
	return XDP_PASS;
}

SEC("xdp/cpumap")
int cpu_drop(struct xdp_md *ctx)
{
	cpu_head(ctx);
	count(C_CPU_DROP);
	return XDP_DROP;
}

/*
 * cpu_seq: frames of one source CPU reach a cpumap entry in the order the
 * source stamped them (per-CPU bulk queue, FIFO ring), so a sequence that
 * does not grow means a frame was seen twice: its page was handed out
 * twice by a corrupted page_pool cache.  Then into the dead end.
 */
SEC("xdp/cpumap")
int cpu_seq(struct xdp_md *ctx)
{
	struct xt_pkt *p = cpu_head(ctx);
	__u32 src;
	__u64 *last;

	if (!p) {
		count(C_CPU_DROP);
		return XDP_DROP;
	}
	src = p->cpu;
	last = bpf_map_lookup_elem(&last_seq, &src);
	if (last) {
		if (*last && p->seq <= *last)
			count(C_SEQ_ERR);
		else
			count(C_SEQ_OK);
		*last = p->seq;
	}
	return cpu_to(&dz, p, 0);
}

SEC("socket")
int sock_count(struct __sk_buff *skb)
{
	struct xt_pkt p;

	if (bpf_skb_load_bytes(skb, 0, &p, sizeof(p)) ||
	    p.proto != __builtin_bswap16(XT_ETH_P) || p.magic != XT_MAGIC)
		return 0;
	count(C_SOCK);
	if (!(p.flags & XT_F_CPUPROG)) {
		count(C_SOCK_NOPROG);
		cm_give(bpf_get_smp_processor_id());
	}
	return 1;
}

char LICENSE[] SEC("license") = "GPL";
