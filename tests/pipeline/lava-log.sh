#!/usr/bin/env bash
# scripts/lava-log.sh: the console of a boot that ran on LAVA is judged
# exactly as the same console booted here.  Canned consoles of
# tests/verdict/ become LAVA job logs (tests/lava/to-lava-log, LAVA's own
# quoting): a pass, a failing case, a splat, each judged the same through
# the log (verdict output, results and KTAP alike); a guest that panicked
# (LAVA: Incomplete, the console closed) fails as it does here.  A job
# that LAVA ended Incomplete before the guest ran
# (tests/lava/incomplete-download.yaml), and a log without its end, are
# infrastructure errors: no console to judge, never a pass or a failure.
# No LAVA needed.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export BUILD=$t/build RESULTS=$t/results
verdict=$(. "$root/scripts/lib.sh" && host_tool verdict) || exit 1

# judge DIR CONSOLE OUT: the verdict on CONSOLE with DIR's plan, into OUT.
judge() {
	local rc=0

	mkdir -p "$3"
	"$verdict" --plan "$1/plan" --console "$2" --results "$3/results.tsv" \
		--ktap "$3/ktap.txt" >"$3/out" 2>&1 || rc=$?
	echo "$rc" >"$3/status"
}

# same CASE RESULT [ERROR_TYPE ERROR_MSG]: tests/verdict/CASE's console,
# booted on LAVA (a job ending RESULT), is judged as it is here.
same() {
	local dir=$root/tests/verdict/$1 w=$t/$1 rc=0 f

	mkdir -p "$w"
	# A line of the console's own with what LAVA quotes: ", \, a tab,
	# non-ASCII; a KTAP diagnostic, so the verdict keeps it.
	{
		head -n 1 "$dir/console.log"
		printf '    # rcuvet: "quoted" back\\slash\ttab caf\xc3\xa9 \xe2\x80\x94 %s\n' "$1"
		tail -n +2 "$dir/console.log"
	} >"$w/console.log"
	"$root/tests/lava/to-lava-log" "$w/console.log" "${@:2}" >"$w/log.yaml"
	"$root/scripts/lava-log.sh" "$w/log.yaml" "$w/lava" >"$w/lava-log.out" 2>&1 || rc=$?
	if [ $rc -ne 0 ]; then
		echo "$1: lava-log.sh exited $rc: $(tail -n 1 "$w/lava-log.out")"
		return
	fi
	grep -v '^$' "$w/console.log" | cmp -s - "$w/lava/console.log" ||
		echo "$1: the console LAVA recorded is not the console booted"
	judge "$dir" "$w/console.log" "$w/local"
	judge "$dir" "$w/lava/console.log" "$w/viaLAVA"
	for f in status out results.tsv ktap.txt; do
		cmp -s "$w/local/$f" "$w/viaLAVA/$f" ||
			echo "$1: its verdict's $f differs through LAVA: $(diff "$w/local/$f" "$w/viaLAVA/$f" | head -3 | paste -sd' ' -)"
	done
	[ "$(cat "$w/local/status")" = "$(sed -n 's/^status //p' "$dir/expect")" ] ||
		echo "$1: the verdict exited $(cat "$w/local/status"), not as tests/verdict/$1/expect says"
}

same all-pass pass
same one-fails pass
same splat-after-tests pass
same crash-mid-test fail Infrastructure 'lava test monitoring reached end of file'

# infra LOG SAYS: LOG is an infrastructure error that says SAYS.
infra() {
	local rc=0

	rm -rf "$t/infra"
	"$root/scripts/lava-log.sh" "$1" "$t/infra" >"$t/infra.out" 2>&1 || rc=$?
	[ $rc -eq 3 ] || echo "$1: lava-log.sh exited $rc, not 3 (infrastructure error)"
	grep -qF -- "$2" "$t/infra.out" || echo "$1: does not say '$2' but: $(tail -n 1 "$t/infra.out")"
	[ ! -e "$t/infra/console.log" ] || echo "$1: left a console to judge"
}

infra "$root/tests/lava/incomplete-download.yaml" \
	"infrastructure error: LAVA job Incomplete (Job error: Invalid job data: "
head -n -1 "$t/all-pass/log.yaml" >"$t/truncated.yaml"
infra "$t/truncated.yaml" "infrastructure error: the log has no end"
"$root/tests/lava/to-lava-log" "$root/tests/verdict/all-pass/console.log" fail Canceled \
	'The job was canceled' >"$t/canceled.yaml"
infra "$t/canceled.yaml" "infrastructure error: LAVA job Canceled"
