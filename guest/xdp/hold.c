// SPDX-License-Identifier: GPL-2.0
/*
 * The hold scenarios (cpumap_devmap_slow, cpumap_devmap_hash_slow,
 * cpumap_cpumap_slow): cpu_slow, in the cpumap kthread under
 * rcu_read_lock_bh() only, looks an entry up with bpf_redirect_map() and
 * holds it (xdp_teardown.bpf.c) until the guest lets it go.  Meanwhile the
 * holder, the only thread that touches the held key, deletes or replaces
 * that entry and watches for its free.
 *
 * The free is seen, not guessed: every entry of the held key runs a
 * program of its own (a copy of a skeleton program), whose only reference
 * the entry holds, and both frees put that reference just before the
 * kfree() of the entry (__dev_map_entry_free(), __cpu_map_entry_free()):
 * the program's id goes with the entry.
 *
 * A kernel whose grace periods wait for bh-disabled regions cannot free
 * the entry while it is held: the holder waits the scenario's hold_ms and
 * lets go (a hold that "waited").  One whose grace periods do not (the
 * v4.19 emulation, a mutant that frees at once) frees it inside the hold:
 * the hold's window is proven open, on both sides, by the hold number
 * seen before the teardown and after the free; the scenario fails, and the
 * program, let go, goes on to use the freed entry, which KASAN reports.
 * Nothing here depends on how fast the host is: a slow host makes a hold
 * longer, not a different result.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#include "run.h"

/* The held map and key (cpu_slow's redirect, setup.c's configuration). */
static int held_fd(struct run *R, __u32 *key)
{
	struct xdp_teardown *sk = R->sk;

	*key = R->sc->chain ? 0 : R->sc->hash ? XT_DMH_BASE : 0;
	if (R->sc->chain)
		return bpf_map__fd(sk->maps.cm2);
	return bpf_map__fd(R->sc->hash ? sk->maps.dmh : sk->maps.dm);
}

/* The CPU whose cpumap entry runs cpu_slow (setup.c: cfg.cm_key) */
int hold_cpu(struct run *R)
{
	return R->ncpu > 1;	/* under emulate-4.19 RCU's kthreads have CPU 2 */
}

/*
 * The holder runs anywhere but on the held CPU: preempted there by the
 * cpumap kthread, inside a syscall's rcu_read_lock(), it could neither
 * tear the entry down nor let the grace period end until the hold did.
 */
