#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tree: extract Debian's linux-source-6.12 (TREE=6.1: linux-source-6.1)
# once, then lay the tree's patch series (kernel/patches/series, or
# series-6.1 naming kernel/patches/6.1/*.patch; quilt order) onto a copy
# of it whenever the series changes.  With KSRC= the user's tree is used
# as it is, or, with PATCHES=1, copied and patched the same way.  Given a mutant PROFILE, the
# tree is that profile's own: its base profile's tree, hard-linked, with
# its MUTANT_PATCHES on top.
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
		die "$DEBIAN_TARBALL is missing: install Debian's linux-source-$RCUVET_TREE (make setup)"
	step "extract $(basename "$DEBIAN_TARBALL")"
	rm -rf "$PRISTINE" "$PRISTINE.tmp"
	mkdir -p "$PRISTINE.tmp"
	tar -xf "$DEBIAN_TARBALL" -C "$PRISTINE.tmp" --strip-components=1
	touch "$PRISTINE.tmp/.rcuvet-extracted"
	mv "$PRISTINE.tmp" "$PRISTINE"
}

# copy_tree SRC DST: DST as SRC, mtimes kept (make rebuilds only what the
# patches change).  The pristine tree and a mutant's base tree are only
# read, so their files are hard-linked, not copied (5 s instead of ~35 s):
# patch(1) writes a patched file as a new inode, and own_inode gives the
# others their own.
copy_tree() {
	if [ "$1" = "$PRISTINE" ] || [ -n "${MUTANT_OF:-}" ]; then
		cp -al "$1" "$2" 2>/dev/null || { rm -rf "$2" && cp -a "$1" "$2"; }
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

# apply_patches SRC DIR PATCH...: apply each PATCH to DIR, a copy of SRC.
apply_patches() {
	local src=$1 dir=$2 patch out

	shift 2
	for patch in "$@"; do
		note "$(basename "$patch")"
		if ! out=$(patch -p1 --batch --forward -d "$dir" -i "$patch" 2>&1); then
			printf '%s\n' "$out" | grep -E 'FAILED|malformed|can.t find|Reversed|Only garbage' >&2 || true
			find "$dir" -name '*.rej' -newer "$dir/Makefile" -exec sh -c 'echo "--- $1:"; head -40 "$1"' _ {} \; >&2
			die "patch $(basename "$patch") does not apply to $(basename "$src") (hunks above); fix or refresh it"
		fi
	done
}

# mutant_tree: the base profile's tree, hard-linked, with the mutant
# patches applied (new inodes: the base tree stays as it is), whenever the
# base tree or the mutant patches change.
mutant_tree() {
	local id new=$TREE.new
	local -a patches

	mapfile -t patches < <(mutant_patches)
	wait $!
	id="$(cat "$SHARED_TREE_ID") $(hash_of "${patches[@]}")"
	if [ -d "$TREE" ] && [ "$(cat "$TREE_ID" 2>/dev/null)" = "$id" ]; then
		note "tree: the mutant tree of $PROFILE is up to date"
		return
	fi
	step "apply the mutant patches of $PROFILE to a copy of $(basename "$BASE_TREE")"
	rm -rf "$new" "$TREE_ID"
	mkdir -p "$(dirname "$TREE")"
	copy_tree "$BASE_TREE" "$new"
	apply_patches "$BASE_TREE" "$new" "${patches[@]}"
	rm -rf "$TREE"
	mv "$new" "$TREE"
	printf '%s\n' "$id" >"$TREE_ID"
}

# apply_series SRC: copy SRC to $TREE and apply the series.
apply_series() {
	local src=$1 new=$TREE.new
	local -a patches touched

	mapfile -t patches < <(series_patches)
	step "apply ${#patches[@]} patch(es) of ${SERIES#"$RCUVET_ROOT"/} to $(basename "$TREE")"
	rm -rf "$new"
	copy_tree "$src" "$new"
	apply_patches "$src" "$new" "${patches[@]}"
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

if [ -n "${MUTANT_OF:-}" ]; then
	mutant_tree
	exit 0
fi
if borrowed_kernel; then
	note "tree: borrowed with the kernels from $KBUILD_ROOT"
	exit 0
fi
mkdir -p "$BUILD/tree" "$(dirname "$TREE")"
if [ -n "${KSRC:-}" ] && [ "${PATCHES:-0}" != 1 ]; then
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
