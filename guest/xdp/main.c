// SPDX-License-Identifier: GPL-2.0
/*
 * xdp-teardown: tear devmap and cpumap entries, maps and target devices
 * down while XDP frames flow through them, and account for every frame.
 *
 *   xdp-teardown [-d SECONDS] [-t MAX_SECONDS] [-o MIN_OPS] [-f MIN_FRAMES]
 *                [-s SEED] [-b BATCH] [-r REPEAT] [-w SETTLE] [-n] [SCENARIO...]
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
 * The hold scenarios (only when named) tear an entry down while a cpumap
 * program holds it, at least MIN_HOLDS times, instead of -o operations,
 * and fail if it was freed while held (hold.c); with -n, the program
 * drops its frame after a hold instead of using the entry.
 * A kernel splat (KASAN, WARNING, ...) ends the program at once, the
 * scenario failed: the verdict fails the run on it, the time to it is
 * what a negative control measures, and threads may be stuck in the
 * damaged kernel.  Output is KTAP, one test case per scenario, counters as diagnostics.
 *
 * This file holds the scenario table, which drives the cases, and runs
 * it; run.h says what the other files do.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "run.h"

struct opts opt = {
	.duration = 8, .max_time = 60, .settle = 15, .idle = 0.25,
	.min_ops = 1000, .min_frames = 100000,
	.seed = 1, .batch = 64, .repeat = 2048, .threads = 3,
};

__thread unsigned int rnd_state;

#define K(...) { __VA_ARGS__ }, sizeof((int[]){ __VA_ARGS__ }) / sizeof(int)

/* The scenarios: the table that drives the cases, one KTAP case a row. */
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
	 * step requires the cpumap flush sites from it).  Not on
	 * PREEMPT_RT, where disabling bottom halves enters rcu_read_lock().
	 */
	{ "threaded", "delete and replace entries while c1 polls in NAPI kthreads",
	  K(K_DM, K_DMH, K_CM), K(K_DM, K_DMH, K_CM),
	  K(OP_DM_DEL, OP_DMH_DEL, OP_CM_DEL, OP_DM_REPL, OP_DMH_REPL, OP_CM_REPL),
	  0, 0, 0, 0, 0, 1 },
	{ "cpumap_direct_return", "cpumap program -> devmap whose xmit drops",
	  K(K_CM), { 0 }, 0, { 0 }, 0, 1, 0, 0, 0, 0, 0 },
	/*
	 * Not run unless named (hold_ms): for the v4.19 grace-period
	 * emulation (docs/xdp-teardown.md).  One cpumap entry (CPU 1) takes
	 * every frame; its program, cpu_slow, redirects into DEVMAP key 0
	 * and holds that entry while the holder deletes or replaces it and
	 * watches for its free (hold.c), up to HOLD_MS a hold.
	 */
	{ "cpumap_devmap_slow", "devmap entries go while a slow cpumap program holds them",
	  K(K_CM), { 0 }, 0, K(OP_DM_DEL, OP_DM_REPL), 0, 1, HOLD_MS, 0, 0, 0 },
	/* The same for a cpumap: cpu_slow redirects into cm2 key 0 instead. */
	{ "cpumap_cpumap_slow", "cpumap entries go while a slow cpumap program holds them",
	  K(K_CM), { 0 }, 0, K(OP_CM_DEL, OP_CM_REPL), 0, 1, HOLD_MS, 1, 0, 0 },
	/* The same through DEVMAP_HASH: cpu_slow redirects into its key. */
	{ "cpumap_devmap_hash_slow",
	  "devmap_hash entries go while a slow cpumap program holds them",
	  K(K_CM), { 0 }, 0, K(OP_DMH_DEL, OP_DMH_REPL), 0, 1, HOLD_MS, 0, 1, 0 },
};

#define N_SCENS (int)(sizeof(scens) / sizeof(scens[0]))

static int failed_cases;

/* ---- one scenario --------------------------------------------------- */

static int run_scenario(const struct scen *sc, int number)
{
	static struct run run;
	struct run *R = &run;
	struct worker w[XT_MAX_CPUS];
	struct tdthread td[16];
	struct counters c;
	double t0, t, ts = now();
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
	diag("set up in %.1f s", t0 - ts);
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
		ops = sc->hold_ms ? holds_torn(R) : total_torn(R);
		if (t >= opt.duration &&
		    (!sc->nops || ops >= (sc->hold_ms ? MIN_HOLDS : opt.min_ops)) &&
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
	if (sc->hold_ms)
		hold_stop(R);
	R->stop_workers = 1;
	for (i = 0; i < R->ncpu; i++)
		pthread_join(w[i].th, NULL);
	t = now() - t0;
	drained = !settle(R, &c);
	i = kick_targets(R);
	if (i)
		diag("cannot kick the targets: %s", strerror(-i));
	drained &= !i && !settle(R, &c);
	diag("ran %.1f s on %d CPUs, then settled in %.1f s, seed %u, batch %u, repeat %u",
	     t, R->ncpu, now() - t0 - t, opt.seed, opt.batch, opt.repeat);
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
		"                    [-n]\n"
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
	while ((ch = getopt(argc, argv, "d:t:o:f:s:b:r:w:i:j:nh")) != -1) {
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
		case 'n': opt.hold_drop = 1; break;
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
			if (!scens[i].hold_ms)
				chosen[n++] = &scens[i];
	if (opt.threads < 1 || opt.threads > 16)
		usage();

	kmsg_open();
	libbpf_set_strict_mode(LIBBPF_STRICT_ALL);

	printf("KTAP version 1\n1..1\n");
	printf("    KTAP version 1\n    # Subtest: xdp_teardown\n    1..%d\n", n);
	for (i = 0; i < n; i++)
		if (run_scenario(chosen[i], i + 1))
			failed_cases++;
	printf("%s 1 xdp_teardown\n", failed_cases ? "not ok" : "ok");
	return failed_cases ? 1 : 0;
}
