/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xdp-teardown: what the BPF programs and the guest program share.
 *
 * Every frame the stress sends carries a struct xt_pkt: the source program
 * stamps how it redirected the frame (kind), its CPU and a per-CPU sequence
 * number, so that every later program (devmap egress, cpumap, the sinks,
 * the socket filters) can count the frame under the path it took.
 */
#ifndef XDP_TEARDOWN_H
#define XDP_TEARDOWN_H

#define XT_ETH_P	0x88B5		/* IEEE local experimental ethertype */
#define XT_MAGIC	0x58445054	/* "XDPT" */
#define XT_MAX_CPUS	8
#define XT_MAX_TARGETS	8		/* veth pairs a devmap can point at */
#define XT_MAX_KINDS	8
#define XT_DM_ENTRIES	256		/* DEVMAP, DEVMAP_HASH max_entries */
#define XT_DMH_BASE	100		/* DEVMAP_HASH keys: base + index */
#define XT_PKT_LEN	64
#define XT_SHIFT	40		/* 6.1's sizeof(struct xdp_frame), x86-64 */

/* How a source program redirected a frame (xt_pkt.kind). */
enum xt_kind {
	K_DM,		/* DEVMAP, one key */
	K_DMH,		/* DEVMAP_HASH, one key */
	K_CM,		/* CPUMAP, one CPU */
	K_BC,		/* DEVMAP, BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS */
	K_BCH,		/* DEVMAP_HASH, the same */
	K_ODM,		/* a DEVMAP found in an ARRAY_OF_MAPS */
	K_OCM,		/* a CPUMAP found in an ARRAY_OF_MAPS */
	K_CPU_DM,	/* a cpumap program's redirect into a DEVMAP */
	K_CPU_CM,	/* a cpumap program's redirect into another CPUMAP (cm2) */
	N_KINDS
};

/* xt_pkt.flags */
#define XT_F_CPUPROG	1	/* a cpumap program has seen the frame */

struct xt_pkt {
	unsigned char dst[6];
	unsigned char src[6];
	unsigned short proto;
	unsigned char kind;
	unsigned char flags;
	unsigned int magic;
	unsigned int cpu;
	unsigned int seq;
};

/* Configuration, in the programs' .bss: the guest program writes it. */
struct xt_cfg {
	unsigned int kinds_tr[XT_MAX_KINDS];	/* kinds used under test_run */
	unsigned int nkinds_tr;
	unsigned int kinds_napi[XT_MAX_KINDS];	/* kinds used in the NAPI veth */
	unsigned int nkinds_napi;
	unsigned int napi_ifindex;		/* ingress of the NAPI veth */
	unsigned int dm_keys;			/* DEVMAP keys in use: 0..dm_keys-1 */
	unsigned int dmh_keys;			/* DEVMAP_HASH: XT_DMH_BASE + 0.. */
	unsigned int ncpus;			/* CPUMAP keys: 0..ncpus-1 */
	unsigned int cm_cross;			/* CPUMAP key: the next CPU, not a rotation */
	unsigned int cm_limit;			/* frames in flight per cpumap key */
	unsigned int eg_mod;			/* eg_drop8 drops seq % eg_mod == 0 */
	unsigned int cpu_dm_keys;		/* cpu_redir: DEVMAP keys it uses */
	unsigned int cm_key;			/* CPUMAP key: cm_key - 1 always, if set */
	unsigned int hold_ns;			/* cpu_slow: longest hold of an entry */
	unsigned int hold_drop;			/* cpu_slow: drop the frame after a hold */
	unsigned int cm2_key;			/* cpu_slow: into cm2 key cm2_key - 1, if set */
	unsigned int cpu_dmh;			/* cpu_slow: into DEVMAP_HASH, not DEVMAP */
};

/* Per-CPU counters: index of the "cnt" PERCPU_ARRAY. */
enum xt_counter {
	C_SRC_TR,	/* source program runs under BPF_PROG_TEST_RUN */
	C_SRC_NAPI,	/* source program runs in veth's NAPI poll */
	C_THROTTLE,	/* cpumap flow control held a frame back (XDP_DROP) */
	C_DYING,	/* redirected towards a target being unregistered */
	C_FEED,		/* feeder redirected a frame to the NAPI veth */
	C_FEED_MISS,
	C_BAD,		/* a frame without our header */
	C_SEQ_ERR,	/* cpumap saw a frame out of its source's order */
	C_SEQ_OK,
	C_CPU_SEEN,	/* cpumap programs */
	C_CPU_PASS,
	C_CPU_DROP,
	C_CPU_REDIR,
	C_CPU_MISS,
	C_SOCK,		/* socket filters: cpumap frames reaching the stack */
	C_SOCK_NOPROG,	/* ... that no cpumap program had seen */
	C_KICK,		/* xdp_kick: frames that flushed a target's ring */
	C_REDIR = 17,	/* + kind: bpf_redirect_map() returned XDP_REDIRECT */
	C_MISS = C_REDIR + N_KINDS,	/* + kind: it did not (no entry) */
	C_EG_SEEN = C_MISS + N_KINDS,	/* + kind: devmap egress programs */
	C_EG_DROP = C_EG_SEEN + N_KINDS,
	C_SINK = C_EG_DROP + N_KINDS,	/* + kind: received at a target */
	C_HOLD = C_SINK + N_KINDS,	/* cpu_slow held an entry */
	C_HOLD_CAP,			/* ... until cfg.hold_ns, not let go */
	C_SHIFTED,	/* C_BAD, with our header XT_SHIFT bytes in */
	N_COUNTERS
};

#endif /* XDP_TEARDOWN_H */
