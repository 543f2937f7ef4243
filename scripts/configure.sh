#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# configure PROFILE: tinyconfig + the profile's fragments, then check that
# every option a fragment asks for is in the final .config.  A mutant
# profile takes its base's configuration with its objects (seed-mutant.sh);
# a modules-scope mutant boots its base's kernel as it is.
. "$(dirname "$0")/lib.sh"

load_profile "${1:?usage: configure.sh PROFILE}"
if borrowed_kernel; then
	[ -f "$KOBJ/.rcuvet-built" ] ||
		die "no built kernel for '$PROFILE' in $KOBJ (RCUVET_KERNEL_BUILD): build it in its own checkout"
	exit 0
fi
if [ "$MUTANT_SCOPE" = modules ]; then
	[ -f "$KOBJ/.rcuvet-built" ] ||
		die "the kernel of '$MUTANT_OF' in $KOBJ is not built; the modules-scope mutant '$PROFILE' boots it"
	note "config of '$PROFILE': the kernel of '$MUTANT_OF' as it is (modules-scope mutant)"
	exit 0
fi
if [ -n "$MUTANT_OF" ]; then
	"$RCUVET_ROOT/scripts/seed-mutant.sh" "$PROFILE"
	exit
fi
mapfile -t frags < <(fragment_files)
mkdir -p "$KOBJ"
stamp=$KOBJ/.rcuvet-config
want=$(hash_of "${frags[@]}" "$TREE_ID")

if [ -f "$KOBJ/.config" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
	note "config of '$PROFILE' is up to date"
	exit 0
fi

step "configure $PROFILE: tinyconfig + $(fragments_used)"
left=$(fragments_used left)
[ -z "$left" ] || note "left out, the tree lacks the option they need: $left"
rm -f "$stamp"
kmake -s tinyconfig >/dev/null
KCONFIG_CONFIG=$KOBJ/.config \
	"$TREE/scripts/kconfig/merge_config.sh" -m -O "$KOBJ" \
	"$KOBJ/.config" "${frags[@]}" >"$KOBJ/merge.log" 2>&1 ||
	die "merge_config.sh failed; see $KOBJ/merge.log"
kmake -s olddefconfig >/dev/null
"$RCUVET_ROOT/scripts/check-config.sh" "$TREE" "$KOBJ/.config" "${frags[@]}"
printf '%s\n' "$want" >"$stamp"
