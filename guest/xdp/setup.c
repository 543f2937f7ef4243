// SPDX-License-Identifier: GPL-2.0
/*
 * xdp-teardown's network and maps: a scenario's namespaces, its veth
 * pairs (the devmap targets with their sinks, the NAPI pair c0/c1, the
 * dead end, the dispatcher pair), the packet sockets, the BPF programs
 * loaded and configured, and the devmap and cpumap entries that setup
 * fills and the teardown operations put back; cleanup() undoes it all.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include "nl.h"
#include "run.h"

/* ---- map entries ---------------------------------------------------- */

/*
 * Point a devmap entry at a target, egress program PROG (an fd, 0 for
 * none); returns the target it points at.  A target that another thread
 * is unregistering cannot be used (EINVAL: its ifindex is gone): then a0,
 * never unregistered, is.
 */
int dm_set_prog(struct run *R, int map_fd, __u32 key, int target, int prog)
{
	struct bpf_devmap_val v = { .ifindex = R->t[target].ia };

	v.bpf_prog.fd = prog;
	if (!bpf_map_update_elem(map_fd, &key, &v, 0))
		return target;
	if ((errno != EINVAL && errno != ENODEV) || !target)
		return -errno;
	return dm_set_prog(R, map_fd, key, 0, prog);
}

/* dm_set_prog() with the egress program R->egress[EG] */
int dm_set(struct run *R, int map_fd, __u32 key, int target, int eg)
{
	return dm_set_prog(R, map_fd, key, target, R->egress[eg]);
}

/* dm_set(), 0 or an error */
int dm_put(struct run *R, int map_fd, __u32 key, int target, int eg)
{
	int t = dm_set(R, map_fd, key, target, eg);

	return t < 0 ? t : 0;
}

/* A cpumap entry of ring size QSIZE, entry program PROG (an fd, 0 for none) */
int cm_set_prog(int map_fd, __u32 key, __u32 qsize, int prog)
{
	struct bpf_cpumap_val v = { .qsize = qsize };

	v.bpf_prog.fd = prog;
	return bpf_map_update_elem(map_fd, &key, &v, 0) ? -errno : 0;
}

/* cm_set_prog() with the entry program R->cpuprog[PROG] */
int cm_set(struct run *R, int map_fd, __u32 key, __u32 qsize, int prog)
{
	return cm_set_prog(map_fd, key, qsize, R->cpuprog[prog]);
}

__u32 rnd_qsize(struct run *R)
{
	static const __u32 q[] = { 256, 512, 1024, 2048 };

	return q[rnd(R) % 4];
}

/* Fill a DEVMAP (keys 0..) or DEVMAP_HASH (XT_DMH_BASE + ..) */
int fill_dm(struct run *R, int fd, int hash, int *shadow)
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

int fill_cm(struct run *R, int fd)
{
	int k, err;

	for (k = 0; k < R->ncpu; k++) {
		err = cm_set(R, fd, k, rnd_qsize(R),
			     R->sc->bug || R->sc->hold_ms ? 0 : rnd(R) % 4);
		if (err)
			return err;
	}
	return 0;
}

int new_map(enum bpf_map_type type, __u32 max, __u32 vsize)
{
	int fd = bpf_map_create(type, "xt_inner", 4, vsize, max, NULL);

	return fd < 0 ? -errno : fd;
}

/* ---- the topology --------------------------------------------------- */

int in_ns(struct run *R, int ns)
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
int target_new(struct run *R, int i)
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

int setup(struct run *R)
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
	if (R->sc->hold_ms)
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
	if (!err && R->sc->hold_ms)
		err = hold_put(R);	/* the held key's entry, a program of its own */
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
	if (R->sc->hold_ms) {
		sk->bss->cfg.cm_key = 1 + hold_cpu(R);
		/* the holder lets go after hold_ms: this is in case it cannot */
		sk->bss->cfg.hold_ns = (R->sc->hold_ms + HOLD_SLACK_MS) * 1000000u;
		sk->bss->cfg.hold_drop = opt.hold_drop;
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

/* Undo setup(), as far as it got. */
void cleanup(struct run *R)
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
