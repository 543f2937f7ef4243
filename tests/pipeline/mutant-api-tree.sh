#!/usr/bin/env bash
# A kernel mutant's suites expect its base's API: build-modules.sh probes
# API_TREE, which load_profile sets to the base's tree for a mutant (its
# own tree is a patched copy) and to the profile's tree otherwise.
# Probed on the mutant's tree, kmem-cache-destroy-skips-kvfree-rcu-barrier
# had its killing cases skipped as absent from the tree, and survived.
set -u
cd "$(dirname "$0")/../.." || exit 1
unset KSRC RCUVET_KERNEL_BUILD
export BUILD=/nonexistent/rcuvet-build
# shellcheck source=/dev/null
. scripts/lib.sh || exit 1
ok=0
load_profile debug
if [ "$API_TREE" != "$TREE" ] || [ "$API_TREE_ID" != "$TREE_ID" ]; then
	echo "debug: API_TREE '$API_TREE' is not its tree '$TREE'"
	ok=1
fi
base=$TREE base_id=$TREE_ID
for p in $(list_profiles); do
	load_profile "$p"
	[ -n "$MUTANT_OF" ] || continue
	[ "$TREE" != "$base" ] ||
		{ echo "$p: a mutant that builds in its base's tree?"; ok=1; }
	if [ "$API_TREE" != "$base" ] || [ "$API_TREE_ID" != "$base_id" ]; then
		echo "$p: API_TREE '$API_TREE' is not its base's tree '$base'"
		ok=1
	fi
done
# shellcheck disable=SC2016 # the script's text, not an expansion
grep -q 'tree-api.sh" "$API_TREE"' scripts/build-modules.sh ||
	{ echo "build-modules.sh does not probe API_TREE"; ok=1; }
exit $ok