static void holder_affinity(struct run *R)
{
	cpu_set_t set;
	int cpu;

	CPU_ZERO(&set);
	for (cpu = 0; cpu < R->ncpu; cpu++)
		if (cpu != hold_cpu(R))
			CPU_SET(cpu, &set);
	if (CPU_COUNT(&set))
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* A copy of PROG, loaded from the skeleton's final instructions. */
static int prog_copy(const struct bpf_program *prog)
{
	LIBBPF_OPTS(bpf_prog_load_opts, o,
		    .expected_attach_type = bpf_program__expected_attach_type(prog));
	int fd = bpf_prog_load(bpf_program__type(prog), "xt_held", "GPL",
			       bpf_program__insns(prog), bpf_program__insn_cnt(prog), &o);

	return fd < 0 ? -errno : fd;
}

/* Put a new entry at the held key, with a program of its own. */
int hold_put(struct run *R)
{
	struct xdp_teardown *sk = R->sk;
	const struct bpf_program *cpu[] = {
		sk->progs.cpu_redir, sk->progs.cpu_pass, sk->progs.cpu_drop,
	};
	const struct bpf_program *eg[] = { sk->progs.eg_drop8, sk->progs.eg_pass };
	__u32 key;
	int fd = held_fd(R, &key), prog, err;

	prog = prog_copy(R->sc->chain ? cpu[rnd(R) % 3] : eg[rnd(R) % 2]);
	if (prog < 0) {
		diag("cannot load a program for the held entry: %s", strerror(-prog));
		return prog;
	}
	if (R->sc->chain) {
		err = cm_set_prog(fd, key, rnd_qsize(R), prog);
	} else {
		err = dm_set_prog(R, fd, key, rnd(R) % NT, prog);
		pthread_mutex_lock(&R->lock);
		(R->sc->hash ? R->dmh_target : R->dm_target)[0] = err < 0 ? -1 : err;
		pthread_mutex_unlock(&R->lock);
	}
	close(prog);	/* the entry holds the only reference */
	return err < 0 ? err : 0;
}

/* The id of the held entry's program; 0 if the key is empty. */
static __u32 held_prog_id(struct run *R)
{
	struct bpf_devmap_val dv;
	struct bpf_cpumap_val cv;
	__u32 key;
	int fd = held_fd(R, &key);

	if (R->sc->chain)
		return bpf_map_lookup_elem(fd, &key, &cv) ? 0 : cv.bpf_prog.id;
	return bpf_map_lookup_elem(fd, &key, &dv) ? 0 : dv.bpf_prog.id;
}

/* Whether program ID still exists: 1, 0, or -errno if we cannot tell. */
static int prog_alive(__u32 id)
{
	int fd = bpf_prog_get_fd_by_id(id);

	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	close(fd);
	return 1;
}

/*
 * One hold: once cpu_slow holds an entry, tear it down (REPLACE, or
 * delete and put back), watch for its free for the scenario's hold_ms,
 * let go.  -EAGAIN while no new hold has begun.
 */
int hold_once(struct run *R, int replace)
{
	static __thread int pinned;	/* a holder is a new thread a scenario */
	volatile __u32 *holding = &R->sk->bss->holding;
	__u32 n = *holding, id, key;
	int fd = held_fd(R, &key), freed = 0, open, alive, err = 0;
	double t0, t;

	if (!pinned) {
		holder_affinity(R);
		pinned = 1;
	}
	if (!n || n == R->last_hold) {
		usleep(1000);
		return -EAGAIN;
	}
	R->last_hold = n;
	id = held_prog_id(R);
	t0 = now();
	if (!replace && bpf_map_delete_elem(fd, &key))
		err = -errno;
	if (!err)
		err = hold_put(R);
	for (t = now(); !err && *holding == n && t - t0 < R->sc->hold_ms / 1e3; t = now()) {
		alive = id ? prog_alive(id) : 1;
		if (alive < 0)
			id = 0;		/* cannot tell: counted as unknown */
		if (alive <= 0) {
			freed = !alive;
			break;
		}
		usleep(500);
	}
	/* the window: held before the teardown began and after the free was seen */
	open = *holding == n;
	/*
	 * The program's last reference goes a few instructions before the
	 * entry's kfree() (after cpumap's ring cleanup): let those run
	 * before the program goes on to read the entry.
	 */
	if (freed && open)
		usleep(FREE_SETTLE_US);
	R->sk->bss->release = n;
	if (err)
		return err;
	pthread_mutex_lock(&R->lock);
	R->holds++;
	if (!id) {
		R->holds_unknown++;
	} else if (!open) {
		R->holds_late++;
	} else if (!freed) {
		R->holds_waited++;
	} else {
		R->holds_freed++;
		R->free_ms_sum += (t - t0) * 1e3;
		if ((t - t0) * 1e3 > R->free_ms_max)
			R->free_ms_max = (t - t0) * 1e3;
	}
	pthread_mutex_unlock(&R->lock);
	return 0;
}

/* Holds whose entry was torn down while held (hold_evaluate() counts them). */
unsigned long holds_torn(struct run *R)
{
	unsigned long n;

	pthread_mutex_lock(&R->lock);
	n = R->holds_waited + R->holds_freed;
	pthread_mutex_unlock(&R->lock);
	return n;
}

/* No more holds: cpu_slow lets its frames go at once, the rings drain. */
void hold_stop(struct run *R)
{
	R->sk->bss->cfg.hold_ns = 0;
}

/* The hold scenario's checks (evaluate()). */
void hold_evaluate(struct run *R, const struct counters *c)
{
	diag("holds: %lu: entry torn down and still held after %d ms %lu, freed while held %lu (after %.1f ms mean, %.1f max), let go early %lu (cpu_slow's limit: %llu), entry unknown %lu",
	     R->holds, R->sc->hold_ms, R->holds_waited, R->holds_freed,
	     R->holds_freed ? R->free_ms_sum / R->holds_freed : 0.0, R->free_ms_max,
	     R->holds_late, c->c[C_HOLD_CAP], R->holds_unknown);
	expect(R->holds_waited + R->holds_freed >= MIN_HOLDS,
	       "only %lu holds saw their entry torn down while held (at least %d)",
	       R->holds_waited + R->holds_freed, MIN_HOLDS);
	expect(!R->holds_unknown,
	       "%lu holds could not tell their entry's program (lookup or BPF_PROG_GET_FD_BY_ID failed)",
	       R->holds_unknown);
	expect(!R->holds_freed,
	       "%lu held entries were freed while cpu_slow held them: a grace period ended inside a bh-disabled reader",
	       R->holds_freed);
}
