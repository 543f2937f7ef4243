# shellcheck shell=bash
# Sourced by host tests of the scripts that read a profile's vmlinux
# (bench-code.sh, bench-text.sh).  fake_vmlinux DIR PROFILE C-SOURCE
# [GCC-FLAG...]: C-SOURCE built by gcc -O2 (and the flags) into
# DIR/build/debian/PROFILE/kernel/vmlinux, where the scripts find
# PROFILE's vmlinux when run with BUILD=DIR/build RCUVET_KERNEL_BUILD=
# (the 6.12 tree).  Says so if gcc fails.
fake_vmlinux() {
	local kobj=$1/build/debian/$2/kernel src=$1/$2.c

	mkdir -p "$kobj"
	printf '%s\n' "$3" >"$src"
	shift 3
	gcc -O2 "$@" -o "$kobj/vmlinux" "$src" || echo "gcc failed on $(basename "$src" .c)"
}
