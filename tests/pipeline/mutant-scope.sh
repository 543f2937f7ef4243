#!/usr/bin/env bash
# A modules-scope kernel mutant (Mutant-scope: modules, MUTANT_SCOPE=
# modules) boots its base's kernel as it is and only compiles our test
# modules against its tree: a patch of it that changes a file outside
# include/ would never run, so it is refused, and so is a scope that is
# neither kernel nor modules.  Each run must fail within seconds, say why,
# and leave its build folder empty: no profile, no tree, no kernel.  The
# scripts run from a copy of the checkout (see unknown-plan.sh).
set -u
. "$(dirname "$0")/../lib/refused.sh"
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
