#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# mutants: the kernel-mutant catalogue.  Each kernel/patches/mutants/*.patch
# with a "Killed-by:" line is a small, deliberate bug in the kernel; its
# header names the profile it mutates (Mutant-of:), the plan that must
# catch it (Mutant-plan:) and the test case that must fail (Killed-by:, a
# glob; or "splat: TEXT", a verdict line that must say TEXT).  For each
# (MUTANTS=a,b runs some): the mutant's kernel (its base's objects, the
# files it touches recompiled), a boot of its plan, and a row: killed by
# the named case (pass), killed otherwise or survived (fail).  A patch
# with "Mutant-scope: modules" (default: kernel) changes only headers
# under include/ that our test modules inline: its kernel is its base's as
# it is, and only kernel/modules is compiled against its tree (no kernel
# build; lib.sh, load_profile).  A killed mutant's boot is kept in the
# boot cache: a rerun with nothing changed judges it again instead of
# booting.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mutant-killer.sh"

dir=$RCUVET_ROOT/kernel/patches/mutants
out=$RESULTS/mutants
tsv=$out/mutants.tsv
export RCUVET_BOOT_CACHE=1

# header PATCH FIELD: the value of a "FIELD: value" line of PATCH's message.
header() {
	sed -n "/^---\$/q; s/^$2:[[:space:]]*//p" "$1" | head -1
}

mapfile -t all < <(grep -l '^Killed-by:' "$dir"/*.patch | xargs -n1 basename | sed 's/\.patch$//')
if [ -n "${MUTANTS:-}" ]; then
	wanted=()
	for m in ${MUTANTS//,/ }; do
		[ -f "$dir/$m.patch" ] && grep -q '^Killed-by:' "$dir/$m.patch" ||
			die "unknown mutant '$m'; mutants: ${all[*]}"
		wanted+=("$m")
	done
	all=("${wanted[@]}")
fi

# scope MUTANT: its Mutant-scope: line, kernel if it has none.
scope() {
	local s

	s=$(header "$dir/$1.patch" Mutant-scope)
	printf '%s\n' "${s:-kernel}"
}

# Every header first, before anything is written or built.  A
# modules-scope mutant boots its base's kernel unchanged, so a change of
# it outside include/ would never be compiled: refused.
for m in "${all[@]}"; do
	for f in Mutant-of Mutant-plan Killed-by; do
		[ -n "$(header "$dir/$m.patch" $f)" ] || die "mutant '$m' has no '$f:' line"
	done
	case $(scope "$m") in
	kernel) ;;
	modules)
		outside=$(outside_include "$dir/$m.patch" | xargs)
		[ -z "$outside" ] ||
			die "mutant '$m' is 'Mutant-scope: modules' but changes $outside, outside include/: its kernel is not rebuilt, so that change would never run (drop the line to build its kernel)"
		;;
	*) die "mutant '$m' has 'Mutant-scope: $(scope "$m")', not kernel or modules" ;;
	esac
done

# Each mutant is a profile of its own, written where profile_file finds it.
mkdir -p "$BUILD/profiles" "$out"
for m in "${all[@]}"; do
	cat >"$BUILD/profiles/mutant-$m.profile" <<-EOT
	DESCRIPTION="$(header "$dir/$m.patch" Subject | sed 's/^\[PATCH\] //')"
	MUTANT_OF=$(header "$dir/$m.patch" Mutant-of)
	MUTANT_PATCHES="mutants/$m.patch"
	EOT
	# Only when not the default: the kernel mutants' profiles, and so
	# their boot keys, stay as they were.
	[ "$(scope "$m")" = kernel ] ||
		echo "MUTANT_SCOPE=$(scope "$m")" >>"$BUILD/profiles/mutant-$m.profile"
	"$RCUVET_ROOT/scripts/validate.sh" -p "mutant-$m" -P "$(header "$dir/$m.patch" Mutant-plan)"
done

: >"$tsv"
for m in "${all[@]}"; do
	plan=$(header "$dir/$m.patch" Mutant-plan)
	glob=$(header "$dir/$m.patch" Killed-by)
	step "mutant $m: plan $plan must fail $glob"
	start=$(date +%s)
	vet_control "mutant-$m" "$plan" "$out/$m"
	secs=$(($(date +%s) - start))
	case $rc in
	0) why="SURVIVED: $plan passed" ;;
	1) why=$(killer "$out/$m" "$glob") ;;
	*) why="could not run: $(vet_stopped "$out/$m" "$rc")" ;;
	esac
	if [ "${why#killed by }" != "$why" ]; then
		boot_cache_keep "$out/$m"
		printf 'mutants\t%s\tpass\t%s\t%s\n' "$m" "$secs" "$why" >>"$tsv"
	else
		printf 'mutants\t%s\tfail\t%s\t%s\n' "$m" "$secs" "$why" >>"$tsv"
	fi
	note "mutant $m: $why ($secs s)"
done

mutants_table "$tsv" >"$out/report.md"
finish "$tsv"
