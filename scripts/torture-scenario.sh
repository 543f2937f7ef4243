#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# torture-scenario SCENARIO: make torture's profile and plan for one of
# the tree's rcutorture scenarios (tools/testing/selftests/rcutorture/
# configs/rcu/SCENARIO and SCENARIO.boot), as kvm.sh would run it but
# booted by rcuvet under TCG (docs/torture.md, "make torture"):
#   build/torture/SCENARIO/SCENARIO.config  the kernel's one fragment:
#       base.config but for NR_CPUS and KUNIT, DEBUG_KERNEL=y, CFcommon,
#       the scenario (its #CHECK# lines too, checked like the rest),
#       CFcommon.x86_64, later lines winning as in kvm.sh, and
#       CONFIG_RCU_TORTURE_TEST=m last;
#   build/torture/SCENARIO/reductions.txt   what differs from kvm.sh's
#       run of it on a machine with enough CPUs, a line each;
#   build/profiles/torture-SCENARIO.profile its .boot's kernel parameters
#       (CPU lists clipped to the vCPUs), the vCPUs, SUITES=none;
#   build/plans/torture-SCENARIO.plan       torture and rcutorture loaded
#       with the .boot's rcutorture.* parameters and kvm.sh's additions,
#       TORTURE_DURATION seconds, then rmmod (End of test).
# With TORTURE_EMULATE=4.19 the kernel is the scenario's with v4.19's
# grace periods (kernel/patches/0001-*: CONFIG_RCU_EMULATE_UNCONSOLIDATED,
# rcutree.emulate_unconsolidated=1), under the name SCENARIO-emulate-4.19
# (torture_name) in place of SCENARIO above: a run that must fail.
# Exits 3, the reason in build/torture/NAME/skip.txt, for a scenario that
# cannot run on TORTURE_MAX_CPUS vCPUs, or under the emulation without
# PREEMPT_RCU.  TORTURE_CONFIGS is the scenarios' folder (default: the
# tree's).
. "$(dirname "$0")/lib.sh"

scen=${1:?usage: torture-scenario.sh SCENARIO}
configs=${TORTURE_CONFIGS:-$TREE/tools/testing/selftests/rcutorture/configs/rcu}
duration=${TORTURE_DURATION:-60}
max_cpus=${TORTURE_MAX_CPUS:-$(nproc)}
emulate=${TORTURE_EMULATE:-}
name=$(torture_name "$scen")
dir=$BUILD/torture/$name
frag=$dir/$name.config
red=$dir/reductions.txt

[ -f "$configs/$scen" ] || die "no rcutorture scenario '$scen' in $configs"
mkdir -p "$dir" "$BUILD/profiles" "$BUILD/plans"
rm -f "$dir/skip.txt"
: >"$red"

# boot_words: the scenario's .boot parameters, a line each (# comments out).
boot_words() {
	[ ! -f "$configs/$scen.boot" ] || sed 's/#.*//' "$configs/$scen.boot" | tr -s ' \t' '\n' | sed '/^$/d'
}

# The fragment: the last value of each option wins, in the order above;
# '=n' and '# CONFIG_X is not set' both mean off; a #CHECK# line states
# what the rest must give (kvm.sh's configcheck.sh checks it so).
{
	grep -vE '^(# )?CONFIG_(NR_CPUS|KUNIT)[= ]' "$RCUVET_ROOT/configs/fragments/base.config"
	echo CONFIG_DEBUG_KERNEL=y
	cat "$configs/CFcommon" 2>/dev/null || true
	sed 's/^#CHECK#//' "$configs/$scen"
	cat "$configs/CFcommon.x86_64" 2>/dev/null || true
	[ -z "$emulate" ] || printf '%s\n' CONFIG_RCU_EXPERT=y CONFIG_RCU_EMULATE_UNCONSOLIDATED=y
	echo CONFIG_RCU_TORTURE_TEST=m
} | awk '
	/^CONFIG_[A-Za-z0-9_]+=/ { k = $0; sub(/=.*/, "", k); v = substr($0, length(k) + 2) }
	/^# CONFIG_[A-Za-z0-9_]+ is not set/ { k = $2; v = "n" }
	k != "" { if (!(k in val)) order[n++] = k; val[k] = v; k = "" }
	END {
		for (i = 0; i < n; i++)
			if (val[order[i]] == "n")
				printf "# %s is not set\n", order[i]
			else
				printf "%s=%s\n", order[i], val[order[i]]
	}' >"$frag"

