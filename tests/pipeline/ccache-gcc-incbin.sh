#!/usr/bin/env bash
# scripts/ccache-gcc: an assembler source that .incbin's a file is
# assembled afresh when that file changes, even when the source and its
# size do not (piggy.S and the compressed vmlinux); ccache in depend mode,
# as the kernel build runs it, would hand back the first object.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export CCACHE_DIR=$work/cache CCACHE_DEPEND=1 CCACHE_BASEDIR=$work
printf '.section .rodata..payload,"a"\n.incbin "blob"\n' >piggy.S

# assemble CONTENT: what the object holds after assembling with blob CONTENT.
assemble() {
	printf '%s' "$1" >blob
	rm -f piggy.o
	"$root/scripts/ccache-gcc" -Wp,-MMD,piggy.d -c -o piggy.o piggy.S &&
		objcopy -O binary --only-section=.rodata..payload piggy.o payload &&
		cat payload
}

first=$(assemble AAAA)
[ "$first" = AAAA ] || echo "the first object holds '$first', not AAAA"
second=$(assemble BBBB)
[ "$second" = BBBB ] || echo "after the .incbin'd file changed, the object holds '$second', not BBBB"
