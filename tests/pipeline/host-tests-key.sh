#!/usr/bin/env bash
# make check shows the host tests' results again only while nothing they
# read changed (host_tests_key, lib.sh): the key follows a tracked file's
# content, a new untracked file and a deleted one, ignores what git
# ignores, and is empty outside a git work tree (the tests then run).
# shellcheck disable=SC2016 # expanded by the shell that sources lib.sh
set -u
lib=$(cd "$(dirname "$0")/../../scripts" && pwd)/lib.sh
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
r=$t/repo
mkdir -p "$r" && cd "$r" && git init -q && printf 'build/\n' >.gitignore &&
	echo a >a && git add -A && git -c user.name=t -c user.email=t@t commit -qm a
key() {
	BUILD="$t/b" bash -c '. "$1"; RCUVET_ROOT=$2; host_tests_key' sh "$lib" "$1"
}
k0=$(key "$r")
[ -n "$k0" ] || echo "no key in a git work tree"
[ "$(key "$r")" = "$k0" ] || echo "the key changed with nothing changed"
mkdir -p "$r/build" && echo x >"$r/build/x"
[ "$(key "$r")" = "$k0" ] || echo "an ignored file changed the key"
echo b >"$r/a"
k1=$(key "$r")
[ "$k1" != "$k0" ] || echo "a tracked file's change left the key"
echo c >"$r/new"
k2=$(key "$r")
[ "$k2" != "$k1" ] || echo "a new file left the key"
rm "$r/a"
[ "$(key "$r")" != "$k2" ] || echo "a deleted file left the key"
mkdir -p "$t/plain"
[ -z "$(key "$t/plain")" ] || echo "a key outside a git work tree"
