#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# validate [-p PROFILES] [-P PLAN]... [-C PLANS]: every name and number a
# run will use, checked before its first slow step (tree, configure,
# build, boot), so that a typo costs a second, not a kernel build.  The
# entry scripts call it first; each step still checks what it uses.
#   -p PROFILES  the profiles to build and boot (a list, as PROFILES=):
#                the profile a KERNEL_OF or MUTANT_OF names, the
#                fragments, the series and its patches, mutant patches
#                (a modules-scope mutant's only under include/)
#   -P PLAN      a plan to boot, NAME or NAME+NAME...: every line is a
#                step /init runs or a host-only line, every module and
#                program it names exists
#   -C PLANS     control plans (a list): as -P, and each says how its run
#                must end (control:)
# And the variables: PATCHES, JOBS, REPEAT, BOOTS, BENCH_NAME (KSRC: lib.sh).
. "$(dirname "$0")/lib.sh"

# The tree's modules that plans load (configs/fragments/rcu.config builds
# them =m): the tree is not there before the tree step, so they are named
# here.  Ours are kernel/modules/*/rcuvet_*.c, or a composite NAME-y of
# a kernel/modules/*/Kbuild (our_modules).
TREE_MODULES="torture rcutorture rcuscale refscale"
# Programs the patched tree gives the guest (initramfs.sh): the rcutorture
# kselftest of kernel/patches/0004.
TREE_PROGRAMS="kselftest-rcutorture"
# The steps of guest/init.c's run_step, the host-only lines, and the
# control: kinds of judge() in scripts/controls.sh.
STEPS="kunit module program rmmod sleep wait-log kmemleak-clear kmemleak-scan expect-splat end-expect"
HOST_LINES="control: profile: boot-timeout:"
CONTROLS="verdict-passes verdict-fails test-fails tests-fail tests-pass console-counts"

# positive WHAT VALUE: VALUE is a positive integer (no leading 0: bash's
# arithmetic would read it as octal).
positive() {
	case $2 in
	'' | *[!0-9]* | 0*) die "$1 is '$2', not a positive integer" ;;
	esac
}

# check_env: the variables the steps read.
check_env() {
	case ${PATCHES:-} in
	'' | 0 | 1) ;;
	*) die "PATCHES is '$PATCHES', not 1 (apply the tree's series, kernel/patches/series or series-6.1, to a copy of KSRC) or 0" ;;
	esac
	positive JOBS "$JOBS"
	[ -z "${REPEAT:-}" ] || positive REPEAT "$REPEAT"
	[ -z "${BOOTS:-}" ] || positive BOOTS "$BOOTS"
	case ${BENCH_NAME:-bench} in
	*/* | . | ..) die "BENCH_NAME is '$BENCH_NAME', not the name of a folder in results/" ;;
	esac
}

# uses_series: the tree step applies the series (see tree.sh): to Debian's
# tree and to a copy of KSRC with PATCHES=1 (a mutant's base tree has it).
uses_series() {
	[ -z "${KSRC:-}" ] || [ "${PATCHES:-0}" = 1 ]
}

# check_kernel_of: the profile whose kernel the loaded profile boots or
# mutates builds a kernel of its own (load_profile reads its fragments
# and no further).
check_kernel_of() {
	local target=${KERNEL_OF:-$MUTANT_OF} chained

	[ -n "$target" ] || return 0
	chained=$(load_profile "$target" && echo "$KERNEL_OF$MUTANT_OF")
	[ -z "$chained" ] ||
		die "profile '$PROFILE' uses the kernel of '$target', which has none of its own (it names '$chained')"
}

# check_scope: a modules-scope mutant (load_profile has checked the word)
# changes nothing outside include/: its kernel is its base's, unbuilt.
check_scope() {
	local outside
	local -a patches

	[ "$MUTANT_SCOPE" = modules ] || return 0
	mapfile -t patches < <(mutant_patches)
	outside=$(outside_include "${patches[@]}" | xargs)
	[ -z "$outside" ] ||
		die "profile '$PROFILE' is MUTANT_SCOPE=modules but its patches change $outside, outside include/: its kernel is not rebuilt, so that change would never run"
}

# boots_emulation: the loaded profile boots the v4.19 grace-period
# emulation (rcutree.emulate_unconsolidated=1 on its command line).
boots_emulation() {
	[[ " $CMDLINE " == *" rcutree.emulate_unconsolidated=1 "* ]]
}

# check_emulation: a profile that boots the emulation has a tree with it.
check_emulation() {
	! boots_emulation || tree_has_option RCU_EMULATE_UNCONSOLIDATED ||
		die "profile '$PROFILE' boots v4.19 grace periods (rcutree.emulate_unconsolidated=1), which need CONFIG_RCU_EMULATE_UNCONSOLIDATED (kernel/patches/0001-*): tree $TREE_NAME lacks it; PATCHES=1 applies the series to a copy of KSRC"
}

checked=" "

# check_profile NAME: the profile and all its kernel is made of; each
# profile once.
check_profile() {
	case $checked in *" $1 "*) return 0 ;; esac
	checked+="$1 "
	case $1 in */*) die "unknown profile '$1'; valid profiles: $(list_profiles | xargs)" ;; esac
	(
		load_profile "$1"
		check_kernel_of
		[ -n "$FRAGMENTS" ] || die "profile '$PROFILE' names no fragments"
		fragment_files >/dev/null
		positive "BOOT_TIMEOUT of profile '$PROFILE'" "$BOOT_TIMEOUT"
		positive "QEMU_SMP of profile '$PROFILE'" "$QEMU_SMP"
		case $QEMU_ICOUNT in
		'' | [0-9] | 10) ;;
		*) die "profile '$PROFILE': QEMU_ICOUNT is '$QEMU_ICOUNT', not a shift from 0 to 10 (2^SHIFT ns of guest time an instruction)" ;;
		esac
		if uses_series; then
			[ -f "$SERIES" ] || die "the patch series $SERIES does not exist"
			series_patches >/dev/null
		fi
		mutant_patches >/dev/null
		check_scope
		check_emulation
	)
}

