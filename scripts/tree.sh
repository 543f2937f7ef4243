#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tree: extract Debian's linux-source-6.12 once, then lay the patch series
# (kernel/patches/series, quilt order) onto a copy of it whenever the
# series changes.  With KSRC= the user's tree is used as it is, or, with
# PATCHES=1, copied and patched the same way.  Given a mutant PROFILE, the
# tree is that profile's own: the series, then its MUTANT_PATCHES.
#   tree.sh [PROFILE]
. "$(dirname "$0")/lib.sh"

[ -z "${1:-}" ] || load_profile "$1"

# touched_files PATCH...: the files a patch series writes.
touched_files() {
	cat /dev/null "$@" | sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' | sort -u
}

extract_pristine() {
	[ -f "$PRISTINE/.rcuvet-extracted" ] && return
	[ -f "$DEBIAN_TARBALL" ] ||
		die "$DEBIAN_TARBALL is missing: install Debian's linux-source-6.12 (make setup)"
	step "extract $(basename "$DEBIAN_TARBALL")"
	rm -rf "$PRISTINE" "$PRISTINE.tmp"
	mkdir -p "$PRISTINE.tmp"
	tar -xf "$DEBIAN_TARBALL" -C "$PRISTINE.tmp" --strip-components=1
	touch "$PRISTINE.tmp/.rcuvet-extracted"
	mv "$PRISTINE.tmp" "$PRISTINE"
}

# copy_tree SRC DST: DST as SRC, mtimes kept (make rebuilds only what the
# patches change).  The pristine tree is only read, so its files are
# hard-linked, not copied (5 s instead of ~35 s): patch(1) writes a
# patched file as a new inode, and own_inode gives the others their own.
copy_tree() {
	if [ "$1" = "$PRISTINE" ]; then
		cp -al "$1" "$2"
	else
		cp -a "$1" "$2"
	fi
}

# own_inode FILE...: in the current folder, each FILE as its own inode.
own_inode() {
	local f

	for f in "$@"; do
		[ -f "$f" ] || continue
		cp -p "$f" "$f.rcuvet-copy"
		mv -f "$f.rcuvet-copy" "$f"
	done
}

# apply_series SRC: copy SRC to $TREE and apply the series.
apply_series() {
	local src=$1 new=$TREE.new patch out
	local -a patches touched

	mapfile -t patches < <(series_patches)
	step "apply ${#patches[@]} patch(es) of kernel/patches/series${MUTANT_OF:+ and the mutant patches of $PROFILE} to $(basename "$TREE")"
	rm -rf "$new"
	copy_tree "$src" "$new"
	for patch in "${patches[@]}"; do
		note "$(basename "$patch")"
		if ! out=$(patch -p1 --batch --forward -d "$new" -i "$patch" 2>&1); then
			printf '%s\n' "$out" | grep -E 'FAILED|malformed|can.t find|Reversed|Only garbage' >&2 || true
			find "$new" -name '*.rej' -newer "$new/Makefile" -exec sh -c 'echo "--- $1:"; head -40 "$1"' _ {} \; >&2
			die "patch $(basename "$patch") does not apply to $(basename "$src") (hunks above); fix or refresh it"
		fi
	done
	# Files a previous series touched go back to pristine content with
	# pristine mtimes: touch them, or make would keep stale objects; each
	# as its own inode first, so the pristine tree's mtimes do not move.
	mapfile -t touched < <({
		touched_files "${patches[@]}"
		cat "$TREE.files" 2>/dev/null || true
	} | sort -u)
	[ ${#touched[@]} -eq 0 ] ||
		(cd "$new" && own_inode "${touched[@]}" && touch -c -- "${touched[@]}")
	touched_files "${patches[@]}" >"$TREE.files"
	rm -rf "$TREE"
	mv "$new" "$TREE"
}

if borrowed_kernel; then
	note "tree: borrowed with the kernels from $KBUILD_ROOT"
	exit 0
fi
mkdir -p "$BUILD/tree" "$(dirname "$TREE")"
if [ -n "${KSRC:-}" ] && [ "${PATCHES:-0}" != 1 ] && [ -z "${MUTANT_OF:-}" ]; then
	id="ksrc $KSRC $(git -C "$KSRC" rev-parse HEAD 2>/dev/null || stat -c %Y "$KSRC/Makefile")"
	[ "$(cat "$TREE_ID" 2>/dev/null)" = "$id" ] || printf '%s\n' "$id" >"$TREE_ID"
	note "tree: $KSRC (as it is; PATCHES=1 applies the series to a copy)"
	exit 0
fi

if [ -n "${KSRC:-}" ]; then
	src=$KSRC
else
	extract_pristine
	src=$PRISTINE
fi
mapfile -t patches < <(series_patches)
# A series that names a missing patch dies in the process substitution.
wait $!
id="$src $(hash_of "${patches[@]}")"
if [ -d "$TREE" ] && [ "$(cat "$TREE_ID" 2>/dev/null)" = "$id" ]; then
	note "tree: $TREE is up to date with the series"
	exit 0
fi
rm -f "$TREE_ID"
apply_series "$src"
printf '%s\n' "$id" >"$TREE_ID"
