#!/usr/bin/env bash
# guest/init's log records (guest/kmsg-lines.h), built on the host with
# tests/kmsg-lines/test.c: each line of a program's output, and each line
# /init says, is one write() of the whole line to a log that refuses
# lseek() as /dev/kmsg does; nothing falls back to stderr.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -O2 -Wall -Wextra -Werror -I"$root/guest" -o "$work/test" \
	"$root/tests/kmsg-lines/test.c" ||
	{ echo "tests/kmsg-lines/test.c does not compile"; exit 0; }
"$work/test" >"$work/out" 2>"$work/err" ||
	{ echo "the log's records are not the lines:"; sed 's/^/  /' "$work/out"; }
[ ! -s "$work/err" ] || { echo "lines fell back to stderr:"; cut -c1-80 "$work/err"; }
exit 0
