#!/usr/bin/env bash
# An option a fragment asks for that olddefconfig dropped is named, with
# where it is defined and what it depends on.
set -u
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/tree/lib"
printf 'config KASAN\n\tbool "KASAN"\n\tdepends on SYSFS && !SLUB_TINY\n' >"$t/tree/lib/Kconfig.kasan"
printf 'CONFIG_KASAN=y\nCONFIG_SYSFS=y\n# CONFIG_SLUB_TINY is not set\n' >"$t/frag.config"
printf 'CONFIG_SYSFS=y\nCONFIG_SLUB_TINY=y\n' >"$t/.config"
if "$(dirname "$0")/../../scripts/check-config.sh" "$t/tree" "$t/.config" "$t/frag.config" 2>"$t/err"; then
	echo "check-config.sh passed a config without KASAN"
fi
grep -q 'asks CONFIG_KASAN=y, final .config has CONFIG_KASAN not set' "$t/err" || echo "KASAN not named"
grep -q 'asks CONFIG_SLUB_TINY not set, final .config has CONFIG_SLUB_TINY=y' "$t/err" ||
	echo "SLUB_TINY not named"
grep -q 'depends on SYSFS && !SLUB_TINY' "$t/err" || echo "KASAN's dependency not shown"
grep -q '2 requested option(s) did not stick' "$t/err" || echo "no count of failed options"
