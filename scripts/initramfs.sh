#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# initramfs PROFILE: busybox, /init, the guest programs, every test module
# (ours and the tree's) and every plan, packed by the tree's gen_init_cpio.
. "$(dirname "$0")/lib.sh"

load_profile "${1:?usage: initramfs.sh PROFILE}"
gen=$KOBJ/usr/gen_init_cpio
[ -x "$gen" ] || die "$gen is missing: is CONFIG_BLK_DEV_INITRD set in '$PROFILE'?"
list=$OBJ/initramfs.list
plans=$OBJ/plans
rm -rf "$plans"
mkdir -p "$plans"

{
	for d in /bin /dev /proc /sys /tmp /etc /etc/rcuvet /etc/rcuvet/plans /lib /lib/modules; do
		echo "dir $d 755 0 0"
	done
	echo "nod /dev/console 600 0 0 c 5 1"
	echo "file /init $BUILD/guest/init 755 0 0"
	echo "file /bin/busybox /bin/busybox 755 0 0"
	/bin/busybox --list | grep -vx busybox | sed 's|.*|slink /bin/& busybox 777 0 0|'
	for prog in "$BUILD"/guest/*; do
		name=$(basename "$prog")
		[ "$name" = init ] || [ ! -x "$prog" ] || [ -d "$prog" ] ||
			echo "file /bin/$name $prog 755 0 0"
	done
	find "$OBJ/modules" "$KOBJ" -name '*.ko' -printf '%f %p\n' | sort -u -k1,1 |
		while read -r name path; do
			echo "file /lib/modules/$name $path 644 0 0"
		done
	# Host-only lines ("control: ...", "boot-timeout: ...") stay on the host.
	for plan in "$RCUVET_ROOT"/configs/plans/*.plan; do
		grep -vE '^[a-z-]+:' "$plan" >"$plans/$(basename "$plan")"
		echo "file /etc/rcuvet/plans/$(basename "$plan") $plans/$(basename "$plan") 644 0 0"
	done
} >"$list"
# Every time stamp 0: the same inputs give the same archive, byte for
# byte, which the boot cache (lib.sh) relies on.
"$gen" -t 0 "$list" >"$OBJ/initramfs.cpio" || die "gen_init_cpio failed on $list"
