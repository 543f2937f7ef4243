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

# A KSRC tree is named by its Makefile's version: a 6.1 tree takes 6.1's
# series and configuration additions, another version 6.12's, and TREE=
# naming the other known tree is refused before anything runs.
# ksrc VERSION PATCHLEVEL: a source tree of that version under $t.
ksrc() {
	local d=$t/ksrc-$1.$2

	mkdir -p "$d/kernel/rcu"
	printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = 0\n' "$1" "$2" >"$d/Makefile"
	printf '%s\n' "$d"
}
# shellcheck disable=SC2016 # expanded by the shell that sources lib.sh
ksrc_show='. "$1"; printf "%s %s %s\n" "$RCUVET_TREE" "${SERIES##*/}" "$TREE_NAME"'
for v in "6 1:6.1 series-6.1" "6 12:6.12 series" "6 6:6.12 series"; do
	read -r major minor <<<"${v%%:*}"
	d=$(ksrc "$major" "$minor")
	got=$(env -u RCUVET_TREE -u TREE -u RCUVET_SERIES BUILD="$t" KSRC="$d" PATCHES=1 \
		bash -c "$ksrc_show" sh "$lib")
	case $got in "${v#*:} ksrc-"*) ;; *) echo "KSRC of $major.$minor: $got" ;; esac
done
got=$(env -u RCUVET_TREE -u RCUVET_SERIES BUILD="$t" KSRC="$t/ksrc-6.1" TREE=6.1 \
	bash -c "$ksrc_show" sh "$lib")
[ "${got%% *}" = 6.1 ] || echo "KSRC of 6.1 with TREE=6.1: $got"
# shellcheck disable=SC2016 # expanded by the shell that sources lib.sh
got=$(env -u RCUVET_TREE -u TREE -u RCUVET_SERIES BUILD="$t" KSRC="$t/ksrc-6.1" \
	bash -c '. "$1"; load_profile debug; fragment_files' sh "$lib")
grep -q '/configs/fragments/6.1/base.config$' <<<"$got" ||
	echo "KSRC of 6.1: no 6.1 addition to base.config: $got"
if err=$(env -u RCUVET_TREE BUILD="$t" KSRC="$t/ksrc-6.1" TREE=6.12 bash -c ". \"\$1\"" sh "$lib" 2>&1); then
	echo "KSRC of 6.1 with TREE=6.12 was accepted"
fi
case $err in *"is a 6.1 tree (its Makefile), TREE=6.12 another"*) ;; *) echo "KSRC of 6.1, TREE=6.12: $err" ;; esac
