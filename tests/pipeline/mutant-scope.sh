#!/usr/bin/env bash
# A modules-scope kernel mutant (Mutant-scope: modules, MUTANT_SCOPE=
# modules) boots its base's kernel as it is and only compiles our test
# modules against its tree: a patch of it that changes a file outside
# include/ would never run, so it is refused, and so is a scope that is
# neither kernel nor modules.  Each run must fail within seconds, say why,
# and leave its build folder empty: no profile, no tree, no kernel.  The
# scripts run from a copy of the checkout (see unknown-plan.sh).
set -u
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
root=$t/rcuvet
mkdir -p "$root"
cp -r "$(dirname "$0")"/../../{scripts,configs,kernel,guest} "$root/"
unset KSRC PATCHES JOBS REPEAT BENCH_NAME PROFILES PLAN CONTROLS_PROFILE \
	RCUVET_KERNEL_BUILD RCUVET_BOOT_LOCK RCUVET_SERIES MUTANTS
export BUILD=$t/build RESULTS=$t/results
limit=20
mutants=$root/kernel/patches/mutants

# mutant NAME SCOPE FILE: a mutant patch of the copy, of scope SCOPE,
# that changes FILE.
mutant() {
	cat >"$mutants/$1.patch" <<-EOT
	From: rcuvet <rcuvet@localhost>
	Subject: [PATCH] rcuvet mutant: a made-up one

	Mutant-of: debug
	Mutant-plan: mutants-list
	Killed-by: rcuvet_list.*
	Mutant-scope: $2
	---
	--- a/$3
	+++ b/$3
	@@ -1,1 +1,2 @@
	 x
	+y
	EOT
}

# profile NAME LINE...: a profile of the copy.
profile() {
	printf '%s\n' "${@:2}" >"$root/configs/profiles/$1.profile"
}

mutant dev-scope-tree modules kernel/rcu/tree.c
mutant dev-scope-both modules include/linux/rculist.h
# A second file, outside include/, in the same patch.
cat >>"$mutants/dev-scope-both.patch" <<'EOT'
--- a/kernel/rcu/update.c
+++ b/kernel/rcu/update.c
@@ -1,1 +1,2 @@
 x
+y
EOT
mutant dev-scope-word module include/linux/rculist.h
profile dev-scope-profile 'MUTANT_OF=debug' 'MUTANT_SCOPE=modules' \
	'MUTANT_PATCHES="mutants/dev-scope-tree.patch"'
profile dev-scope-bogus 'MUTANT_OF=debug' 'MUTANT_SCOPE=everything' \
	'MUTANT_PATCHES="mutants/dev-scope-word.patch"'
profile dev-scope-orphan 'FRAGMENTS="base"' 'MUTANT_SCOPE=modules'

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

refused "mutant 'dev-scope-tree' is 'Mutant-scope: modules' but changes kernel/rcu/tree.c, outside include/" \
	MUTANTS=dev-scope-tree scripts/mutants.sh &&
	refused "mutant 'dev-scope-both' is 'Mutant-scope: modules' but changes kernel/rcu/update.c, outside include/" \
		MUTANTS=dev-scope-both scripts/mutants.sh &&
	refused "mutant 'dev-scope-word' has 'Mutant-scope: module', not kernel or modules" \
		MUTANTS=dev-scope-word scripts/mutants.sh &&
	refused "profile 'dev-scope-profile' is MUTANT_SCOPE=modules but its patches change kernel/rcu/tree.c, outside include/" \
		scripts/vet.sh dev-scope-profile mutants-list "$t/out.d" &&
	refused "profile 'dev-scope-bogus': MUTANT_SCOPE is 'everything', not kernel" \
		scripts/vet.sh dev-scope-bogus mutants-list "$t/out.d" &&
	refused "profile 'dev-scope-orphan' sets MUTANT_SCOPE but mutates no profile" \
		PROFILES=dev-scope-orphan scripts/run.sh
