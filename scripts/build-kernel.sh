#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# build-kernel PROFILE: bzImage and the tree's modules, through ccache.
. "$(dirname "$0")/lib.sh"

load_profile "${1:?usage: build-kernel.sh PROFILE}"
if borrowed_kernel; then
	[ -f "$KOBJ/.rcuvet-built" ] ||
		die "no built kernel for '$PROFILE' in $KOBJ (RCUVET_KERNEL_BUILD): build it in its own checkout"
	exit 0
fi
# A modules-scope mutant boots its base's kernel: KOBJ is the base's own
# folder, which the mutant tree must never build.
if [ "$MUTANT_SCOPE" = modules ]; then
	[ -f "$KOBJ/.rcuvet-built" ] ||
		die "the kernel of '$MUTANT_OF' in $KOBJ is not built; the modules-scope mutant '$PROFILE' boots it"
	note "kernel of '$PROFILE': the kernel of '$MUTANT_OF' as it is (modules-scope mutant: only our modules see its headers)"
	exit 0
fi
log=$KOBJ/build.log
stamp=$KOBJ/.rcuvet-built
want=$(hash_of "$KOBJ/.config" "$TREE_ID")

# payload_fresh: the bzImage holds this build's vmlinux, that is piggy.o
# holds the compressed vmlinux it was assembled from (scripts/ccache-gcc
# says how a cache could hand back another kernel's).
payload_fresh() {
	local dir=$KOBJ/arch/x86/boot/compressed payload got rc=0

	payload=$(sed -n 's/^\.incbin "\(.*\)"$/\1/p' "$dir/piggy.S" 2>/dev/null)
	[ -n "$payload" ] && [ -f "$KOBJ/$payload" ] || return 1
	got=$(mktemp)
	objcopy -O binary --only-section=.rodata..compressed "$dir/piggy.o" "$got" &&
		cmp -s "$got" "$KOBJ/$payload" || rc=1
	rm -f "$got"
	return $rc
}

# The packaged tree only changes through the series, so an unchanged
# config and tree id mean an unchanged kernel; a user's tree may change
# under us, so make always runs there.
if [ -z "${KSRC:-}" ] && [ -f "$KOBJ/arch/x86/boot/bzImage" ] &&
	[ "$(cat "$stamp" 2>/dev/null)" = "$want" ] && payload_fresh; then
	note "kernel of '$PROFILE' is up to date"
	exit 0
fi

step "build kernel $PROFILE (log: ${log#"$RCUVET_ROOT"/})"
rm -f "$stamp"
# A stale piggy.o (from a cache, before ccache-gcc) is assembled again.
payload_fresh || rm -f "$KOBJ/arch/x86/boot/compressed/piggy.o"
mkdir -p "$CCACHE_DIR"
ccache -M 20G >/dev/null
start=$(date +%s)
kmake bzImage modules >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null' EXIT
while kill -0 $pid 2>/dev/null; do
	sleep 30
	kill -0 $pid 2>/dev/null || break
	note "still building ($(elapsed), $(files_compiled "$log") files compiled)"
done
trap - EXIT
if ! wait $pid; then
	grep -E 'error|Error' "$log" | head -20 >&2
	tail -20 "$log" >&2
	die "kernel build of '$PROFILE' failed; full log: $log"
fi
payload_fresh ||
	die "the bzImage of '$PROFILE' does not hold the vmlinux just built (arch/x86/boot/compressed/piggy.o); delete $KOBJ and build again"
note "kernel built in $(($(date +%s) - start)) s"
# How long it took, for make torture's table.
echo $(($(date +%s) - start)) >"$KOBJ/build-seconds"
printf '%s\n' "$want" >"$stamp"
