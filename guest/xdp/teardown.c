// SPDX-License-Identifier: GPL-2.0
/*
 * xdp-teardown's teardown operations and the threads that run them:
 * delete and replace devmap and cpumap entries, replace inner maps and
 * c1's program so that their last reference drops, unregister target
 * devices; each thread draws operations from its scenario's weighted
 * list and counts what they tore down and whether frames flowed meanwhile.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "nl.h"
#include "run.h"

/* Their names in the diagnostics (enum op). */
const char *const op_name[N_OPS] = {
	"dm_delete", "dmh_delete", "cm_delete", "dm_replace", "dmh_replace",
	"cm_replace", "dm_mapfree", "cm_mapfree", "prog_replace", "unregister",
};

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
unsigned long total_torn(struct run *R)
{
	unsigned long n;

	pthread_mutex_lock(&R->lock);
	n = R->torn;
	pthread_mutex_unlock(&R->lock);
	return n;
}

void *teardown(void *arg)
{
	struct tdthread *td = arg;
	struct run *R = td->R;

	rnd_state = td->seed;
	if (ns_enter(R->ns_a))
		return NULL;
	while (!R->stop_teardown && R->sc->nops) {
		int op = R->sc->ops[rnd(R) % R->sc->nops];

		/*
		 * A hold scenario's key has one writer, the holder (hold.c).
		 * Otherwise, once the teardowns are counted, one thread goes
		 * on at a gentler pace and the others rest: the CPUs go to
		 * the traffic.
		 */
		if (R->sc->hold_ms && td != R->td0) {
			usleep(50000);
			continue;
		}
		if (!R->sc->hold_ms && total_torn(R) >= opt.min_ops &&
		    frames_seen(R) < opt.min_frames) {
			if (td != R->td0) {
				usleep(50000);
				continue;
			}
			usleep(20000);
		}
		unsigned long long f0 = frames_seen(R);
		double t0 = now(), dt;
		int err = R->sc->hold_ms ? hold_once(R, op == OP_DM_REPL || op == OP_DMH_REPL ||
						     op == OP_CM_REPL) : do_op(R, op);
		unsigned long long f1 = frames_seen(R);
		/* under traffic: frames flowed, or cpu_slow held the entry */
		int held = R->sc->hold_ms != 0;

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
