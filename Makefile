# SPDX-License-Identifier: GPL-2.0
# rcuvet: vet a kernel's consolidated RCU API in QEMU.
#
#   make run        build, boot and vet (profiles: PROFILES="debug nopreempt")
#   make check      the test suite: host tests, the check profiles and 6.1, the controls
#   make bench      reader cost and grace-period latency per preemption model
#   make bench-sys  context switch and system calls, BOOTS=5 boots of each profile
#   make repeat     the check plan REPEAT=10 times in a row: the flake hunt
#   make mutants    every kernel mutant must be caught (MUTANTS=a,b: some)
#   make torture    the tree's rcutorture scenarios under TCG (SCENARIOS=TREE01,SRCU-P: some)
#
# Variables: PROFILE=name or PROFILES="a b", TREE=6.12 (the default) or 6.1
# (Debian's linux-source-6.1, patched by kernel/patches/series-6.1),
# KSRC=/path/to/linux (your own tree; PATCHES=1 to apply
# kernel/patches/series, with TREE=6.1 series-6.1, to a copy of it), PLAN=name
# (run's plan, default "run"), JOBS=n, REPEAT=n (make repeat's rounds),
# BOOTS=n (make bench-sys's boots of each profile, default 5),
# BENCH_NAME=dir (make bench's results/ folder, default "bench"), FRESH=1
# (make check boots again where nothing changed since a boot that passed),
# CHECK_TREES="TREE:PROFILE ..." (make check's other trees, each booted on
# PROFILE, the first profile if none, with its plan check-TREE; default
# 6.1:nopreempt, none for no other tree),
# SCENARIOS=A,B, TORTURE_DURATION=seconds (default 60),
# TORTURE_MAX_CPUS=n (default: the host's CPUs) and TORTURE_EMULATE=4.19
# (v4.19's grace periods: a negative control, the scenarios must fail)
# for make torture.
#
# LAVA (docs/scale-out.md): make lava-jobs ARTIFACT_URL=prefix writes a LAVA
# job per boot of make check to results/lava/; make lava-validate also
# installs lava-dispatcher and runs lava-run --validate on each.
# LAVA=URI (http://USER:TOKEN@HOST, or "local": scripts/lava-lab-*.sh) runs
# the boots of make run, check, controls, mutants, selftest-harness and
# cpumap-bug on that LAVA lab (scripts/lava.sh; ARTIFACT_URL=prefix where
# the lab fetches results/lava/artifacts/, else served from here).

ifdef PROFILE
PROFILES := $(PROFILE)
endif
export PROFILES TREE KSRC PATCHES PLAN JOBS REPEAT BOOTS BENCH_NAME FRESH MUTANTS
export SCENARIOS TORTURE_DURATION TORTURE_MAX_CPUS TORTURE_EMULATE
export CONTROLS_PROFILE CHECK_TREES ARTIFACT_URL TSC_KHZ LAVA_DEVICE_TYPE FORCE
export LAVA LAVA_POLL LAVA_ARTIFACT_PORT

S := scripts
ifdef LAVA
ON_LAVA := $(S)/lava.sh
endif

help:
	@sed -n 's/^#   //p' Makefile
	@echo "  make profiles | selftest-harness | controls | cpumap-bug | reliance-baseline | test-host | coverage | clean"
	@echo "  make lava-jobs | lava-validate  (ARTIFACT_URL=prefix; docs/scale-out.md) | lava-check"

run: setup
	@$(ON_LAVA) $(S)/run.sh

check: setup
	@$(ON_LAVA) $(S)/check.sh

bench: setup
	@$(S)/bench.sh

bench-sys: setup
	@$(S)/bench-sys.sh

repeat: setup
	@$(S)/repeat.sh

mutants: setup
	@$(ON_LAVA) $(S)/mutants.sh

# The tree's rcutorture scenarios, each its own kernel (docs/torture.md).
torture: setup
	@$(S)/torture.sh

setup:
	@$(S)/setup.sh

profiles:
	@$(S)/profiles.sh

selftest-harness: setup
	@$(ON_LAVA) $(S)/controls-only.sh ctl-harness-

controls: setup
	@$(ON_LAVA) $(S)/controls-only.sh ctl-

# The cpumap page_pool bug (docs/xdp-teardown.md): its scenario must fail
# on the debug kernel without kernel/patches/0003-* and pass with it.
cpumap-bug: setup
	@$(ON_LAVA) $(S)/controls-only.sh xdp-bug-

# The reliance report's idle baselines: a boot per profile that runs no
# test; its sites, the kernel's own, go to configs/reliance-baseline-TREE-
# PROFILE.txt, which the report marks (docs/emulate-4.19.md).  Commit them.
# FORCE=1 writes one from a boot that failed or lost hits (the report says so).
reliance-baseline: setup
	@$(S)/reliance-idle.sh

# LAVA jobs need nothing of LAVA; validating them installs lava-dispatcher.
lava-jobs:
	@$(S)/lava-jobs.sh

lava-validate: lava-jobs
	@$(S)/setup-lava.sh
	@$(S)/lava-validate.sh

# A LAVA lab on this machine (scripts/lava-lab-*.sh), started and stopped
# again: every job of lava-jobs validated, the check plan's debug boot and
# an XDP teardown control through it, compared with the same boots here.
lava-check: setup
	@$(S)/lava-check.sh

test-host:
	@tests/run.sh build/host-tests.tsv

coverage:
	@$(S)/api-coverage.sh docs/api-coverage.md $(wildcard results/*/results.tsv)

clean:
	rm -rf build results

.PHONY: help run check bench bench-sys repeat mutants torture setup profiles selftest-harness controls cpumap-bug \
	reliance-baseline \
	test-host coverage clean lava-jobs lava-validate lava-check
