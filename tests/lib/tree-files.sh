# shellcheck shell=bash
# Sourced by host tests.  tree_dir: prints a folder holding the 6.12
# tree's tools/testing/selftests/{rcutorture/,kselftest/ktap_helpers.sh}
# for tests to copy from: the extracted pristine tree if there is one
# (the user's build/), else Debian's tarball unpacked once into
# build/host/tree-files (kept, so that later runs unpack nothing, unless
# the tarball changed: its size and mtime are kept beside, in .tarball).
# Prints nothing when neither is there.
tree_dir() {
	local root sub=tools/testing/selftests pristine cache key='' tarball=/usr/src/linux-source-6.12.tar.xz

	root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	# shellcheck disable=SC2016 # expanded by the shell that sourced lib.sh
	pristine=$(env -u RCUVET_TREE -u KSRC -u BUILD -u RCUVET_KERNEL_BUILD TREE=6.12 \
		bash -c '. "$1"; echo "$PRISTINE"' sh "$root/scripts/lib.sh")
	if [ -f "$pristine/$sub/rcutorture/configs/rcu/CFLIST" ]; then
		printf '%s\n' "$pristine"
		return
	fi
	cache=$root/build/host/tree-files
	[ ! -f "$tarball" ] || key=$(stat -c '%s %Y' "$tarball")
	if [ -n "$key" ] && { [ ! -f "$cache/$sub/rcutorture/configs/rcu/CFLIST" ] ||
		[ "$(cat "$cache/.tarball" 2>/dev/null)" != "$key" ]; }; then
		rm -rf "$cache.tmp"
		mkdir -p "$cache.tmp"
		tar -xJf "$tarball" -C "$cache.tmp" --strip-components=1 \
			"linux-source-6.12/$sub/rcutorture" "linux-source-6.12/$sub/kselftest/ktap_helpers.sh" &&
			printf '%s\n' "$key" >"$cache.tmp/.tarball" &&
			rm -rf "$cache" && mv "$cache.tmp" "$cache"
	fi
	[ ! -f "$cache/$sub/rcutorture/configs/rcu/CFLIST" ] || printf '%s\n' "$cache"
}