# our_modules: the names of our modules, one a line: a module of each
# kernel/modules/*/rcuvet_*.c, and each composite module that a suite's
# Kbuild makes of several files ("NAME-y := part.o ...",
# kernel/modules/list/), whose parts are named otherwise.
our_modules() {
	basename -s .c "$RCUVET_ROOT"/kernel/modules/*/rcuvet_*.c
	sed -n 's/^\(rcuvet_[A-Za-z0-9_]*\)-y[[:space:]]*[:+]\{0,1\}=.*/\1/p' \
		"$RCUVET_ROOT"/kernel/modules/*/Kbuild
}

ours=''

# check_module AT NAME: NAME is one of our modules or a tree module.
check_module() {
	[ -n "$2" ] || die "$1: names no module"
	[ -n "$ours" ] || ours=$(our_modules | sort -u)
	! grep -qxF -- "$2" <<<"$ours" || return 0
	case " $TREE_MODULES " in *" $2 "*) return 0 ;; esac
	die "$1: no module '$2'; modules: $(xargs <<<"$ours") (kernel/modules/) and the tree's $TREE_MODULES"
}

guest='' applets=''

# check_program AT NAME: NAME is a guest program (guest/Makefile), one of
# the tree's or a busybox applet: initramfs.sh puts them in the guest's /bin.
check_program() {
	[ -n "$2" ] || die "$1: names no program"
	if [ -z "$guest" ]; then
		guest=$(make -s --no-print-directory -C "$RCUVET_ROOT/guest" names)
		[ ! -x /bin/busybox ] || applets=$(/bin/busybox --list)
	fi
	case " $TREE_PROGRAMS " in *" $2 "*) return 0 ;; esac
	grep -qxF -- "$2" <<<"$guest"$'\n'"$applets" ||
		die "$1: no program '$2'; programs: $(xargs <<<"$guest") (guest/), the tree's $TREE_PROGRAMS and busybox's applets"
}

# check_control AT KIND [ARG]: a line judge() in controls.sh knows.
check_control() {
	case $2 in
	verdict-passes) ;;
	verdict-fails | test-fails | tests-fail | tests-pass)
		[ -n "${3:-}" ] || die "$1: 'control: $2' names no text, test or pattern"
		;;
	console-counts)
		[[ ${3:-} =~ ^[0-9]+\ [^\ ] ]] || die "$1: 'control: $2' needs a count and a text, not '${3:-}'"
		;;
	*) die "$1: unknown control '$2'; controls: $CONTROLS" ;;
	esac
}

# emulates PROFILE: its boots run the v4.19 grace-period emulation
# (boots_emulation).
emulates() {
	(load_profile "$1" && boots_emulation)
}

# check_pin_first NAME FIRST: under the emulation, a plan's first step
# (FIRST: its first two words) must be 'program rcu-pin' (guest/init.c
# fails the run otherwise, after a boot: say so now).
check_pin_first() {
	[ "$2" = "program rcu-pin" ] ||
		die "plan '$1' runs on an emulated profile but its first step is '${2:-none}', not 'program rcu-pin CPU|isolated': the emulation needs RCU's kthreads on an isolated CPU (docs/emulate-4.19.md)"
}

