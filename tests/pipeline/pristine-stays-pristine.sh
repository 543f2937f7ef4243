#!/usr/bin/env bash
# The patched tree hard-links the files of the extracted tarball: applying
# a series, and a later series that no longer touches a file, must change
# neither the content nor the mtime of any pristine file.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
pristine=$t/build/tree/pristine
mkdir -p "$pristine/kernel/rcu" "$t/patches"
echo "VERSION = 6" >"$pristine/Makefile"
printf 'one\ntwo\nthree\n' >"$pristine/kernel/rcu/x.c"
printf 'uno\ndos\ntres\n' >"$pristine/kernel/rcu/y.c"
touch -d '2020-01-01' "$pristine/Makefile" "$pristine"/kernel/rcu/*.c
touch "$pristine/.rcuvet-extracted"
before=$(cd "$pristine" && stat -c '%n %Y %s' Makefile kernel/rcu/*.c | sha1sum)

# patch_of FILE OLD NEW: a one-line change of FILE, as a series' patch.
patch_of() {
	printf -- '--- a/%s\n+++ b/%s\n@@ -2 +2 @@\n-%s\n+%s\n' "$1" "$1" "$2" "$3"
}

tree() {
	BUILD=$t/build RCUVET_SERIES=$t/patches/series "$root/scripts/tree.sh" \
		>"$t/out" 2>&1 || { echo "tree.sh failed:"; cat "$t/out"; }
}

patch_of kernel/rcu/x.c two TWO >"$t/patches/x.patch"
echo x.patch >"$t/patches/series"
tree
grep -qx TWO "$t/build/tree/debian/kernel/rcu/x.c" || echo "the series was not applied"

patch_of kernel/rcu/y.c dos DOS >"$t/patches/y.patch"
echo y.patch >"$t/patches/series"
sleep 1
tree
grep -qx two "$t/build/tree/debian/kernel/rcu/x.c" ||
	echo "x.c did not go back to pristine content when the series stopped patching it"
[ "$t/build/tree/debian/kernel/rcu/x.c" -nt "$pristine/kernel/rcu/x.c" ] ||
	echo "x.c went back to pristine content with an old mtime: make would keep its object"
grep -qx DOS "$t/build/tree/debian/kernel/rcu/y.c" || echo "the second series was not applied"
after=$(cd "$pristine" && stat -c '%n %Y %s' Makefile kernel/rcu/*.c | sha1sum)
[ "$before" = "$after" ] || echo "a pristine file changed (content or mtime)"
grep -q two "$pristine/kernel/rcu/x.c" && grep -q dos "$pristine/kernel/rcu/y.c" ||
	echo "a pristine file's content changed"
