#!/usr/bin/env bash
# The boot cache hits only a boot with the same kernel image, initramfs
# and plans, only under make check (RCUVET_BOOT_CACHE=1) and never with
# FRESH=1.
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
echo initramfs >"$OBJ/initramfs.cpio"
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
echo initramfs2 >"$OBJ/initramfs.cpio"
[ "$(key check)" != "$base" ] || echo "a new initramfs has the old key"
# shellcheck disable=SC2034 # boot_key reads it
PROFILE=nopreempt
[ "$(key check)" != "$base" ] || echo "another profile has the same key"
