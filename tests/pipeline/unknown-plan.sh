#!/usr/bin/env bash
# Bad input is refused before the first slow step: an unknown plan or
# profile, a step /init does not know, a module or program that does not
# exist, a bad control line, a missing fragment or patch, a bad number,
# an unknown kernel mutant, an emulated plan that does not pin RCU's
# kthreads first.
# Each run must fail within seconds, say why, and leave its build folder
# empty: no tree, no .config, no kernel.  The scripts run from a copy of
# the checkout, so that the plans and profiles made up here never show in
# it (its runs pack every plan into their initramfs).
set -u
. "$(dirname "$0")/../lib/refused.sh"

plan dev-step 'kunit rcuvet_smoke' 'frobnicate now'
plan dev-module 'kunit rcuvet_nosuch'
plan dev-program 'program no-such-program'
plan dev-timeout 'boot-timeout: 0' 'kunit rcuvet_smoke'
plan dev-ctl-kind 'control: verdict-maybe' 'kunit rcuvet_smoke'
plan dev-ctl-chain 'profile: dev-chain' 'control: verdict-passes' 'kunit rcuvet_smoke'
plan dev-emul-nopin 'profile: emulate-4.19' 'control: verdict-passes' '# comment' 'kunit rcuvet_smoke'
profile dev-fragment 'FRAGMENTS="base no-such-fragment"'
profile dev-mutant 'MUTANT_OF=debug' 'MUTANT_PATCHES="mutants/no-such.patch"'
profile dev-chain 'KERNEL_OF=emulate-4.19'
echo 0001-no-such.patch >"$t/series"

refused "unknown plan 'nope'; plans: " PLAN=nope PROFILES=debug scripts/run.sh &&
	refused "plan 'dev-step' line 2: unknown step 'frobnicate'" \
		PLAN=dev-step PROFILES=debug scripts/run.sh &&
	refused "plan 'dev-module' line 1: no module 'rcuvet_nosuch'" \
		PLAN=check+dev-module scripts/run.sh &&
	refused "plan 'dev-module' line 1: no module 'rcuvet_nosuch'" \
		PLAN=check+dev-module scripts/check.sh &&
	refused "plan 'dev-program' line 1: no program 'no-such-program'" \
		PLAN=dev-program PROFILES=debug scripts/run.sh &&
	refused "plan 'dev-step' line 2: unknown step" scripts/vet.sh debug dev-step "$t/out.d" &&
	refused "plan 'dev-timeout' line 1: boot-timeout is '0'" \
		PLAN=check+dev-timeout scripts/run.sh &&
	refused "plan 'dev-ctl-kind' line 1: unknown control 'verdict-maybe'" \
		scripts/controls-only.sh dev-ctl-kind &&
	refused "profile 'dev-chain' uses the kernel of 'emulate-4.19', which has none of its own" \
		scripts/controls-only.sh dev-ctl-chain &&
	refused "plan 'dev-emul-nopin' runs on an emulated profile but its first step is 'kunit rcuvet_smoke', not 'program rcu-pin CPU|isolated'" \
		scripts/controls-only.sh dev-emul-nopin &&
	refused "unknown profile 'nope'" PROFILES="debug nope" scripts/run.sh &&
	refused "profile 'dev-fragment' names fragment 'no-such-fragment'" \
		PROFILES=dev-fragment scripts/bench.sh &&
	refused "profile 'dev-mutant' names mutant patch 'mutants/no-such.patch'" \
		PROFILES=dev-mutant scripts/run.sh &&
	refused "series names '0001-no-such.patch'" RCUVET_SERIES="$t/series" scripts/run.sh &&
	refused "PATCHES is 'yes'" PATCHES=yes scripts/run.sh &&
	refused "JOBS is 'two'" JOBS=two scripts/run.sh &&
	refused "REPEAT is '0'" REPEAT=0 scripts/repeat.sh &&
	refused "unknown mutant 'nope'; mutants: " MUTANTS=nope scripts/mutants.sh
