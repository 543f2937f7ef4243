#!/usr/bin/env bash
# tree-api.sh reads a tree's API from its declarations: a member only named
# in a comment, or called from another header, is absent; a prototype, a
# definition whose return type is on the line before, and a macro are
# present; an export needs its config option; the header is rewritten only
# when it changes; live frames with their xdp_frame out of the frame are
# told from fixed ones.
set -u
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
probe=$(dirname "$0")/../../scripts/tree-api.sh
mkdir -p "$t/tree/include/linux" "$t/tree/include/kunit" "$t/tree/kernel/rcu" "$t/tree/mm"
touch "$t/tree/Makefile"
cat >"$t/tree/include/linux/srcu.h" <<'H'
/* srcu_down_read() and srcu_up_read() came later. */
int __srcu_read_lock_nmisafe(struct srcu_struct *ssp);
static inline unsigned long start_poll_synchronize_srcu(struct srcu_struct *ssp);
H
cat >"$t/tree/include/linux/rcupdate.h" <<'H'
static inline void
kvfree_rcu_barrier(void)
{
}
#define kfree_rcu_mightsleep(ptr) kvfree_rcu_mightsleep(ptr)
static inline void f(void)
{
	call_rcu_hurry(&x, cb);
}
void call_rcu_tasks_rude(struct rcu_head *head, rcu_callback_t func);
H
printf 'struct srcu_usage {\n};\n' >"$t/tree/include/linux/srcutree.h"
printf 'EXPORT_SYMBOL_GPL(rcu_tasks_get_gp_data);\n' >"$t/tree/kernel/rcu/tasks.h"
printf '\tkvfree_rcu_barrier();\n' >"$t/tree/mm/slab_common.c"
printf 'CONFIG_TASKS_RCU=y\n# CONFIG_TASKS_RUDE_RCU is not set\n' >"$t/config"

"$probe" "$t/tree" "$t/out" "$t/config" || echo "tree-api.sh failed"
h=$t/out/rcuvet_tree_api.h
for want in KVFREE_RCU_BARRIER=1 KMEM_CACHE_DESTROY_WAITS=1 KFREE_RCU_MIGHTSLEEP=1 \
	CALL_RCU_HURRY=0 SRCU_NMISAFE=0 SRCU_DOWN_READ=0 SRCU_POLL=1 SRCU_USAGE=1 \
	CALL_RCU_TASKS_RUDE=0 RCU_TASKS_GP_DATA=1 RCU_TASKS_TRACE_GP_DATA=0 GUARD_RCU=0; do
	grep -qx "#define RCUVET_HAVE_${want%=*} ${want#*=}" "$h" ||
		echo "header: not '#define RCUVET_HAVE_${want%=*} ${want#*=}': $(grep -w "RCUVET_HAVE_${want%=*}" "$h")"
done
for want in kvfree_rcu_barrier:present srcu_down_read:absent srcu_up_read:absent \
	call_rcu_tasks_rude:absent 'guard(rcu):absent' start_poll_synchronize_srcu:present; do
	grep -qP "^\Q${want%:*}\E\t${want#*:}\t" "$t/out/tree-api.tsv" ||
		echo "tree-api.tsv: ${want%:*} is not ${want#*:}"
done
grep -q 'RCUVET_HAVE_KMEM_CACHE_DESTROY_WAITS' "$t/out/tree-api.tsv" &&
	echo "tree-api.tsv lists a probe that decides no member"

# Without a config, an export counts as it is; unchanged output keeps its mtime.
"$probe" "$t/tree" "$t/out" || echo "tree-api.sh failed without a config"
grep -qx '#define RCUVET_HAVE_CALL_RCU_TASKS_RUDE 1' "$h" || echo "no config: call_rcu_tasks_rude() not present"
touch -d 2000-01-01 "$h"
"$probe" "$t/tree" "$t/out" || echo "tree-api.sh failed on its second run"
[ "$(stat -c %Y "$h")" = "$(date -d 2000-01-01 +%s)" ] || echo "an unchanged header was rewritten"

# The live frames of BPF_PROG_TEST_RUN, and whether their xdp_frame sits
# at data_hard_start (upstream 294635a8165a): the XDP stress's stand-in.
mkdir -p "$t/tree/net/bpf"
printf '%s\n' 'struct xdp_page_head {' '	struct xdp_frame frm;' '};' >"$t/tree/net/bpf/test_run.c"
"$probe" "$t/tree" "$t/out" || echo "tree-api.sh failed on live frames"
grep -qx '#define RCUVET_HAVE_XDP_LIVE_FRAMES 1' "$h" || echo "live frames not found"
grep -qx '#define RCUVET_HAVE_XDP_LIVE_FRAME_AT_HARD_START 0' "$h" || echo "6.1.192's live frames taken for fixed"
printf '%s\n' 'struct xdp_page_head {' '	union {' '		DECLARE_FLEX_ARRAY(struct xdp_frame, frame);' >"$t/tree/net/bpf/test_run.c"
"$probe" "$t/tree" "$t/out" || echo "tree-api.sh failed on fixed live frames"
grep -qx '#define RCUVET_HAVE_XDP_LIVE_FRAME_AT_HARD_START 1' "$h" || echo "fixed live frames not found"

"$probe" "$t/nothing" "$t/out2" 2>/dev/null && echo "tree-api.sh accepted a folder that is no tree"
true
