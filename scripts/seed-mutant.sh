#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# seed-mutant PROFILE: a mutant profile's kernel folder as a copy of its
# base profile's built kernel (configuration, objects, mtimes), whenever
# the base kernel or the mutant tree changed.  build-kernel.sh then builds
# it where the base's paths show the mutant's (in_base_paths): make
# recompiles the files the mutant patches touched and links, no more.
. "$(dirname "$0")/lib.sh"

load_profile "${1:?usage: seed-mutant.sh PROFILE}"
[ -n "$MUTANT_OF" ] || die "profile '$PROFILE' is not a mutant profile"
[ "$MUTANT_SCOPE" = kernel ] ||
	die "profile '$PROFILE' is a modules-scope mutant: it boots the kernel of '$MUTANT_OF' as it is, nothing to copy"
[ -f "$BASE_KOBJ/.rcuvet-built" ] ||
	die "the kernel of '$MUTANT_OF' in $BASE_KOBJ is not built; the mutant '$PROFILE' starts from it"
stamp=$KBUILD_ROOT/kernel.seed
want=$(hash_of "$BASE_KOBJ/.rcuvet-built" "$BASE_KOBJ/arch/x86/boot/bzImage" "$TREE_ID")
if [ -f "$KOBJ/.config" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
	note "objects of '$PROFILE' are up to date with '$MUTANT_OF'"
	exit 0
fi
step "copy the objects of '$MUTANT_OF' for the mutant '$PROFILE'"
rm -rf "$KOBJ" "$KOBJ.new" "$stamp"
cp -a "$BASE_KOBJ" "$KOBJ.new"
rm -f "$KOBJ.new/.rcuvet-built" "$KOBJ.new/build.log"
mv "$KOBJ.new" "$KOBJ"
# make rebuilds what the mutant patches touched only if those files are
# newer than the objects just copied: the mutant tree may be older than
# its base's kernel (rebuilt since, the tree unchanged), and make would
# then link the base's objects, the mutant nowhere in its kernel.
mutant_patches | xargs sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' | sort -u |
	while read -r f; do touch "$TREE/$f"; done
printf '%s\n' "$want" >"$stamp"
