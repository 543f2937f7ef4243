#!/usr/bin/env bash
# scripts/bench-text.sh on programs built here standing in for
# perf-full's (rcu_read_lock() inline) and perf-full-noinline's vmlinux:
# `size` of both and base minus noinline; the calls and tail calls (a
# jump from another function, not one within it) to __rcu_read_lock,
# __rcu_read_unlock and rcu_read_unlock_outermost, counted where the
# function is there and "not measured" where it is not, or where there
# is no vmlinux at all (perf-rt's), never a count of zero; the size in
# bytes of __switch_to (longer inline: it saves and loads the depth),
# the difference, and "not measured" for a function not there.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

. "$root/tests/lib/fake-vmlinux.sh"

# prog PROFILE C-SOURCE: PROFILE's "vmlinux", a static program.
prog() {
	fake_vmlinux "$work" "$1" "$2" -nostdlib -static
}

# Inline: each reader's unlock calls the slow path when the count hits
# zero, b() as a tail call; the slow path jumps to its own start (no
# call site); __rcu_read_lock() is there, called by no one.
prog perf-full '
int depth = 1, x;
__attribute__((noinline)) void rcu_read_unlock_outermost(void)
{ x++; __asm__ volatile("test %0,%0; jne rcu_read_unlock_outermost" :: "r"(depth)); }
__attribute__((noinline)) void __rcu_read_lock(void) { depth++; __asm__ volatile("" ::: "memory"); }
void a(void) { depth++; x++; if (--depth == 0) rcu_read_unlock_outermost(); x++; }
void b(void) { depth++; x++; if (--depth == 0) rcu_read_unlock_outermost(); }
void c(void) { depth++; x += 3; if (--depth == 0) rcu_read_unlock_outermost(); x--; }
__attribute__((noinline)) void __switch_to(void) { x += 5; depth = x * 3 + (depth != 0); }
void _start(void) { a(); b(); c(); __switch_to(); for (;;); }'
# Out of line: three readers, b() unlocking by a tail call.
prog perf-full-noinline '
int depth, x;
__attribute__((noinline)) void __rcu_read_lock(void) { depth++; __asm__ volatile("" ::: "memory"); }
__attribute__((noinline)) void __rcu_read_unlock(void) { depth--; __asm__ volatile("" ::: "memory"); }
void a(void) { __rcu_read_lock(); x++; __rcu_read_unlock(); x++; }
void b(void) { __rcu_read_lock(); x++; __rcu_read_unlock(); }
void c(void) { __rcu_read_lock(); x += 3; __rcu_read_unlock(); x--; }
__attribute__((noinline)) void __switch_to(void) { x += 5; }
void _start(void) { a(); b(); c(); __switch_to(); for (;;); }'

run() {
	BUILD=$work/build RCUVET_KERNEL_BUILD='' "$root/scripts/bench-text.sh" "$@" 2>&1
}
out=$(run perf-full perf-full-noinline)
# size's own figures, and base minus noinline.
read -r tb db bb _ < <(size "$work/build/debian/perf-full/kernel/vmlinux" | sed 1d)
read -r tn dn bn _ < <(size "$work/build/debian/perf-full-noinline/kernel/vmlinux" | sed 1d)
[ "$tb" != "$tn" ] && [ "$db" != "$dn" ] || echo "the test's two programs have the same text or data size"
sb=$(nm -S -t d "$work/build/debian/perf-full/kernel/vmlinux" | awk '$4 == "__switch_to" { print $2 + 0 }')
sn=$(nm -S -t d "$work/build/debian/perf-full-noinline/kernel/vmlinux" | awk '$4 == "__switch_to" { print $2 + 0 }')
[ "${sb:-0}" -gt "${sn:-0}" ] || echo "the test's inline __switch_to is not the longer: $sb, $sn"
for line in \
	"| \`size\` text | $tb | $tn | $(printf '%+d' $((tb - tn))) |" \
	"| \`size\` data | $db | $dn | $(printf '%+d' $((db - dn))) |" \
	"| \`size\` bss | $bb | $bn | $(printf '%+d' $((bb - bn))) |" \
	'| call sites of `__rcu_read_lock` | 0 | 3 | |' \
	'| call sites of `__rcu_read_unlock` | not measured (no such function) | 2 (+1 tail) | |' \
	'| call sites of `rcu_read_unlock_outermost` | 2 (+1 tail) | not measured (no such function) | |' \
	"| \`__switch_to\` (bytes) | $sb | $sn | $(printf '%+d' $((sb - sn))) |" \
	'| `rcu_note_context_switch` (bytes) | not measured (no such function) | not measured (no such function) | |'; do
	grep -qxF -- "$line" <<<"$out" || echo "bench-text.sh has no line '$line': $out"
done
out=$(run perf-rt perf-rt-noinline)
[ "$(grep -c 'not measured (no vmlinux) | not measured (no vmlinux) |' <<<"$out")" -eq 9 ] ||
	echo "missing vmlinux are not 'not measured' in every row: $out"
grep -q '| [0-9]' <<<"$out" && echo "a missing vmlinux has numbers: $out"
exit 0
