# shellcheck shell=bash
# Sourced by the host tests of a run on a LAVA lab (scripts/lava.sh): a
# stand-in lab (tests/lava/lavacli first on PATH, its data in $STUB_LAVA),
# a debug kernel and initramfs as if built, and a run of three boots, a, b
# and c ($t/entry.sh, which does for each what vet.sh does at its boot
# step, and in the judge pass prints "BOOT: STATUS" and keeps the console
# it got).  No LAVA, no kernel, no QEMU.
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
unset LAVA ARTIFACT_URL LAVA_DIR LAVA_DEVICE_TYPE RCUVET_LAVA_PASS PROFILES PLAN KSRC PATCHES
export BUILD=$t/build RESULTS=$t/results STUB_LAVA=$t/lab TSC_KHZ=1 LAVA_POLL=0
export PATH=$root/tests/lava:$PATH
export LAVA=http://rcuvet:token@127.0.0.1:1 ARTIFACT_URL=file://$RESULTS/lava/artifacts
mkdir -p "$STUB_LAVA/outcomes" "$BUILD/debian/debug/kernel/arch/x86/boot"
echo kernel >"$BUILD/debian/debug/kernel/arch/x86/boot/bzImage"
echo initramfs >"$BUILD/debian/debug/initramfs.cpio"
console=$root/tests/verdict/all-pass/console.log
cp "$console" "$STUB_LAVA/console"

cat >"$t/entry.sh" <<EOF
#!/usr/bin/env bash
for b in a b c; do
	out=\$RESULTS/\$b
	rm -rf "\$out"
	mkdir -p "\$out"
	echo "key-\$b" >"\$out/boot.key"
	rc=0
	"$root/scripts/lava-boot.sh" debug check "\$out" >"\$out/boot.out" 2>&1 || rc=\$?
	[ "\$RCUVET_LAVA_PASS" != judge ] || echo "\$b: \$rc"
done
EOF
chmod +x "$t/entry.sh"

# lava_run SECONDS: scripts/lava.sh on the run of entry.sh, its output in
# $t/out; stopped after SECONDS.  Its status.
lava_run() {
	local rc=0

	(cd "$root" && timeout -k 5 "$1" scripts/lava.sh "$t/entry.sh") >"$t/out" 2>&1 || rc=$?
	return $rc
}

# submitted: how many jobs the stand-in lab was given.
submitted() {
	cat "$STUB_LAVA/submitted" 2>/dev/null || echo 0
}

# judged BOOT STATUS: the judge pass gave BOOT that status (0: a console,
# 3: an infrastructure error).
judged() {
	grep -qx "$1: $2" "$t/out" || echo "boot $1 did not end with status $2: $(grep "^$1: " "$t/out")"
}

# collected BOOT: BOOT has the console the lab recorded, as booted.
collected() {
	grep -v '^$' "$console" | cmp -s - "$RESULTS/$1/console.log" ||
		echo "boot $1: its console is not the one booted on the lab"
}

# jobs_of BOOT: how many jobs BOOT took.
jobs_of() {
	wc -l <"$RESULTS/lava/boots/key-$1/jobs"
}
