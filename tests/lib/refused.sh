# shellcheck shell=bash
# Sourced by the host tests that run the pipeline on bad input: a copy of
# the checkout in a temporary folder (its made-up plans, profiles and
# mutants never show in the checkout, whose runs pack every plan into
# their initramfs), plan/profile makers, and refused().
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
root=$t/rcuvet
mkdir -p "$root"
cp -r "$(dirname "${BASH_SOURCE[0]}")"/../../{scripts,configs,kernel,guest} "$root/"
unset KSRC PATCHES JOBS REPEAT BENCH_NAME PROFILES PLAN CONTROLS_PROFILE \
	RCUVET_KERNEL_BUILD RCUVET_BOOT_LOCK RCUVET_SERIES MUTANTS
export BUILD=$t/build RESULTS=$t/results
limit=20

# plan NAME LINE...: a plan of the copy.
plan() {
	printf '%s\n' "${@:2}" >"$root/configs/plans/$1.plan"
}

# profile NAME LINE...: a profile of the copy.
profile() {
	printf '%s\n' "${@:2}" >"$root/configs/profiles/$1.profile"
}

# refused SAYS VAR=VALUE... SCRIPT ARG...: the script, run from the copy
# with those variables, fails within seconds saying SAYS and builds
# nothing.  Fails (status 1) if it was still running after $limit s.
refused() {
	local says=$1 rc=0 left

	shift
	rm -rf "$BUILD" "$RESULTS"
	(cd "$root" && timeout -k 5 "$limit" env "$@") >"$t/out" 2>&1 || rc=$?
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		echo "$*: still running after $limit s (building?); stopped, and the other cases with it"
		return 1
	fi
	[ $rc -ne 0 ] || echo "$*: passed"
	grep -qF -- "rcuvet: error: $says" "$t/out" ||
		echo "$*: does not say '$says' but: $(tail -n 1 "$t/out")"
	left=$(find "$BUILD" -mindepth 1 -maxdepth 1 -printf "%f " 2>/dev/null)
	[ -z "$left" ] || echo "$*: left $left in its build folder"
}
