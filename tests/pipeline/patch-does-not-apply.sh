#!/usr/bin/env bash
# A series whose second patch does not apply stops the tree step, naming
# the patch and its failed hunk; the first patch's good tree is not kept.
# So does a series that names a patch that does not exist: no tree is
# built without it.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/linux/kernel/rcu" "$t/patches"
echo "VERSION = 6" >"$t/linux/Makefile"
printf 'one\ntwo\nthree\n' >"$t/linux/kernel/rcu/x.c"
cat >"$t/patches/0001-good.patch" <<'P'
--- a/kernel/rcu/x.c
+++ b/kernel/rcu/x.c
@@ -1,3 +1,3 @@
 one
-two
+TWO
 three
P
cat >"$t/patches/0002-bad.patch" <<'P'
--- a/kernel/rcu/x.c
+++ b/kernel/rcu/x.c
@@ -1,3 +1,3 @@
 one
-zwei
+ZWEI
 three
P

# tree SERIES...: the tree step on $t/linux with a series of those lines.
tree() {
	printf '%s\n' "$@" >"$t/patches/series"
	KSRC=$t/linux PATCHES=1 BUILD=$t/build RCUVET_SERIES=$t/patches/series \
		"$root/scripts/tree.sh" >"$t/out" 2>&1
}

tree 0001-good.patch 0002-bad.patch && echo "tree.sh applied a series with a bad patch"
grep -q "patch 0002-bad.patch does not apply" "$t/out" || echo "the bad patch is not named"
grep -q "Hunk #1 FAILED" "$t/out" || echo "the failed hunk is not shown"
grep -q "^+ZWEI" "$t/out" || echo "the rejected hunk's text is not shown"

tree 0001-good.patch 0003-missing.patch && echo "tree.sh built a tree without the series' missing patch"
grep -q "series names '0003-missing.patch', but .* does not exist" "$t/out" ||
	echo "the missing patch is not named"
[ -z "$(ls "$t"/build/tree/*.id 2>/dev/null)" ] || echo "the tree step recorded a tree id"
