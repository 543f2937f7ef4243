#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# build-modules PROFILE: build every suite under kernel/modules/ against the
# profile's kernel.  Sources are copied (mtimes kept) to the profile's
# build folder, so kbuild's output stays out of the repository and only
# the suites whose sources changed are rebuilt.
. "$(dirname "$0")/lib.sh"

load_profile "${1:?usage: build-modules.sh PROFILE}"
src=$RCUVET_ROOT/kernel/modules
dst=$OBJ/modules
mkdir -p "$dst"
cp -a "$src/." "$dst/"

for kbuild in "$dst"/*/Kbuild; do
	suite=$(dirname "$kbuild")
	[ -d "$src/$(basename "$suite")" ] || { rm -rf "$suite"; continue; }
	log=$suite/build.log
	if ! kmake M="$suite" W=1 modules >"$log" 2>&1; then
		grep -iE 'error|warning' "$log" | head -20 >&2
		die "module suite '$(basename "$suite")' does not build for '$PROFILE'; log: $log"
	fi
	if grep -q 'warning:' "$log"; then
		grep 'warning:' "$log" >&2
		die "module suite '$(basename "$suite")' builds with warnings; log: $log"
	fi
done
