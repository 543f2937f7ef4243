#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# torture-summary ROWS MD TSV DURATION [EMULATE]: make torture's table, as
# kvm.sh sums up its runs: a row per scenario of ROWS (torture.sh:
# scenario, result, End of test, grace periods, Reader Pipe, splat lines,
# build seconds, boot seconds, vCPUs, reductions ';'-separated, why it
# failed or was skipped) to TSV with a header line and to MD as a Markdown
# table.  EMULATE (4.19): the kernels had v4.19's grace periods, and a
# row passes when the scenario failed as it must.
set -euo pipefail

rows=${1:?usage: torture-summary.sh ROWS MD TSV DURATION}
md=${2:?usage: torture-summary.sh ROWS MD TSV DURATION}
tsv=${3:?usage: torture-summary.sh ROWS MD TSV DURATION}
duration=${4:?usage: torture-summary.sh ROWS MD TSV DURATION}
emulate=${5:-}

{
	printf 'scenario\tresult\tend_of_test\tgrace_periods\treader_pipe\tsplats\tbuild_s\tboot_s\tvcpus\treductions\treason\n'
	cat "$rows"
} >"$tsv"

awk -F'\t' -v dur="$duration" -v emulate="$emulate" '
	function cell(s) { gsub(/\|/, "\\|", s); return s == "" ? "" : s }
	BEGIN {
		printf "# make torture: the tree'"'"'s rcutorture scenarios under TCG, %d s each\n\n", dur
		if (emulate != "") {
			printf "The kernels had v%s'"'"'s grace periods (TORTURE_EMULATE=%s): a negative control.\n", emulate, emulate
			print "A row passes when rcutorture saw a reader outlive a grace period (Reader Pipe beyond its"
			print "second bucket), fails when the scenario did not fail so.\n"
		}
		print "Every scenario: rcutorture built as a module (CFcommon: =y), loaded by /init after boot"
		print "with the .boot file'"'"'s rcutorture.* parameters and unloaded after the time above"
		print "(End of test), instead of rcutorture.shutdown_secs; the rest is below (docs/torture.md).\n"
		print "| scenario | result | End of test | grace periods | Reader Pipe | splats | build (s) | boot (s) | vCPUs | reductions, reason |"
		print "|---|---|---|---|---|---|---|---|---|---|"
	}
	{
		notes = $10
		gsub(/;/, "; ", notes)
		if ($11 != "") notes = notes (notes == "" ? "" : "; ") "**" $11 "**"
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4,
			cell($5), $6, $7, $8, $9, cell(notes)
		n[$2]++
	}
	END {
		printf "\n%d passed, %d failed", n["pass"], n["fail"]
		if (n["skip"]) printf ", %d skipped", n["skip"]
		printf " (scenarios)\n"
	}' "$rows" >"$md"
