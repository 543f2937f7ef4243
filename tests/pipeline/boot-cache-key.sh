#!/usr/bin/env bash
# The boot cache hits only a boot with the same kernel image, initramfs
# and plans, only under make check (RCUVET_BOOT_CACHE=1) and never with
# FRESH=1.  A boot's plans are those it runs, comments aside: editing
# another plan, or a comment, keeps its cache entry.
set -u
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export BUILD=$t/build RESULTS=$t/results
# shellcheck source=/dev/null
. "$(dirname "$0")/../../scripts/lib.sh"
set +e
load_profile debug
KOBJ=$t/kernel OBJ=$t/obj
mkdir -p "$KOBJ/arch/x86/boot" "$OBJ" "$t/out"
echo kernel >"$KOBJ/arch/x86/boot/bzImage"
echo initramfs >"$OBJ/initramfs-base.cpio"
echo plans >"$OBJ/initramfs-plans.cpio"
echo console >"$t/out/console.log"

# key PLAN: the boot key of the current inputs.
key() {
	boot_key "$1"
}

export RCUVET_BOOT_CACHE=1
unset FRESH
key check >"$t/out/boot.key"
boot_cached "$t/out" >/dev/null && echo "an empty cache hit"
boot_cache_keep "$t/out"
boot_cached "$t/out" >/dev/null || echo "the same boot missed the cache"
FRESH=1 boot_cached "$t/out" >/dev/null && echo "FRESH=1 hit the cache"
RCUVET_BOOT_CACHE=0 boot_cached "$t/out" >/dev/null && echo "a run outside make check hit the cache"

base=$(key check)
[ "$(key check)" = "$base" ] || echo "the key of unchanged inputs changed"
[ "$(key run)" != "$base" ] || echo "another plan has the same key"
[ "$(key check+run)" != "$base" ] || echo "a shared boot has the key of its first plan"
echo kernel2 >"$KOBJ/arch/x86/boot/bzImage"
[ "$(key check)" != "$base" ] || echo "a new kernel image has the old key"
echo kernel >"$KOBJ/arch/x86/boot/bzImage"
echo initramfs2 >"$OBJ/initramfs-base.cpio"
[ "$(key check)" != "$base" ] || echo "a new initramfs has the old key"
echo initramfs >"$OBJ/initramfs-base.cpio"
echo plans2 >"$OBJ/initramfs-plans.cpio"
[ "$(key check)" = "$base" ] || echo "the initramfs's other plans changed the key"

# Its own plans, comments aside (a plan written under build/ is found as
# make torture's are).
mkdir -p "$BUILD/plans"
printf '%s\n' '# a comment' 'kunit rcuvet_smoke' >"$BUILD/plans/rcuvet-test.plan"
mine=$(key rcuvet-test)
printf '%s\n' '# another comment' '' 'kunit rcuvet_smoke' >"$BUILD/plans/rcuvet-test.plan"
[ "$(key rcuvet-test)" = "$mine" ] || echo "a comment changed its plan's key"
[ "$(key check)" = "$base" ] || echo "editing one plan changed another's key"
printf '%s\n' 'kunit rcuvet_smoke reps=2' >"$BUILD/plans/rcuvet-test.plan"
[ "$(key rcuvet-test)" != "$mine" ] || echo "a new step kept its plan's key"
printf '%s\n' 'boot-timeout: 60' 'kunit rcuvet_smoke' >"$BUILD/plans/rcuvet-test.plan"
[ "$(key rcuvet-test)" != "$mine" ] || echo "a new boot limit kept its plan's key"
[ "$(plan_steps "$BUILD/plans/rcuvet-test.plan")" = "kunit rcuvet_smoke" ] ||
	echo "the guest's copy of a plan keeps host lines"
# shellcheck disable=SC2034 # boot_key reads it
PROFILE=nopreempt
[ "$(key check)" != "$base" ] || echo "another profile has the same key"
# A profile made of another (perf-full-emulate sources perf-full): a
# change to the one it sources changes its key; a profile that sources
# none keeps the key of its file alone.
mkdir -p "$BUILD/profiles"
echo 'CMDLINE=a' >"$BUILD/profiles/rcuvet-test-base.profile"
# shellcheck disable=SC2016 # the profile's own text
printf '%s\n' '. "${BASH_SOURCE[0]%/*}/rcuvet-test-base.profile"' 'FRAGMENTS="$FRAGMENTS x"' \
	>"$BUILD/profiles/rcuvet-test-child.profile"
# shellcheck disable=SC2034 # boot_key reads it
PROFILE=rcuvet-test-child
child=$(key check)
echo 'CMDLINE=b' >"$BUILD/profiles/rcuvet-test-base.profile"
[ "$(key check)" != "$child" ] || echo "a change to the profile a profile sources left its key"
[ "$(profile_sources "$(profile_file debug)")" = "$(profile_file debug)" ] ||
	echo "a profile that sources none is not made of its file alone"
