# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# control-groups.sh, sourced by controls.sh and lava-jobs.sh: which boots
# the controls take.  Controls judged on their tests alone, on a clean
# kernel, share one boot; so do those whose splat is a lockdep RCU
# complaint in their own steps (see share_group).

# profile_of PLANFILE PROFILE: the profile a control boots ("profile:
# NAME" in its plan, or PROFILE).
profile_of() {
	local p

	p=$(sed -n 's/^profile:[[:space:]]*//p' "$1")
	printf '%s\n' "${p:-$2}"
}

# share_group PLANFILE PROFILE: the shared boot a control on the default
# profile PROFILE, with no time limit of its own, can join (a boot costs
# a debug guest ~20 s); nothing if it boots alone.
#   clean   judged on its own tests alone, and requires the kernel to stay
#           clean (a splat of one would blind the lock debugging of the
#           others);
#   splats  its verdict-level lines, judged on its own steps, name only a
#           failed test, lockdep's "suspicious RCU usage", an announced
#           splat that did not come, or a pass: none of them damages the
#           kernel or turns lock debugging off (lockdep, unlike for its
#           other reports, keeps debug_locks on after an RCU one).
# KASAN, WARN and hang controls boot alone: KASAN reports once a boot and
# turns lockdep off.
share_group() {
	local line

	[ "$(profile_of "$1" "$2")" = "$2" ] && ! grep -qE '^boot-timeout:' "$1" || return 0
	if grep -qE '^control:[[:space:]]*tests-pass[[:space:]]+kernel-clean[[:space:]]*$' "$1"; then
		grep -qE '^control:[[:space:]]*verdict-' "$1" || echo clean
		return 0
	fi
	grep -qE '^control:[[:space:]]*verdict-' "$1" || return 0
	while read -r line; do
		case $line in
		"verdict-fails kernel splat: WARNING: suspicious RCU usage" | \
			"verdict-fails expected splat '"* | "verdict-fails test "* | verdict-passes) ;;
		verdict-*) return 0 ;;
		esac
	done < <(sed -n 's/^control:[[:space:]]*//p' "$1")
	echo splats
}

# group_controls PROFILE PLAN...: sort the control plans into the arrays
# clean and splats (each one shared boot on PROFILE, when it has more than
# one plan) and alone (a boot each, on the plan's own profile).
group_controls() {
	local profile=$1 plan planfile

	shift
	clean=() splats=() alone=()
	for plan in "$@"; do
		planfile=$(plan_files "$plan") || return 1
		case $(share_group "$planfile" "$profile") in
		clean) clean+=("$plan") ;;
		splats) splats+=("$plan") ;;
		*) alone+=("$plan") ;;
		esac
	done
	[ ${#clean[@]} -gt 1 ] || { alone+=("${clean[@]}"); clean=(); }
	[ ${#splats[@]} -gt 1 ] || { alone+=("${splats[@]}"); splats=(); }
}
