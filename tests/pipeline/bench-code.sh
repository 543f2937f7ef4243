#!/usr/bin/env bash
# scripts/bench-code.sh on two objects built here standing in for
# perf-full's and perf-full-emulate's vmlinux: __rcu_read_lock() without
# and with a call added to it must show the call (and its test) as added;
# identical code must show nothing added; a missing vmlinux is "not
# measured", never a row of zeros; a function in neither kernel (the
# inlined reader's) says so, one in a single kernel is "not measured".
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

. "$root/tests/lib/fake-vmlinux.sh"

# obj PROFILE C-SOURCE: PROFILE's "vmlinux", an object with __rcu_read_lock().
obj() {
	fake_vmlinux "$work" "$1" "$2" -c
}

base='int depth; void __rcu_read_lock(void) { depth++; } void __rcu_read_unlock(void) { depth--; }'
obj perf-full "$base"
obj perf-full-emulate 'int depth; extern int slow(void); void __rcu_read_lock(void) { depth++; if (slow()) __asm__ volatile("mfence"); } void __rcu_read_unlock(void) { depth--; }'
obj perf-voluntary "$base"

run() {
	BUILD=$work/build RCUVET_KERNEL_BUILD='' "$root/scripts/bench-code.sh" "$@" 2>&1
}
out=$(run perf-full perf-full-emulate)
grep -q '^| `__rcu_read_lock` | [0-9]* instructions | [0-9]* | [^|]*call x1' <<<"$out" ||
	echo "a call added to __rcu_read_lock is not shown as added: $out"
grep -q '^| `__rcu_read_unlock` | [0-9]* instructions | [0-9]* | none | none |' <<<"$out" ||
	echo "unchanged __rcu_read_unlock shows a change: $out"
out=$(run perf-full perf-voluntary)
[ "$(grep -c '| none | none |' <<<"$out")" -eq 2 ] ||
	echo "identical code shows a change: $out"
out=$(run perf-full perf-none)
grep -q 'not measured' <<<"$out" || echo "a missing vmlinux is not 'not measured': $out"
obj perf-rt 'int depth; void other(void) { depth++; }'
obj perf-rt-noinline 'int depth; void other(void) { depth++; } void __rcu_read_lock(void) { depth++; }'
out=$(run perf-rt perf-rt)
grep -q '^| `__rcu_read_lock` | in neither kernel' <<<"$out" ||
	echo "a function in neither kernel does not say so: $out"
out=$(run perf-rt perf-rt-noinline)
grep -q '^| `__rcu_read_lock` | not measured (in one kernel only)' <<<"$out" ||
	echo "a function in one kernel only is not 'not measured': $out"
