#!/usr/bin/env bash
# The patch layout per tree: kernel/patches/series names the 6.12 patches
# (kernel/patches/*.patch), series-6.1 the 6.1 ones (kernel/patches/6.1/),
# each series every patch of its folder and none elsewhere, each 6.1
# patch the port of a 6.12 one of the same name that says so, or the
# backport of an upstream fix that 6.12 has, which says both.  A tree's
# fragment additions (configs/fragments/TREE/NAME.config) add to a
# fragment that exists and follow it; 6.12 has none.  The debug profile's
# inline fragment (an option of patch 0007) is left out where the tree
# lacks the option: TREE=6.1, a KSRC not patched; kept for a KSRC with
# PATCHES=1.  Kernel mutants are 6.12's: a mutant profile is refused on
# TREE=6.1.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
lib=$root/scripts/lib.sh
p=$root/kernel/patches
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# in_tree TREE CMD: CMD run by a shell that sourced lib.sh for TREE.
in_tree() {
	env -u RCUVET_TREE -u KSRC -u RCUVET_SERIES BUILD="$t" TREE="$1" \
		bash -c ". \"\$1\"; $2" sh "$lib"
}

# check_series TREE DIR: the tree's series names each patch of DIR, in
# DIR, once, and nothing else.
check_series() {
	local listed named

	listed=$(in_tree "$1" series_patches) || { echo "TREE=$1: its series does not read: $listed"; return; }
	[ -n "$listed" ] || echo "TREE=$1: its series names no patch"
	named=$(printf '%s\n' "$listed" | sort)
	[ "$named" = "$(printf '%s\n' "$named" | sort -u)" ] || echo "TREE=$1: its series names a patch twice"
	[ "$named" = "$(find "$2" -maxdepth 1 -name '*.patch' | sort)" ] ||
		echo "TREE=$1: its series and the patches of ${2#"$root"/} differ: $(diff <(echo "$named") <(find "$2" -maxdepth 1 -name '*.patch' | sort) | grep '^[<>]' | xargs)"
}

check_series 6.12 "$p"
check_series 6.1 "$p/6.1"

for f in "$p"/6.1/*.patch; do
	if [ -f "$p/${f##*/}" ]; then
		grep -q '^This is the 6.1 version of the 6.12 patch' "$f" ||
			echo "6.1/${f##*/} does not say that it is the 6.1 version of the 6.12 patch"
	elif grep -q '^\[ Upstream commit [0-9a-f]\{12\}' "$f"; then
		grep -q 'there is no 6.12 patch of this name' "$f" ||
			echo "6.1/${f##*/}, a backport, does not say that 6.12 needs none"
	else
		echo "6.1/${f##*/} ports no 6.12 patch of that name and is no upstream backport"
	fi
done
for d in "$p"/*/; do
	case ${d%/} in "$p"/mutants | "$p"/6.1) ;; *) echo "kernel/patches/${d#"$p"/} is the folder of no tree" ;; esac
done

for d in "$root"/configs/fragments/*/; do
	d=${d%/}
	case ${d##*/} in 6.1) ;; *) echo "configs/fragments/${d##*/} is the folder of no tree" ;; esac
	for f in "$d"/*.config; do
		[ -f "$root/configs/fragments/${f##*/}" ] ||
			echo "configs/fragments/${d##*/}/${f##*/} adds to no fragment"
	done
done
# shellcheck disable=SC2016 # expanded by the shell that sourced lib.sh
frags='load_profile debug; fragment_files | sed "s|^$RCUVET_ROOT/configs/fragments/||" | xargs'
got=$(in_tree 6.1 "$frags")
case $got in "base.config 6.1/base.config net-bpf.config "*) ;; *) echo "TREE=6.1 debug fragments: $got" ;; esac
got=$(in_tree 6.12 "$frags")
[ "$got" = "base.config net-bpf.config rcu.config debug.config reliance.config kasan.config preempt.config debug-preempt.config emulate.config inline.config" ] ||
	echo "TREE=6.12 debug fragments: $got"
case $(in_tree 6.1 "$frags") in *inline.config*) echo "TREE=6.1 debug has fragment inline" ;; esac
mkdir -p "$t/ksrc/kernel/rcu"
touch "$t/ksrc/Makefile" "$t/ksrc/kernel/rcu/Kconfig"
got=$(env -u RCUVET_TREE -u RCUVET_SERIES -u TREE BUILD="$t" KSRC="$t/ksrc" PATCHES=0 \
	bash -c ". \"\$1\"; $frags" sh "$lib")
[ "$got" = "base.config net-bpf.config rcu.config debug.config kasan.config preempt.config debug-preempt.config" ] ||
	echo "KSRC without patches, debug fragments: $got"
got=$(env -u RCUVET_TREE -u RCUVET_SERIES -u TREE BUILD="$t" KSRC="$t/ksrc" PATCHES=1 \
	bash -c ". \"\$1\"; $frags" sh "$lib")
case $got in *inline.config) ;; *) echo "KSRC with PATCHES=1, debug fragments: $got" ;; esac

in_tree 6.12 'load_profile xdp-mutant; mutant_patches >/dev/null' >"$t/out" 2>&1 ||
	echo "TREE=6.12: xdp-mutant's patches: $(cat "$t/out")"
if in_tree 6.1 'load_profile xdp-mutant; mutant_patches >/dev/null' >"$t/out" 2>&1; then
	echo "TREE=6.1 took a 6.12 kernel mutant"
fi
grep -q 'written for 6.12: TREE=6.1 has no mutants' "$t/out" || echo "TREE=6.1 mutant: $(cat "$t/out")"