# check_host_line AT WORD VALUE: a line that stays on the host (word: ...).
check_host_line() {
	local kind arg

	case $2 in
	control)
		read -r kind arg <<<"$3"
		check_control "$1" "$kind" "$arg"
		;;
	profile)
		[ -f "$(profile_file "$3")" ] ||
			die "$1: unknown profile '$3'; valid profiles: $(list_profiles | xargs)"
		check_profile "$3"
		;;
	boot-timeout) positive "$1: boot-timeout" "$3" ;;
	*) die "$1: unknown host-only line '$2:'; host-only lines: $HOST_LINES" ;;
	esac
}

# check_steps PLANFILE [control]: every line is blank, a comment, a
# host-only line (profile: and boot-timeout: at most once; control: in a
# control plan) or a step /init runs (guest/init.c's run_step).
check_steps() {
	local n=0 name=${1##*/} at line kind arg rest first='' plan_profile=''
	local -A seen=()

	name=${name%.plan}
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		at="plan '$name' line $n"
		if [[ $line =~ ^([a-z-]+):[[:space:]]*(.*)$ ]]; then
			kind=${BASH_REMATCH[1]}
			[ "$kind" = control ] || [ -z "${seen[$kind]:-}" ] ||
				die "$at: a second '$kind:' line"
			seen[$kind]=1
			check_host_line "$at" "$kind" "${BASH_REMATCH[2]}"
			[ "$kind" != profile ] || plan_profile=${BASH_REMATCH[2]}
			continue
		fi
		read -r kind arg rest <<<"$line"
		case $kind in
		'' | '#'*) ;;
		*) [ -n "$first" ] || first="$kind $arg" ;;
		esac
		case $kind in
		'' | '#'*) ;;
		kunit | module | rmmod) check_module "$at" "$arg" ;;
		program) check_program "$at" "$arg" ;;
		sleep) positive "$at: sleep's seconds" "$arg" ;;
		wait-log)
			positive "$at: wait-log's seconds" "$arg"
			[ -n "$rest" ] || die "$at: wait-log SECONDS names no text to wait for"
			;;
		expect-splat)
			[[ $line =~ ^[[:space:]]*expect-splat\ +[1-9][0-9]*\ +[^[:space:]] ]] ||
				die "$at: not 'expect-splat COUNT TITLE' (COUNT >= 1, TITLE a report's title such as 'WARNING: suspicious RCU usage', see README)"
			;;
		kmemleak-clear | kmemleak-scan | end-expect) ;;
		*) die "$at: unknown step '$kind'; steps: $STEPS; host-only lines (at the start of a line): $HOST_LINES" ;;
		esac
	done <"$1"
	[ "${2:-}" != control ] || [ -n "${seen[control]:-}" ] ||
		die "plan '$name' has no 'control:' line: it is no control"
	# A plan without a profile: line may run on any profile (make run
	# PROFILE=... PLAN=...): /init checks that at run time.
	[ -z "$plan_profile" ] || ! emulates "$plan_profile" || check_pin_first "$name" "$first"
}

# check_plan SPEC [control]: each plan of SPEC (NAME or NAME+NAME...)
# exists and reads well.
check_plan() {
	local list f
	local -a files

	case $1 in
	'' | +* | *+ | *++* | */* | *[[:space:]]*)
		die "plan '$1' is not NAME or NAME+NAME... (configs/plans/NAME.plan)"
		;;
	esac
	list=$(plan_files "$1")
	mapfile -t files <<<"$list"
	for f in "${files[@]}"; do
		check_steps "$f" "${2:-}"
	done
}

usage="usage: validate.sh [-p PROFILES] [-P PLAN]... [-C PLANS]"
profiles=() plans=() controls=() words=()
while getopts p:P:C: opt; do
	case $opt in
	p)
		read -ra words <<<"$OPTARG"
		[ ${#words[@]} -gt 0 ] || die "no profile to run (PROFILES is empty)"
		profiles+=("${words[@]}")
		;;
	P) plans+=("$OPTARG") ;;
	C)
		read -ra words <<<"$OPTARG"
		controls+=("${words[@]}")
		;;
	*) die "$usage" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || die "$usage"

check_env
for p in "${profiles[@]}"; do
	check_profile "$p"
done
for plan in "${plans[@]}"; do
	check_plan "$plan"
done
for plan in "${controls[@]}"; do
	check_plan "$plan" control
done
