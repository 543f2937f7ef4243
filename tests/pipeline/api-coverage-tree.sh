#!/usr/bin/env bash
# api-coverage.sh -t: a member the tree lacks is skipped-absent, with the
# cases skipped for it or for another member of its probe; a member 6.12
# removed but the tree has is tested (or untested) under its own name;
# one the tree lacks like 6.12 is removed; the table says which tree.
set -u
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/debug"
tab=$'\t'
cat >"$t/debug/results.tsv" <<R
debug${tab}rcuvet_consol.waits_for_reader.call_rcu.rcu_read_lock${tab}pass${tab}1${tab}${tab}call_rcu rcu_read_lock rcu_read_unlock
debug${tab}rcuvet_consol.waits_for_reader.kfree_rcu.rcu_read_lock${tab}skip${tab}0${tab}SKIP absent from this tree: kvfree_rcu_barrier()${tab}
debug${tab}rcuvet_kfree.kmem_cache_destroy_waits_for_kfree_rcu${tab}skip${tab}0${tab}SKIP absent from this tree: kvfree_rcu_barrier() in kmem_cache_destroy()${tab}
debug${tab}rcuvet_srcu.synchronize_srcu_waits_for_srcu_up_read${tab}skip${tab}0${tab}SKIP absent from this tree: srcu_down_read()${tab}
debug${tab}rcuvet_tasks.synchronize_rcu_tasks_rude_waits_for_preempt_disabled${tab}pass${tab}1${tab}${tab}synchronize_rcu_tasks_rude
R
cat >"$t/debug/tree-api.tsv" <<R
kvfree_rcu_barrier${tab}absent${tab}KVFREE_RCU_BARRIER
srcu_down_read${tab}absent${tab}SRCU_DOWN_READ
srcu_up_read${tab}absent${tab}SRCU_DOWN_READ
call_rcu_tasks_rude${tab}present${tab}CALL_RCU_TASKS_RUDE
RCU_NONIDLE${tab}present${tab}RCU_NONIDLE
R
out=$t/6.1/api-coverage.md
"$(dirname "$0")/../../scripts/api-coverage.sh" -t 6.1 "$out" "$t/debug/results.tsv" 2>"$t/err" ||
	echo "api-coverage.sh -t failed: $(cat "$t/err")"
row() { grep -F "| \`$1\` |" "$out"; }
row call_rcu | grep -q '| present | \*\*tested\*\* |' || echo "call_rcu: $(row call_rcu)"
row kvfree_rcu_barrier | grep -q '| absent | \*\*skipped-absent\*\* |  | 2 skipped |' ||
	echo "kvfree_rcu_barrier: $(row kvfree_rcu_barrier)"
row srcu_up_read | grep -q '| absent | \*\*skipped-absent\*\* |  | 1 skipped |' ||
	echo "srcu_up_read: $(row srcu_up_read)"
row call_rcu_tasks_rude | grep -q '| present | \*\*untested\*\* |  |' ||
	echo "call_rcu_tasks_rude: $(row call_rcu_tasks_rude)"
# shellcheck disable=SC2016 # backquotes of Markdown
row call_rcu_bh | grep -q '| removed | \*\*removed\*\* | `call_rcu` |' || echo "call_rcu_bh: $(row call_rcu_bh)"
row RCU_NONIDLE | grep -q '| present | \*\*untested\*\* |' || echo "RCU_NONIDLE: $(row RCU_NONIDLE)"
grep -q '^# RCU API coverage on 6.1$' "$out" || echo "the title does not name the tree"
grep -q 'present but untested:.* call_rcu_tasks_rude' "$t/err" || echo "untested members not named on stderr"
