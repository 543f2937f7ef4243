#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bench-text BASE NOINLINE: what inlining rcu_read_lock() and
# rcu_read_unlock() (CONFIG_RCU_INLINE_READ_LOCK, kernel/patches/0007-*)
# does to the kernel's code, from the two profiles' vmlinux: BASE with
# the option on, NOINLINE with it off.  A Markdown section for bench.md:
# `size`'s text, data and bss of both and BASE's minus NOINLINE's; and,
# counted in `objdump -d`, the call sites of the read-side functions:
# __rcu_read_lock() and __rcu_read_unlock(), which every reader calls
# when they are out of line, and rcu_read_unlock_outermost(), the slow
# path that every inlined rcu_read_unlock() calls when it has work to
# do.  A call site is a call, or a tail call: a jump to the function's
# first byte from another function ("+N tail" when there are any).  And
# the size in bytes (nm -S) of the functions the option changes beyond
# the readers: __switch_to() (saves and loads the depth),
# rcu_note_context_switch() (clears the no-special bit) and, as one
# reader's call site, __x64_sys_getppid().  A vmlinux or function that is
# not there is "not measured".
. "$(dirname "$0")/lib.sh"
. "$RCUVET_ROOT/scripts/bench-lib.sh"

base=${1:?usage: bench-text.sh BASE NOINLINE}
noinl=${2:?usage: bench-text.sh BASE NOINLINE}
funcs="__rcu_read_lock __rcu_read_unlock rcu_read_unlock_outermost"
sized="__switch_to rcu_note_context_switch __x64_sys_getppid"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# measure PROFILE: its vmlinux's "size TEXT DATA BSS", "func FUNC CALLS
# TAILS" for each of funcs it has and "bytes FUNC N" for each of sized;
# nothing without a vmlinux.
measure() {
	local v

	v=$(profile_vmlinux "$1")
	[ -f "$v" ] || return 0
	size "$v" | awk 'NR == 2 { print "size", $1, $2, $3 }'
	nm -S -t d "$v" | awk -v sized="$sized" '
	BEGIN { n = split(sized, l, " "); for (i = 1; i <= n; i++) want[l[i]] = 1 }
	NF == 4 && ($4 in want) && !($4 in got) { got[$4] = 1; print "bytes", $4, $2 + 0 }'
	objdump -d --no-show-raw-insn "$v" | awk -v funcs="$funcs" '
	BEGIN { n = split(funcs, l, " "); for (i = 1; i <= n; i++) want[l[i]] = 1 }
	/^[0-9a-f]+ <[^>]+>:$/ {
		fn = substr($2, 2, length($2) - 3)
		if (fn in want)
			have[fn] = 1
		next
	}
	# "ADDR:	call   TARGET <FUNC>", or a jump to FUNC from another
	# function (a tail call); a prefix (cs, notrack) allowed.
	/:\t([a-z]+ )?(call|j[a-z]+) +[0-9a-f]+ <[^>+]+>$/ {
		to = substr($NF, 2, length($NF) - 2)
		if (!(to in want))
			next
		if ($0 ~ /:\t([a-z]+ )?call/)
			calls[to]++
		else if (to != fn)
			tails[to]++
	}
	END {
		for (i = 1; i <= n; i++)
			if (l[i] in have)
				print "func", l[i], calls[l[i]] + 0, tails[l[i]] + 0
	}'
}

measure "$base" >"$t/base"
measure "$noinl" >"$t/noinl"

printf '\n### Inlined rcu_read_lock(): kernel code, %s against %s\n\n' "$base" "$noinl"
printf 'From the two kernels'"'"' `vmlinux` (`scripts/bench-text.sh`): `size` in bytes, the call sites of the read-side functions in `objdump -d` (calls; "+N tail": jumps to the function from another, tail calls), and the size of the functions the option changes besides the readers (`nm -S`).\n\n'
printf '| | %s | %s | difference |\n|---|---|---|---|\n' "$base" "$noinl"
awk -v funcs="$funcs" -v sized="$sized" -v first="$t/base" '
# row(LABEL, HAS, VAL, KEY, DIFF): VAL[s, KEY] of both kernels where
# HAS[s, KEY] is set, and with DIFF the first minus the second.
function row(label, h, x, k, diff,   s) {
	printf "| %s |", label
	for (s = 1; s <= 2; s++)
		printf " %s |", !got[s] ? "not measured (no vmlinux)" :
			((s, k) in h) ? x[s, k] : "not measured (no such function)"
	printf " %s|\n", diff && ((1, k) in h) && ((2, k) in h) ? sprintf("%+d ", x[1, k] - x[2, k]) : ""
}
{ s = FILENAME == first ? 1 : 2 }
$1 == "size" {
	got[s] = 1
	v[s, "text"] = $2; v[s, "data"] = $3; v[s, "bss"] = $4
	hv[s, "text"] = hv[s, "data"] = hv[s, "bss"] = 1
}
$1 == "func" { has[s, $2] = 1; site[s, $2] = $3 ($4 ? " (+" $4 " tail)" : "") }
$1 == "bytes" { hasb[s, $2] = 1; b[s, $2] = $3 }
END {
	n = split("text data bss", w, " ")
	for (i = 1; i <= n; i++)
		row("`size` " w[i], hv, v, w[i], 1)
	n = split(funcs, f, " ")
	for (i = 1; i <= n; i++)
		row("call sites of `" f[i] "`", has, site, f[i], 0)
	n = split(sized, f, " ")
	for (i = 1; i <= n; i++)
		row("`" f[i] "` (bytes)", hasb, b, f[i], 1)
}' "$t/base" "$t/noinl"
