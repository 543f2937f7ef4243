#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bench-code BASE EMULATE: the read-side code the v4.19 emulation
# (kernel/patches/0001-*) changes when compiled in and off, from the two
# profiles' vmlinux: __rcu_read_lock() and __rcu_read_unlock(), the
# functions rcu_read_lock() calls on PREEMPT_RCU.  A Markdown section for
# bench.md: each function's instruction count in both and the
# instructions EMULATE adds or drops (addresses and offsets left out).
# With CONFIG_JUMP_LABEL=y an option that costs nothing when off adds a
# no-op (nopl, patched into a jump when enabled) and the code it jumps to;
# a call added to the path is a cost.  With CONFIG_RCU_INLINE_READ_LOCK
# (kernel/patches/0007-*) the two functions do not exist and the read side
# is inlined at each call site: getppid() (__x64_sys_getppid, two nested
# readers around one dereference) shows what each site gains.
. "$(dirname "$0")/lib.sh"
. "$RCUVET_ROOT/scripts/bench-lib.sh"

base=${1:?usage: bench-code.sh BASE EMULATE}
emu=${2:?usage: bench-code.sh BASE EMULATE}
funcs="__rcu_read_lock __rcu_read_unlock __x64_sys_getppid"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# disasm PROFILE FUNC: FUNC's instructions in PROFILE's vmlinux, one a
# line, without addresses, branch targets or RIP-relative offsets.
disasm() {
	local vmlinux

	vmlinux=$(profile_vmlinux "$1")
	[ -f "$vmlinux" ] || return 1
	objdump -d --no-show-raw-insn --disassemble="$2" "$vmlinux" | awk -v f="$2" '
		$0 ~ "^[0-9a-f]+ <" f ">:$" { on = 1; next }
		on && /^$/ { on = 0 }
		on {
			sub(/^ *[0-9a-f]+:[ \t]*/, "")
			sub(/[ \t]*#.*/, "")
			gsub(/[0-9a-f]+ <[^>]*>/, "T")
			gsub(/-?0x[0-9a-f]+\(/, "X(")
			gsub(/[ \t]+/, " ")
			print
		}'
}

# mnemonics SIDE: the instructions of diff's SIDE ("<" or ">") on stdin,
# counted by mnemonic ("call x1, nopl x1").
mnemonics() {
	awk -v side="$1" '$1 == side { n[$2]++ }
		END { for (m in n) print m " x" n[m] }' | sort | paste -sd, - | sed 's/,/, /g'
}

printf '\n### The emulation compiled in, not enabled: read-side code (%s against %s)\n\n' "$emu" "$base"
printf 'From the two kernels'"'"' `vmlinux` (`scripts/bench-code.sh`); the instructions %s adds or drops, addresses and offsets left out.\n\n' "$emu"
printf '| function | %s | %s | added | dropped |\n|---|---|---|---|---|\n' "$base" "$emu"
for f in $funcs; do
	if ! disasm "$base" "$f" >"$t/base" 2>/dev/null ||
		! disasm "$emu" "$f" >"$t/emu" 2>/dev/null; then
		printf '| `%s` | not measured (no vmlinux) | | | |\n' "$f"
		continue
	fi
	if [ ! -s "$t/base" ] && [ ! -s "$t/emu" ]; then
		case $f in
		__rcu_read_*) why=' (`CONFIG_RCU_INLINE_READ_LOCK=y` inlines it at each reader)' ;;
		*) why= ;;
		esac
		printf '| `%s` | in neither kernel%s | | | |\n' "$f" "$why"
		continue
	fi
	if [ ! -s "$t/base" ] || [ ! -s "$t/emu" ]; then
		printf '| `%s` | not measured (in one kernel only) | | | |\n' "$f"
		continue
	fi
	# The changed instructions, counted by mnemonic.
	diff "$t/base" "$t/emu" >"$t/diff" || true
	added=$(mnemonics '>' <"$t/diff")
	dropped=$(mnemonics '<' <"$t/diff")
	printf '| `%s` | %d instructions | %d | %s | %s |\n' "$f" "$(wc -l <"$t/base")" \
		"$(wc -l <"$t/emu")" "${added:-none}" "${dropped:-none}"
done
