#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# initramfs PROFILE: busybox, /init, the guest programs, every test module
# (ours and the tree's), the tree's rcutorture kselftest and every plan,
# packed by the tree's gen_init_cpio: two archives, the plans in the
# second, one after the other in initramfs.cpio (the kernel unpacks each).
# A boot's key hashes the first and the plans that boot runs (boot_key),
# so that editing one plan leaves every other boot's cache entry valid.
. "$(dirname "$0")/lib.sh"

load_profile "${1:?usage: initramfs.sh PROFILE}"
gen=$KOBJ/usr/gen_init_cpio
[ -x "$gen" ] || die "$gen is missing: is CONFIG_BLK_DEV_INITRD set in '$PROFILE'?"
list=$OBJ/initramfs.list
plans=$OBJ/plans
rm -rf "$plans"
mkdir -p "$plans"

# pack LIST ARCHIVE: gen_init_cpio with every time stamp 0: the same
# inputs give the same archive, byte for byte, which the boot cache
# (lib.sh) relies on.
pack() {
	"$gen" -t 0 "$1" >"$2" || die "gen_init_cpio failed on $1"
}

{
	for d in /bin /dev /proc /sys /tmp /etc /etc/rcuvet /etc/rcuvet/plans /lib /lib/modules; do
		echo "dir $d 755 0 0"
	done
	echo "nod /dev/console 600 0 0 c 5 1"
	echo "file /init $BUILD/guest/init 755 0 0"
	echo "file /bin/busybox /bin/busybox 755 0 0"
	/bin/busybox --list | grep -vx busybox | sed 's|.*|slink /bin/& busybox 777 0 0|'
	# A program whose kernel side this kernel lacks has a stand-in
	# (stand_ins) that skips, saying why.
	stand_ins >"$OBJ/stand-ins"
	for prog in "$BUILD"/guest/*; do
		name=$(basename "$prog")
		[ "$name" = init ] || [ ! -x "$prog" ] || [ -d "$prog" ] ||
			grep -q "^$name " "$OBJ/stand-ins" ||
			echo "file /bin/$name $prog 755 0 0"
	done
	while read -r name reason; do
		stand_in "$name" "$reason"
	done <"$OBJ/stand-ins"
	find "$OBJ/modules" "$KOBJ" -name '*.ko' -printf '%f %p\n' | sort -u -k1,1 |
		while read -r name path; do
			echo "file /lib/modules/$name $path 644 0 0"
		done
	# The tree's rcutorture kselftest (kernel/patches/0004), laid out as
	# kselftest installs it (the script finds ../kselftest/ktap_helpers.sh);
	# plans run it as "program kselftest-rcutorture".  A tree without it
	# (6.1, a KSRC= tree unpatched) gets a stand-in that skips, saying why.
	ks=$TREE/tools/testing/selftests
	if [ -f "$ks/rcutorture/rcutorture-smoke.sh" ]; then
		for d in /kselftest /kselftest/rcutorture /kselftest/kselftest; do
			echo "dir $d 755 0 0"
		done
		echo "file /kselftest/rcutorture/rcutorture-smoke.sh $ks/rcutorture/rcutorture-smoke.sh 755 0 0"
		echo "file /kselftest/kselftest/ktap_helpers.sh $ks/kselftest/ktap_helpers.sh 644 0 0"
		echo "slink /bin/kselftest-rcutorture /kselftest/rcutorture/rcutorture-smoke.sh 777 0 0"
	else
		stand_in kselftest-rcutorture "not in tree $TREE_NAME: kernel/patches/0004 is 6.12's"
	fi
} >"$list"
pack "$list" "$OBJ/initramfs-base.cpio"

# The plans, their steps only (plan_steps): host lines ("control: ...",
# "boot-timeout: ...") and comments stay on the host.  A plan written for
# this profile's boots (make torture's), if any, too.
{
	for plan in "$RCUVET_ROOT"/configs/plans/*.plan "$BUILD/plans/$PROFILE.plan"; do
		[ -f "$plan" ] || continue
		plan_steps "$plan" >"$plans/$(basename "$plan")"
		echo "file /etc/rcuvet/plans/$(basename "$plan") $plans/$(basename "$plan") 644 0 0"
	done
} >"$OBJ/initramfs-plans.list"
pack "$OBJ/initramfs-plans.list" "$OBJ/initramfs-plans.cpio"
cat "$OBJ/initramfs-base.cpio" "$OBJ/initramfs-plans.cpio" >"$OBJ/initramfs.cpio"
