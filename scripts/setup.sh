#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# setup: install the Debian packages rcuvet needs; a no-op when all are
# present.
. "$(dirname "$0")/lib.sh"

packages=(
	linux-source-6.12 linux-source-6.1 qemu-system-x86 busybox-static ccache
	bc bison flex libelf-dev libssl-dev cpio gawk xz-utils patch
	make gcc libc6-dev kmod
	clang llvm libbpf-dev zlib1g-dev libzstd-dev bpftool
	gnuplot-nox jq
)

apt_install "what rcuvet builds and boots with" "${packages[@]}"
