#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bench: the bench plan on every perf profile (one preemption model each;
# perf-full-emulate: perf-full with the v4.19 emulation compiled in, off;
# perf-full-noinline and perf-rt-noinline: rcu_read_lock() out of line,
# each next to its base; icount-full and icount-full-noinline: the
# perf-full pair's kernels again under QEMU's -icount, where a nanosecond
# is an instruction), then CSV, tables and plots in results/bench/.
# Not part of the verdict: a profile that does not build or boot is
# reported with the reason.
. "$(dirname "$0")/lib.sh"
. "$RCUVET_ROOT/scripts/bench-lib.sh"

profiles=${PROFILES:-perf-none perf-voluntary perf-full perf-full-noinline perf-full-emulate perf-rt perf-rt-noinline icount-full icount-full-noinline}
left_out=
if [ -z "${PROFILES:-}" ] && ! inline_option; then
	left_out=$(tr ' ' '\n' <<<"$profiles" | grep -- '-noinline$' | xargs)
	profiles=$(tr ' ' '\n' <<<"$profiles" | grep -v -- '-noinline$' | xargs)
	note "the tree has no CONFIG_RCU_INLINE_READ_LOCK: $left_out left out"
fi
"$RCUVET_ROOT/scripts/validate.sh" -p "$profiles" -P bench
out=$RESULTS/${BENCH_NAME:-bench}
rm -rf "$out"
mkdir -p "$out"
csv=$out/bench.csv
: >"$csv"
: >"$out/not-measured.md"
for p in $left_out; do
	printf -- '- `%s`: not built: the tree has no `CONFIG_RCU_INLINE_READ_LOCK` (kernel/patches/0007-*), so it would be its base'"'"'s kernel\n' \
		"$p" >>"$out/not-measured.md"
done

for p in $profiles; do
	rc=0
	"$RCUVET_ROOT/scripts/vet.sh" "$p" bench "$out/$p" 2>"$out/$p.err" || rc=$?
	# A failed boot still has whatever it measured before it failed.
	if [ -f "$out/$p/console.log" ]; then
		"$RCUVET_ROOT/scripts/bench-parse.sh" "$p" "$out/$p/console.log" >>"$csv"
	fi
	if [ $rc -ne 0 ]; then
		why=$(grep -hs -m3 -E 'rcuvet: error|^FAIL' "$out/$p.err" "$out/$p/verdict.txt" |
			paste -sd';' - || true)
		last=$(grep -ao 'rcuvet: begin [^ ]*' "$out/$p/console.log" 2>/dev/null | tail -1 | cut -d' ' -f3 || true)
		note "$p failed: ${why:-vet.sh status $rc}"
		printf -- '- `%s`: the boot failed (%s) after step `%s`; its numbers are those measured before\n' \
			"$p" "${why:-vet.sh status $rc}" "${last:-none}" >>"$out/not-measured.md"
	fi
done
"$RCUVET_ROOT/scripts/bench-report.sh" "$csv" "$out"
# Each -emulate profile's read-side code against its base's, both built.
for p in $profiles; do
	b=${p%-emulate}
	[ "$b" != "$p" ] && [[ " $profiles " == *" $b "* ]] || continue
	"$RCUVET_ROOT/scripts/bench-code.sh" "$b" "$p" >>"$out/bench.md"
done
# Each -noinline profile's kernel text and read-side call sites against
# its base's (the option on), both built; once a kernel pair (the icount
# profiles boot the perf ones' kernels).
for p in $profiles; do
	b=${p%-noinline}
	[ "$b" != "$p" ] && [[ " $profiles " == *" $b "* ]] || continue
	[ -z "$(load_profile "$p" && echo "$KERNEL_OF")" ] || continue
	"$RCUVET_ROOT/scripts/bench-text.sh" "$b" "$p" >>"$out/bench.md"
done
cat "$out/not-measured.md" >>"$out/bench.md"
step "bench: ${out#"$RCUVET_ROOT"/}/bench.md ($(wc -l <"$csv") measurements)"
