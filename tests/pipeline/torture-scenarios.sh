#!/usr/bin/env bash
# make torture's translation of the tree's rcutorture scenarios (the real
# 6.12 CFLIST files) into a profile and a plan (scripts/torture-scenario.sh):
# every CFLIST scenario gives a profile and plan that validate.sh accepts;
# the fragment takes CFcommon, the scenario and its #CHECK# lines, with
# rcutorture =m; .boot's rcutorture.* parameters go to the plan's
# rcutorture step, the rest to the command line, CPU lists clipped to the
# vCPUs; kvm.sh's additions yield to the scenario's own; a scenario that
# cannot run is skipped with its reason.  And make torture refuses an
# unknown scenario or a bad duration before building anything.
set -u
. "$(dirname "$0")/../lib/refused.sh"
. "$(dirname "$0")/../lib/torture-tree.sh"
[ -n "$rcut" ] || { echo "no rcutorture scenarios: neither the pristine 6.12 tree nor /usr/src/linux-source-6.12.tar.xz"; exit 0; }
cfg=$rcut/configs/rcu
unset SCENARIOS
export TORTURE_CONFIGS=$cfg TORTURE_DURATION=30 TORTURE_MAX_CPUS=2

# scen NAME [VAR=VALUE...]: translate NAME; its files in $f, $p (profile), $l (plan), $r.
scen() {
	local rc=0

	env "${@:2}" "$root/scripts/torture-scenario.sh" "$1" >"$t/out" 2>&1 || rc=$?
	f=$BUILD/torture/$1/$1.config p=$BUILD/profiles/torture-$1.profile
	l=$BUILD/plans/torture-$1.plan r=$BUILD/torture/$1/reductions.txt
	return $rc
}

# has FILE TEXT / lacks FILE TEXT: a line of FILE contains TEXT, or none does.
has() {
	grep -qF -- "$2" "$1" || echo "$(basename "$1") lacks '$2'"
}
lacks() {
	! grep -qF -- "$2" "$1" || echo "$(basename "$1") has '$2'"
}

mapfile -t all < <(sed 's/#.*//' "$cfg/CFLIST" | xargs -n1)
[ ${#all[@]} -ge 19 ] || echo "CFLIST names ${#all[@]} scenarios, not 19 or more"
args=()
for s in "${all[@]}"; do
	scen "$s" || { echo "$s: status $?: $(cat "$t/out")"; continue; }
	has "$f" CONFIG_RCU_TORTURE_TEST=m
	has "$l" "module rcutorture "
	has "$l" "program sleep 30"
	has "$l" "program rmmod rcutorture"
	lacks "$p" "rcutorture."
	lacks "$f" CONFIG_KUNIT
	args+=(-p "torture-$s" -P "torture-$s")
done
(cd "$root" && scripts/validate.sh "${args[@]}") >"$t/out" 2>&1 ||
	echo "validate.sh refuses the scenarios' profiles or plans: $(tail -n 1 "$t/out")"

scen TREE01
has "$f" CONFIG_MAXSMP=y
lacks "$f" CONFIG_NR_CPUS
has "$p" QEMU_SMP=2
has "$p" 'rcu_nocbs=0-1"'
has "$r" "rcu_nocbs=0-1, not 0-1,3-7"
has "$r" "2 vCPUs of the 8"
has "$l" "nocbs_nthreads=8"
has "$l" "onoff_interval=1000 onoff_holdoff=30"
scen TREE03
has "$l" onoff_interval=200
lacks "$l" onoff_interval=1000
has "$p" threadirqs
has "$f" CONFIG_RCU_BOOST=y
scen TREE07
has "$p" "nohz_full=1-N "
scen TREE07 TORTURE_MAX_CPUS=4
has "$p" "nohz_full=2-3 "
scen TASKS02
has "$l" stat_interval=60
lacks "$l" stat_interval=15
scen TINY01
has "$p" QEMU_SMP=1
has "$f" "# CONFIG_SMP is not set"
has "$f" "# CONFIG_RCU_STALL_COMMON is not set"
lacks "$l" onoff_
scen TASKS03
has "$f" CONFIG_FORCE_TASKS_RCU=y
has "$r" "CONFIG_TASKS_RCU=y through CONFIG_FORCE_TASKS_RCU=y"
scen TASKS02
lacks "$r" FORCE_TASKS_RCU
scen SRCU-N
has "$f" "# CONFIG_RCU_EXPERT is not set"
has "$l" torture_type=srcu
scen TREE04 TORTURE_MAX_CPUS=1 && echo "TREE04 on 1 vCPU was not skipped"
grep -qs nohz_full "$BUILD/torture/TREE04/skip.txt" || echo "TREE04 on 1 vCPU: no reason in skip.txt"
# v4.19's grace periods: a kernel of its own, with the option and the
# boot parameter; a scenario without PREEMPT_RCU skipped, with the reason.
scen TREE01 TORTURE_EMULATE=4.19 || echo "TREE01 emulated: status $?: $(cat "$t/out")"
has "$BUILD/torture/TREE01-emulate-4.19/TREE01-emulate-4.19.config" CONFIG_RCU_EMULATE_UNCONSOLIDATED=y
has "$BUILD/profiles/torture-TREE01-emulate-4.19.profile" "rcutree.emulate_unconsolidated=1"
has "$BUILD/torture/TREE01-emulate-4.19/reductions.txt" "v4.19 grace periods"
lacks "$BUILD/torture/TREE01/TREE01.config" EMULATE
# emulated scen REASON: under the emulation, scenario scen is skipped
# with REASON in skip.txt.
emulated() {
	scen "$1" TORTURE_EMULATE=4.19 && echo "$1 emulated was not skipped"
	grep -qs "$2" "$BUILD/torture/$1-emulate-4.19/skip.txt" || echo "$1 emulated: no '$2' in skip.txt"
}
emulated TREE05 "no PREEMPT_RCU"
emulated SRCU-P "torture_type=srcu"
emulated TREE09 "one vCPU"

refused "unknown rcutorture scenario 'NOPE'; scenarios: " SCENARIOS=TREE01,NOPE scripts/torture.sh
# No SCENARIOS: CFLIST's, checked the same.
mkdir -p "$t/cfg"
printf 'TREE01\nBOGUS\n' >"$t/cfg/CFLIST"
touch "$t/cfg/TREE01"
refused "unknown rcutorture scenario 'BOGUS'; scenarios: TREE01" TORTURE_CONFIGS="$t/cfg" scripts/torture.sh
refused "TORTURE_DURATION is 'ten'" TORTURE_DURATION=ten SCENARIOS=TREE01 scripts/torture.sh
mkdir -p "$t/ksrc/kernel/rcu"
touch "$t/ksrc/Makefile"
refused "TORTURE_EMULATE is '4.9': 4.19" TORTURE_EMULATE=4.9 SCENARIOS=TREE01 scripts/torture.sh
refused "TORTURE_EMULATE=4.19 needs CONFIG_RCU_EMULATE_UNCONSOLIDATED" \
	TORTURE_EMULATE=4.19 KSRC="$t/ksrc" SCENARIOS=TREE01 scripts/torture.sh
