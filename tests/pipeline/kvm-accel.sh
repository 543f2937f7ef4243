#!/usr/bin/env bash
# kvm.sh's choice of accelerator (kernel/patches/0005-*), on the 6.12
# tree's rcutorture scripts with the patch applied: tcg where /dev/kvm is
# missing or not a character device, kvm where it is one that opens;
# under --remote (kvm-remote.sh's builds) kvm whatever this host has;
# TORTURE_QEMU_ACCEL over the probe, --accel over both; a bad value
# refused; --shutdown-grace 600 s under tcg, 180 s under kvm, unless
# given.  Each case runs "kvm.sh --dryrun script" (which builds and boots
# nothing) in a user and mount namespace whose /dev holds only null and,
# for the cases with KVM, a kvm that is the host's /dev/null (a
# character device that opens for reading and writing).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
. "$root/tests/lib/tree-files.sh"
src=$(tree_dir)
[ -n "$src" ] || { echo "no rcutorture scripts: neither the pristine 6.12 tree nor /usr/src/linux-source-6.12.tar.xz"; exit 0; }
sel=tools/testing/selftests
mkdir -p "$t/tree/$sel"
cp -r "$src/$sel/rcutorture" "$t/tree/$sel/"
patch -s -d "$t/tree" -p1 <"$root"/kernel/patches/0005-*.patch || { echo "patch 0005 does not apply"; exit 0; }
if ! unshare -rm true 2>"$t/err"; then
	echo "cannot make a user and mount namespace to run kvm.sh in: $(cat "$t/err")"
	exit 0
fi
: >"$t/null"

# kvmsh KVM ARGS...: "kvm.sh ARGS --dryrun script" with /dev/kvm if KVM
# is "kvm" (none if "-"); its output in $t/out, its exit status in $rc.
kvmsh() {
	local kvm=$1

	shift
	rc=0
	# shellcheck disable=SC2016 # expanded by the namespace's shell
	(cd "$t/tree" && unshare -rm bash -c '
		null=$1 kvm=$2
		shift 2
		mount --bind /dev/null "$null" &&
			mount -t tmpfs none /dev &&
			touch /dev/null && mount --bind "$null" /dev/null || exit 9
		if [ "$kvm" = kvm ]; then
			touch /dev/kvm && mount --bind "$null" /dev/kvm || exit 9
		fi
		exec bash tools/testing/selftests/rcutorture/bin/kvm.sh "$@" \
			--configs TREE01 --dryrun script' sh "$t/null" "$kvm" "$@") >"$t/out" 2>&1 || rc=$?
	rm -rf "$t/tree/$sel/rcutorture/res"
}

# expect WHAT ACCEL GRACE: the last run chose ACCEL, with GRACE seconds.
expect() {
	local line

	[ "$rc" = 0 ] || { echo "$1: kvm.sh exited $rc: $(tail -3 "$t/out" | paste -sd'|')"; return; }
	line=$(grep -m1 '^echo Accelerator: ' "$t/out")
	[ "$line" = "echo Accelerator: $2, grace: $3 s | tee -a ${line##* -a }" ] ||
		echo "$1: not $2 with $3 s: ${line:-no Accelerator line}"
}

unset TORTURE_QEMU_ACCEL
kvmsh - && expect "no /dev/kvm" tcg 600
kvmsh kvm && expect "/dev/kvm" kvm 180
kvmsh - --remote && expect "no /dev/kvm, --remote" kvm 180
kvmsh - --remote --accel tcg && expect "--remote --accel tcg" tcg 600
kvmsh kvm --shutdown-grace 50 --accel tcg && expect "--shutdown-grace 50" tcg 50
TORTURE_QEMU_ACCEL=tcg kvmsh kvm && expect "TORTURE_QEMU_ACCEL=tcg, /dev/kvm" tcg 600
TORTURE_QEMU_ACCEL=tcg kvmsh - --accel kvm && expect "--accel kvm over TORTURE_QEMU_ACCEL" kvm 180
TORTURE_QEMU_ACCEL=kvn kvmsh kvm
[ "$rc" != 0 ] && grep -qx 'TORTURE_QEMU_ACCEL=kvn: must be kvm or tcg, terminating.' "$t/out" ||
	echo "TORTURE_QEMU_ACCEL=kvn: not refused ($rc): $(tail -2 "$t/out" | paste -sd'|')"
kvmsh - --accel foo
[ "$rc" != 0 ] || echo "--accel foo: not refused"
kvmsh - --help
grep -qF -- '--accel kvm|tcg (default: kvm if /dev/kvm opens or with --remote, else tcg)' "$t/out" ||
	echo "--help: no --accel line: $(paste -sd'|' "$t/out")"