# option NAME: its value in the fragment ("n" when off, empty when unset).
option() {
	sed -n -e "s/^CONFIG_$1=//p" -e "s/^# CONFIG_$1 is not set/n/p" "$frag"
}

# skip REASON: the scenario cannot run so; make torture says why.
skip() {
	echo "$1" >"$dir/skip.txt"
	exit 3
}

# The Tasks RCU flavors have no prompt: kvm.sh's defconfig gets them
# selected (NEED_TASKS_RCU by KPROBES, BPF_SYSCALL and the tracers;
# TASKS_RUDE_RCU, TASKS_TRACE_RCU by the tracers and BPF_SYSCALL), a
# kernel from tinyconfig does not: a scenario that asks for one without
# forcing it (TASKS03) gets its FORCE_ option, RCU_EXPERT's, stated.
for flavor in TASKS_RCU TASKS_RUDE_RCU TASKS_TRACE_RCU; do
	[ "$(option "$flavor")" = y ] && [ "$(option "FORCE_$flavor")" != y ] || continue
	echo "CONFIG_FORCE_$flavor=y" >>"$frag"
	echo "CONFIG_$flavor=y through CONFIG_FORCE_$flavor=y: kvm.sh's defconfig selects it (kprobes, BPF, tracers), tinyconfig does not" >>"$red"
done

# Every scenario's own reductions (rcutorture =m, loaded after boot and
# unloaded after TORTURE_DURATION, is every scenario's: summary.md says so).
# vCPUs: kvm.sh's count (CONFIG_NR_CPUS, 1 without SMP, no more than
# nr_cpus= or maxcpus=), capped at TORTURE_MAX_CPUS, as kvm.sh caps it at
# the CPUs it may use (TORTURE_ALLOTED_CPUS, the host's CPUs by default).
# No NR_CPUS in the fragment: x86's default, 64, or MAXSMP's 8192.
want=$(option NR_CPUS)
if [ "$(option SMP)" = n ]; then
	want=1
elif [ -z "$want" ] && [ "$(option MAXSMP)" = y ]; then
	want=8192
fi
want=${want:-64}
for w in $(boot_words); do
	case $w in
	nr_cpus=[0-9]* | maxcpus=[0-9]*) [ "${w#*=}" -ge "$want" ] || want=${w#*=} ;;
	esac
done
cpus=$want
if [ "$want" -gt "$max_cpus" ]; then
	cpus=$max_cpus
	echo "$cpus vCPUs of the $want it asks for (TORTURE_MAX_CPUS=$max_cpus)" >>"$red"
fi
[ "$(option MAXSMP)" != y ] ||
	echo "possible CPUs are the $cpus vCPUs: QEMU -smp lists none possible but absent (MAXSMP, nr_cpus=)" >>"$red"

# clip LIST: the CPUs of LIST (a,b-c,d-N) below $cpus, as a list.
clip() {
	local part lo hi out=()

	for part in ${1//,/ }; do
		lo=${part%-*} hi=${part#*-}
		[ "$lo" -lt "$cpus" ] || continue
		# N, the last CPU, is one of the vCPUs whatever their number.
		[ "$hi" != N ] || { out+=("$part"); continue; }
		[ "$hi" -lt "$cpus" ] || hi=$((cpus - 1))
		if [ "$lo" = "$hi" ]; then out+=("$lo"); else out+=("$lo-$hi"); fi
	done
	local IFS=,
	printf '%s' "${out[*]}"
}

cmdline=() params=()
for w in $(boot_words); do
	case $w in
	rcutorture.*) params+=("${w#rcutorture.}") ;;
	nohz_full=* | rcu_nocbs=* | isolcpus=*)
		key=${w%%=*} list=${w#*=} got=
		case $list in
		all) got=all ;;
		*[!0-9N,-]*) got=$list ;;
		*) got=$(clip "$list") ;;
		esac
		if [ "$key" = nohz_full ] && [ -z "$got" ] && [ "$cpus" -ge 2 ]; then
			got=1-N
		fi
		if [ -z "$got" ]; then
			[ "$key" != nohz_full ] ||
				skip "nohz_full needs a CPU besides the boot CPU; $cpus vCPU (TORTURE_MAX_CPUS=$max_cpus)"
			echo "$w dropped: none of its CPUs below $cpus" >>"$red"
			continue
		fi
		[ "$got" = "$list" ] || echo "$key=$got, not $list: the CPUs below $cpus" >>"$red"
		cmdline+=("$key=$got")
		;;
	*) cmdline+=("$w") ;;
	esac
