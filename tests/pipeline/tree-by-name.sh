#!/usr/bin/env bash
# TREE=6.1 selects Debian's linux-source-6.1 (its own tarball, pristine
# copy, tree folder and series), the default stays 6.12, the scripts a
# script runs keep the name, and an unknown TREE names the valid ones.
set -u
lib=$(dirname "$0")/../../scripts/lib.sh
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
# shellcheck disable=SC2016 # expanded by the shell that sources lib.sh
show='. "$1"; printf "%s %s %s %s\n" "$TREE_NAME" "$DEBIAN_TARBALL" "${PRISTINE##*/}" "${TREE##*/}"'
got=$(env -u RCUVET_TREE -u KSRC BUILD="$t" TREE=6.1 bash -c "$show" sh "$lib")
[ "$got" = "6.1 /usr/src/linux-source-6.1.tar.xz pristine-6.1 debian-6.1" ] || echo "TREE=6.1: $got"
got=$(env -u RCUVET_TREE -u KSRC -u TREE BUILD="$t" bash -c "$show" sh "$lib")
[ "$got" = "6.12 /usr/src/linux-source-6.12.tar.xz pristine debian" ] || echo "default: $got"
got=$(env -u RCUVET_TREE -u KSRC BUILD="$t" TREE=6.1 bash -c ". \"\$1\"; bash -c \"\$2\" sh \"\$1\"" sh "$lib" "$show")
[ "${got%% *}" = 6.1 ] || echo "a script run by a script lost TREE=6.1: $got"
if err=$(env -u RCUVET_TREE -u KSRC BUILD="$t" TREE=5.10 bash -c ". \"\$1\"" sh "$lib" 2>&1); then
	echo "TREE=5.10 was accepted"
fi
case $err in *"trees are 6.12 (the default) and 6.1"*) ;; *) echo "TREE=5.10: $err" ;; esac
