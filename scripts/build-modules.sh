#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# build-modules PROFILE: build every suite under kernel/modules/ against the
# profile's kernel.  Sources are copied (mtimes kept) to the profile's
# build folder, so kbuild's output stays out of the repository and only
# the suites whose sources changed are rebuilt.  What the tree has of the
# API the suites call is probed first (scripts/tree-api.sh on API_TREE,
# into the profile's tree-api/): its rcuvet_tree_api.h goes next to
# kernel/modules/include/rcuvet_tree.h in the copy; vet.sh keeps its
# tree-api.tsv with the results, for the tree's coverage table.
. "$(dirname "$0")/lib.sh"

load_profile "${1:?usage: build-modules.sh PROFILE}"
src=$RCUVET_ROOT/kernel/modules
dst=$OBJ/modules
# A profile whose guests load only the tree's modules (SUITES=none: make
# torture's scenarios, kernels our suites were never written for).
if [ "$SUITES" = none ]; then
	rm -rf "$dst"
	mkdir -p "$dst"
	exit 0
fi
api=$OBJ/tree-api
mkdir -p "$dst"

# The probe reads ~1000 headers (~2 s): again only when the tree, its
# .config or the probe changed.  A mutant's is its base's (API_TREE).
api_key=$({
	cat "$API_TREE_ID" 2>/dev/null || echo "$API_TREE"
	cat "$KOBJ/.config" "$RCUVET_ROOT/scripts/tree-api.sh"
} | sha1sum | cut -c1-16)
if [ "$(cat "$api/.key" 2>/dev/null)" != "$api_key" ] ||
	[ ! -f "$api/rcuvet_tree_api.h" ] || [ ! -f "$api/tree-api.tsv" ]; then
	"$RCUVET_ROOT/scripts/tree-api.sh" "$API_TREE" "$api" "$KOBJ/.config" ||
		die "cannot probe the API of $API_TREE"
	printf '%s\n' "$api_key" >"$api/.key"
fi

# Sources, kernel and tree as at the last build: nothing to do.  A make
# per suite costs ~2 s even when everything is up to date, and every
# control boot comes through here.  A mutant's tree counts on its own: a
# modules-scope mutant's kernel is its base's, unchanged, and its mutant
# lives only in the headers our modules are compiled against.
stamp=$dst/.rcuvet-built
want=$({
	(cd "$src" && find . -type f | sort | xargs sha1sum)
	cat "$KOBJ/.rcuvet-built" "$api/rcuvet_tree_api.h"
	[ -z "$MUTANT_OF" ] || cat "$TREE_ID"
} | sha1sum | cut -c1-16)
if [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
	exit 0
fi
rm -f "$stamp"
# A mutant tree that changed may have put a header back to its base's
# content and mtime, older than the objects built against the mutant one:
# make would keep them.  Its modules build again from scratch (seconds).
if [ -n "$MUTANT_OF" ] && [ "$(cat "$dst/.rcuvet-tree" 2>/dev/null)" != "$(cat "$TREE_ID")" ]; then
	rm -rf "$dst"
	mkdir -p "$dst"
	cat "$TREE_ID" >"$dst/.rcuvet-tree"
fi
# A source gone from a suite (api/rcuvet_list.c, now kernel/modules/list/)
# would stay in the copy, where the suite's Kbuild may still build it,
# and so would its .ko, which initramfs.sh would pack: a copy that has a
# source its suite no longer has starts afresh.
for kbuild in "$dst"/*/Kbuild; do
	suite=$(dirname "$kbuild")
	[ -d "$src/$(basename "$suite")" ] || continue
	for f in "$suite"/Kbuild "$suite"/*.[ch]; do
		case $f in *.mod.c) continue ;; esac
		[ ! -e "$f" ] || [ -e "$src/$(basename "$suite")/$(basename "$f")" ] ||
			{ rm -rf "$suite"; break; }
	done
done
cp -a "$src/." "$dst/"
cp -p "$api/rcuvet_tree_api.h" "$dst/include/"

for kbuild in "$dst"/*/Kbuild; do
	suite=$(dirname "$kbuild")
	[ -d "$src/$(basename "$suite")" ] || { rm -rf "$suite"; continue; }
	log=$suite/build.log
	# __FILE__ (KUnit's "EXPECTATION FAILED at", WARN()) names the source
	# in the repository, not this checkout's copy, which a cache hit from
	# another checkout would name.
	if ! kmake M="$suite" W=1 KCFLAGS="-fmacro-prefix-map=$dst/=kernel/modules/" \
		modules >"$log" 2>&1; then
		grep -iE 'error|warning' "$log" | head -20 >&2
		die "module suite '$(basename "$suite")' does not build for '$PROFILE'; log: $log"
	fi
	if grep -q 'warning:' "$log"; then
		grep 'warning:' "$log" >&2
		die "module suite '$(basename "$suite")' builds with warnings; log: $log"
	fi
done
printf '%s\n' "$want" >"$stamp"
