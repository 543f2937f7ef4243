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

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

[ "$(id -u)" -eq 0 ] ||
	die "missing packages: ${missing[*]}; run as root, or: sudo apt-get install ${missing[*]}"
step "install ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
trap 'rm -f "$log"' EXIT
apt-get update >"$log" 2>&1 ||
	{ tail -5 "$log" >&2; die "apt-get update failed (network or sources.list?)"; }
apt-get install -y --no-install-recommends "${missing[@]}" >"$log" 2>&1 ||
	{ tail -15 "$log" >&2; die "apt-get install ${missing[*]} failed"; }
