#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# setup-lava: install what validating LAVA jobs needs (lava-run, from
# Debian's lava-dispatcher); a no-op when it is there.  Only the LAVA
# targets call it: make lava-jobs needs nothing of LAVA.
. "$(dirname "$0")/lib.sh"

packages=(lava-dispatcher)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

[ "$(id -u)" -eq 0 ] ||
	die "missing packages: ${missing[*]}; run as root, or: sudo apt-get install --no-install-recommends ${missing[*]}"
step "install ${missing[*]} (LAVA's job validation)"
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
trap 'rm -f "$log"' EXIT
apt-get update >"$log" 2>&1 ||
	{ tail -5 "$log" >&2; die "apt-get update failed (network or sources.list?)"; }
apt-get install -y --no-install-recommends "${missing[@]}" >"$log" 2>&1 ||
	{ tail -15 "$log" >&2; die "apt-get install ${missing[*]} failed"; }
command -v lava-run >/dev/null ||
	die "${missing[*]} installed, but there is no lava-run on PATH"