done
# Under the emulation a run must fail, so it must be one the emulation
# can fail: with PREEMPT_RCU, whose grace periods it changes (v4.19's
# other flavors were today's), rcutorture's rcu type (the default), whose
# readers include ones protected only by disabled bh or preemption, on
# two CPUs or more (on one, such a reader holds off the grace-period
# kthread itself).
if [ -n "$emulate" ]; then
	[ "$(option PREEMPT)" = y ] || [ "$(option PREEMPT_DYNAMIC)" = y ] ||
		skip "no PREEMPT_RCU (neither CONFIG_PREEMPT nor CONFIG_PREEMPT_DYNAMIC): v4.19's grace periods are emulated for it only"
	type=rcu
	for p in "${params[@]}"; do
		case $p in torture_type=*) type=${p#*=} ;; esac
	done
	[ "$type" = rcu ] ||
		skip "torture_type=$type: v4.19's emulation changes RCU's own grace periods (type rcu), not $type's"
	[ "$cpus" -ge 2 ] ||
		skip "one vCPU: a reader that disables preemption holds off the grace-period kthread, emulation or not"
	cmdline+=(rcutree.emulate_unconsolidated=1)
	echo "v4.19 grace periods (TORTURE_EMULATE=4.19): CONFIG_RCU_EMULATE_UNCONSOLIDATED=y, CONFIG_RCU_EXPERT=y, rcutree.emulate_unconsolidated=1" >>"$red"
fi

# has PARAM: the scenario sets rcutorture.PARAM (or a name starting so).
has() {
	local p

	for p in "${params[@]}"; do
		case $p in "$1"*) return 0 ;; esac
	done
	return 1
}

# kvm.sh's per_version_boot_params (configs/rcu/ver_functions.sh), but for
# shutdown_secs: onoff for a CPU-hotplug kernel (x86: every SMP one), then
# n_barrier_cbs, stat_interval, test_no_idle_hz, verbose; the scenario's
# own values last, so that they win.
extra=()
[ "$(option SMP)" = n ] || has onoff_ || extra+=(onoff_interval=1000 onoff_holdoff=30)
has n_barrier_cbs= || extra+=(n_barrier_cbs=4)
has stat_interval= || extra+=(stat_interval=15)
extra+=(test_no_idle_hz=1 verbose=1)
params=("${extra[@]}" "${params[@]}")

what="rcutorture scenario $scen"
[ -z "$emulate" ] || what+=" with v$emulate's grace periods"
cat >"$BUILD/profiles/torture-$name.profile" <<EOF
# Written by scripts/torture-scenario.sh for make torture: the tree's
# $what (docs/torture.md).  Do not edit.
DESCRIPTION="$what"
FRAGMENTS="$frag"
CMDLINE="${cmdline[*]}"
QEMU_SMP=$cpus
SUITES=none
EOF
cat >"$BUILD/plans/torture-$name.plan" <<EOF
# Written by scripts/torture-scenario.sh for make torture: the tree's
# $what, ${duration} s (docs/torture.md).  Do not edit.
boot-timeout: $((duration + 600))
module torture
module rcutorture ${params[*]}
program sleep $duration
program rmmod rcutorture
EOF
