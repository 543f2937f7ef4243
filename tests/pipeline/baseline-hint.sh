#!/usr/bin/env bash
# The report's idle-baseline hint (report.jq, baseline_cmd) names the
# run's tree: nothing for 6.12, TREE= for another Debian tree, KSRC= for
# a tree of your own (and PATCHES=1 if the run patched it).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# hint TREE: the command baseline_cmd gives a debug run on TREE.
hint() {
	jq -nr -L "$root/scripts" --arg t "$1" \
		'include "report"; {name: "debug", profile: "debug", tree: $t} | baseline_cmd'
}
for c in "debian linux-source-6.12 + kernel/patches/series=make reliance-baseline PROFILE=debug" \
	"debian linux-source-6.1 + kernel/patches/series-6.1=make reliance-baseline TREE=6.1 PROFILE=debug" \
	"/src/linux + kernel/patches/series-6.1=make reliance-baseline KSRC=/src/linux PATCHES=1 PROFILE=debug" \
	"/src/linux=make reliance-baseline KSRC=/src/linux PROFILE=debug"; do
	got=$(hint "${c%%=*}" 2>&1)
	[ "$got" = "${c#*=}" ] || echo "${c%%=*}: '$got', not '${c#*=}'"
done
