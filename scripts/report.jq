# SPDX-License-Identifier: GPL-2.0
# rcuvet's report as jq functions (jq 1.6): reading results files, putting
# an invocation's report together (docs/report.md has its format) and
# writing it as Markdown.  Included by report.sh, report-json.sh,
# report-md.sh and summary.sh ("jq -L scripts 'include "report"; ...'").

# ---- reading --------------------------------------------------------

# tsv(TEXT): the lines of TEXT, each split at tabs; empty lines dropped.
def tsv($text): $text | split("\n") | map(select(. != "") | split("\t"));

# case_of: a results.tsv row as a test case.
def case_of: {
	suite: .[0], test: .[1], result: .[2],
	seconds: (.[3] // "0" | tonumber? // 0),
	detail: (.[4] // ""), covers: (.[5] // "")
};

# counts(CASES): how many passed, failed and were skipped.
def counts($cases): {
	passed: ($cases | map(select(.result == "pass")) | length),
	failed: ($cases | map(select(.result == "fail")) | length),
	skipped: ($cases | map(select(.result == "skip")) | length)
};

# xdp_of: a report-xdp.sh line as a scenario's accounting.
def xdp_of:
	def n: if . == null or . == "" then null else tonumber end;
	{
		scenario: .[0], result: .[1], frames: (.[2] | n), torn_down: (.[3] | n),
		loss: (.[4] | n), bound: (.[5] | n), leaks: (.[6] // "unknown"),
		failed: (.[7] // "" | if . == "" then [] else split("; ") end)
	};

# baseline_of(FILE; FOUND; TEXT; STALE): a run's idle baseline of the
# reliance report (scripts/reliance-baseline.sh baseline): where it is,
# whether it is there, and from its "# KEY: " lines the tree, kernel,
# config and date of the boot it came from; sites, how many it names;
# flaws, why its idle boot may have missed sites of the kernel (failed,
# lost hits, lockdep off: written with FORCE=1), or null (none, or a
# baseline older than that line); stale, why it was not applied
# (report.sh: another tree, config, kernel or profile than the run's), or
# null.
def baseline_of($file; $found; $text; $stale):
	($text | split("\n")) as $l
	| def field($k): [$l[] | select(startswith("# \($k): ")) | ltrimstr("# \($k): ")][0] // null;
	{file: $file, found: $found}
	+ if $found then {
		tree_id: field("tree_id"), kernel: field("kernel"), config: field("config"),
		date: field("date"), sites: [$l[] | select(. != "" and (startswith("#") | not))] | length,
		flaws: (field("flaws") | if . == "none" then null else . end),
		stale: (if $stale == "" then null else $stale end)
	  } else {tree_id: null, kernel: null, config: null, date: null, sites: null, flaws: null, stale: null} end;

# ---- the invocation's report -----------------------------------------

# control_status: a controls.tsv case as held, not-held or could-not-run.
def control_status:
	if .result == "pass" then "held"
	elif (.detail | startswith("could not run")) then "could-not-run"
	else "not-held" end;

# report_of_runs: the report of an invocation from its parts:
#   {command, rcuvet?, started?, seconds?, runs: [run.json...],
#    suites: [{name, file, cases}], places: {CASE: {console, context}},
#    missing: [FILE...]}
# (places: where a control's or a mutant's run is, by its name).
def report_of_runs:
	(.runs // []) as $runs | (.suites // []) as $suites | (.places // {}) as $places
	| (.missing // []) as $missing
	| ($suites | map(. + counts(.cases))) as $suites
	| [$runs[], $suites[] | {passed, failed, skipped}] as $all
	| {
		passed: ($all | map(.passed) | add // 0),
		failed: (($all | map(.failed) | add // 0) + ($missing | length)),
		skipped: ($all | map(.skipped) | add // 0)
	  } as $totals
	| {
		format: "rcuvet-report", version: 1,
		command: .command, rcuvet: (.rcuvet // null),
		started: (.started // null), seconds: (.seconds // null),
		result: (if $totals.failed > 0 then "fail" else "pass" end),
		totals: $totals,
		runs: [$runs[] | del(.failures, .findings)],
		suites: $suites,
		failures: (
			[$runs[] | .failures[]?]
			+ [$suites[] | .name as $where | .cases[] | select(.result == "fail") | {
				where: $where, suite: .suite, case: .test,
				kind: (if .suite == "controls" then "control"
					elif .suite == "mutants" then "mutant" else "host" end),
				reason: (if .detail == "" then "failed"
					elif .suite == "controls" and (.detail | startswith("could not run") | not)
					then "did not hold: " + (.detail | gsub(";"; "; "))
					else .detail end),
				console: ($places[.test].console // null), line: 0,
				context: ($places[.test].context // [])
			  }]
			+ [$missing[] | {
				where: ., suite: null, case: "results", kind: "missing",
				reason: "missing results: \(.)", console: null, line: 0, context: []
			  }]
		),
		findings: {
			controls: [$suites[] | .cases[] | select(.suite == "controls") | {
				control: .test, status: control_status, seconds: .seconds,
				reason: .detail, console: ($places[.test].console // null)
			  }],
			xdp: [$runs[] | .findings.xdp[]?],
			reliance: [$runs[] | .findings.reliance[]?],
			mutants: [$suites[] | .cases[] | select(.suite == "mutants") | {
				mutant: .test,
				status: (if .result == "pass" then "killed"
					elif (.detail | startswith("SURVIVED")) then "survived"
					elif (.detail | startswith("could not run")) then "could-not-run"
					else "killed-otherwise" end),
				seconds: .seconds, detail: .detail,
				console: ($places[.test].console // null)
			  }]
		}
	  };

# ---- Markdown --------------------------------------------------------

# cell: a value as a Markdown table cell.
def cell: if . == null then "" else tostring | gsub("\\|"; "\\|") | gsub("\n"; " ") end;

# row(VALUES): a table row.
def row($v): "| " + ($v | map(cell) | join(" | ")) + " |";

# table(HEADERS; ROWS): a table, or nothing without rows.
def table($h; $rows):
	if ($rows | length) == 0 then empty else
		row($h), "|" + ($h | map("---") | join("|")) + "|", ($rows[] | row(.))
	end;

# dur: seconds as M:SS or H:MM:SS.
def dur:
	if . == null then "" else
		(. | floor) as $s
		| (if $s >= 3600 then "\($s / 3600 | floor):" else "" end)
		+ (if $s >= 3600 then ($s % 3600 / 60 | floor | tostring | if length < 2 then "0" + . else . end)
		   else ($s / 60 | floor | tostring) end)
		+ ":" + ($s % 60 | tostring | if length < 2 then "0" + . else . end)
	end;

# num: a count with thousands separators.
def num:
	if . == null then "" else
		tostring | if test("^[0-9]+$") then
			[explode | reverse | _nwise(3) | reverse | implode] | reverse | join(",")
		else . end
	end;

def plural($n; $word): "\($n) \($word)\(if $n == 1 then "" else "s" end)";

# config_cell: a run's config identity in a few words.
def config_cell:
	{PROVE_LOCKING: "LOCKDEP", DEBUG_KMEMLEAK: "KMEMLEAK", RCU_EMULATE_UNCONSOLIDATED: "EMULATE",
	 RCU_CONSOLIDATION_RELIANCE: "RELIANCE"} as $short
	| [.config.sha1, .config.preempt] + (.config.debug // [] | map($short[.] // .))
	| map(select(. != null)) | join(" ");

# run_row: a run as a row of the runs table.
def run_row: [
	.name, .plan, ((.kernel // "?") + (if .kernel_build then " " + .kernel_build else "" end)),
	config_cell, .verdict, .passed, .failed, .skipped,
	([(.seconds | dur), (if .boot == "cached" then "(boot cached)"
		elif .guest_seconds then "(guest \(.guest_seconds | floor) s)" else "" end)]
	 | map(select(. != "")) | join(" "))
];

# failure_md(N): one failure as a numbered Markdown item.
def failure_md($n):
	"\($n). `\(.where)`: **\(.case)** (\(.kind)): \(.reason)",
	(if .console then
		"   console: `\(.console)`" + (if .line > 0 then ", line \(.line)" else "" end)
	 else empty end),
	(if (.context | length) > 0 then
		"", "   ```",
		(.context | if length > 6 then .[:4] + ["[...]"] + .[-1:] else . end
		 | .[] | "   " + .[:300]),
		"   ```"
	 else empty end);

def xdp_row: [
	.run, .scenario, (if .result == "pass" then "ok" else "**FAILED**" end),
	(.frames | num), (.torn_down | num),
	(if .loss == null then "" elif .bound == 0 and .loss == 0 then "0 (exact)"
	 else "\(.loss | num) of \(.bound | num)" end),
	.leaks
];

# xdp_cell: a scenario's accounting on one run, in one table cell.
def xdp_cell:
	xdp_row as [$run, $sc, $res, $frames, $torn, $loss, $leaks]
	| [$res, (if $frames != "" then "\($frames) frames" else empty end),
	   (if $torn != "" then "\($torn) torn down" else empty end),
	   (if $loss != "" then "loss \($loss)" else empty end),
	   "leaks \($leaks // "unknown")"] | join(", ");

# xdp_by_scenario: a row per scenario, a column per run in the order the
# runs ran (not sorted by name): the summary's
# table stays as long as the scenario list, however many runs.
def xdp_by_scenario($xdp):
	(reduce $xdp[].run as $r ([]; if any(.[]; . == $r) then . else . + [$r] end)) as $runs
	| ($xdp | reduce .[] as $x ({order: [], by: {}};
		(if .by[$x.scenario] == null then .order += [$x.scenario] else . end)
		| .by[$x.scenario][$x.run] = ($x | xdp_cell))) as $t
	| table(["scenario"] + $runs;
		[$t.order[] as $sc | [$sc] + [$runs[] as $r | $t.by[$sc][$r] // ""]]);

# origin_label: a reliance site's origin, in words.
def origin_label:
	if .origin == "under-test" then "under test: \(.under_test)"
	else {kernel: "kernel's own", new: "new", unknown: "no baseline applied"}[.origin] // .origin end;

def reliance_row: [.run, (.hits | num), .context, .check, .site, origin_label];

def reliance_header: ["run", "hits", "context", "check", "site", "origin"];

# reliance_shown(SITES): the other sites the summary shows: the five most
# hit of those neither under test nor known to be the kernel's own.
def reliance_shown($sites):
	[$sites | sort_by(-.hits)[] | select(.origin == "new" or .origin == "unknown")] | .[:5];

# under_test_table(SITES): the sites of the code under test, never left
# out: a row per reason (the plans' check that requires them, a mark, a
# module), a column per run: the hits of its sites (each once, with its
# most hits), and how many sites when more than one.
def under_test_table($sites):
	[$sites[] | select(.origin == "under-test")] as $u
	| (reduce $u[].run as $r ([]; if any(.[]; . == $r) then . else . + [$r] end)) as $runs
	| ($u | reduce .[] as $x ({order: [], by: {}};
		(if .by[$x.under_test] == null then .order += [$x.under_test] else . end)
		| .by[$x.under_test][$x.run][$x.site] = ([.by[$x.under_test][$x.run][$x.site] // 0, $x.hits] | max)))
	  as $t
	| table(["under test (a plan's rcu-reliance check, and its plans)"] + $runs;
		[$t.order[] as $w | [$w] + [$runs[] as $r | $t.by[$w][$r] // {}
			| if length == 0 then "" elif length == 1 then (add | num)
			  else "\(add | num) in \(length) sites" end]]);

# baseline_cmd: the command that makes a run's idle baseline, on its tree
# (report.sh's tree: "debian linux-source-VERSION + ...", or KSRC's path,
# "+ SERIES" with PATCHES=1).
def baseline_cmd:
	(.tree // "") as $t
	| "make reliance-baseline "
	+ (if ($t | startswith("debian linux-source-")) then
		($t | capture("^debian linux-source-(?<v>[^ ]+)").v) as $v
		| (if $v == "6.12" then "" else "TREE=\($v) " end)
	   elif $t != "" then "KSRC=\($t | split(" + ")[0]) "
		+ (if ($t | split(" + ")[1] // "" | startswith("kernel/patches/series"))
		   then "PATCHES=1 " else "" end)
	   else "" end)
	+ "PROFILE=\(.profile)";

# reliance_run_md(SITES): a line on the run's sites and where its idle
# baseline came from, or that it has none, so nothing could be left out.
def reliance_run_md($sites):
	.name as $n | [$sites[] | select(.run == $n)] as $mine | .reliance_baseline as $b
	| ($mine | map(select(.origin == "under-test")) | length) as $u
	| select(($mine | length) > 0)
	| "- `\($n)`: \(plural($mine | length; "site")):"
	+ (if $u > 0 then " \($u) of the code under test (never left out);" else "" end)
	+ if $b == null then " no baseline looked up"
	  elif $b.found and $b.stale != null then
		" **stale idle baseline** (`\($b.file)`, \($b.date // "undated"): \($b.stale)), not applied,"
		+ " so none is known to be the kernel's own and none is left out;"
		+ " `\(baseline_cmd)` makes it again"
	  elif $b.found then
		" \($mine | map(select(.origin == "kernel")) | length) the kernel's own, left out"
		+ " (in `\($b.file)`, \($b.sites) sites of an idle boot of \($b.kernel // "an unknown kernel")"
		+ ", config \($b.config // "unknown"), \($b.date // "undated")"
		+ (if $b.flaws != null then "; **from a flawed idle boot: \($b.flaws)**, so some of the kernel's"
		   + " own may be counted new" else "" end)
		+ "), \($mine | map(select(.origin == "new")) | length) new"
	  else
		" **no idle baseline** for this tree and profile (`\($b.file)` does not exist;"
		+ " `\(baseline_cmd)` makes it), so none is known to be"
		+ " the kernel's own and none is left out"
	  end;

# summary_md: the first screen.
def summary_md:
	.findings as $f
	| "# rcuvet report: \(.command): \(if .result == "pass" then "PASS" else "FAIL" end)",
	"",
	"\(.totals.passed) passed, \(.totals.failed) failed, \(.totals.skipped) skipped"
	+ (if .seconds then " in \(.seconds | dur)" else "" end)
	+ (if .started then ", started \(.started | todate)" else "" end)
	+ (if .rcuvet then ", rcuvet \(.rcuvet)" else "" end) + ".",
	"",
	table(["run", "plan", "kernel", "config", "verdict", "passed", "failed", "skipped", "time"];
		[.runs[] | run_row] + [.suites[] | [.name, "", "", "", (if .failed > 0 then "FAIL" else "PASS" end),
			.passed, .failed, .skipped, ""]]),
	(if (.runs | length) > 0 then
		"", ([.runs[] | select(.tree != null) | {tree, name}] | group_by(.tree)[]
			| "Tree: \(.[0].tree) (\(map(.name) | join(", ")))")
	 else empty end),
	"",
	"## Failures (\(.failures | length))",
	"",
	(if (.failures | length) == 0 then "None." else
		(.failures | to_entries[] | select(.key < 1) | .key as $k | .value | failure_md($k + 1)),
		(.failures | to_entries[] | select(.key >= 1 and .key < 30) | .key as $k | .value
			| "\($k + 1). `\(.where)`: **\(.case)** (\(.kind)): \(.reason)"
			+ (if .console then " (`\(.console)`\(if .line > 0 then " line \(.line)" else "" end))" else "" end)),
		(if (.failures | length) > 30 then
			"", "... and \(.failures | length - 30) more: the tables under Full results list them all."
		 else empty end)
	 end),
	(if ([$f[] | length] | add // 0) > 0 then "", "## Findings" else empty end),
	(if ($f.controls | length) > 0 then
		($f.controls | group_by(.status) | map({key: .[0].status, value: .}) | from_entries) as $c
		| "",
		"Controls: \(plural($f.controls | length; "control")): \($c.held // [] | length) held, "
		+ "\($c["not-held"] // [] | length) did not hold"
		+ (if $c["not-held"] then " (\($c["not-held"] | map("`" + .control + "`") | join(", ")))" else "" end)
		+ ", \($c["could-not-run"] // [] | length) could not run"
		+ (if $c["could-not-run"] then " (\($c["could-not-run"] | map("`" + .control + "`") | join(", ")))" else "" end)
		+ "."
	 else empty end),
	(if ($f.mutants | length) > 0 then
		"",
		"Kernel mutants: \($f.mutants | map(select(.status == "killed")) | length) of \($f.mutants | length) killed by their case"
		+ ([$f.mutants[] | select(.status != "killed") | "; `\(.mutant)`: \(.detail)"] | join(""))
		+ "."
	 else empty end),
	(if ($f.xdp | length) > 0 then
		"", "XDP teardown accounting (frames sent, devmap and cpumap entries torn down, devmap frames unaccounted of the loss allowed, what outlived the scenario):", "",
		xdp_by_scenario($f.xdp)
	 else empty end),
	(if ($f.reliance | length) > 0 then
		reliance_shown($f.reliance) as $shown
		| [$f.reliance[] | select(.origin == "under-test")] as $tested
		| [$f.reliance[] | select(.origin == "new" or .origin == "unknown")] as $rest
		| "", "Readers relying on RCU flavor consolidation, per run; the kernel's own are"
		+ " those its idle boot lists too (docs/emulate-4.19.md):", "",
		(.runs[] | reliance_run_md($f.reliance)),
		(if ($tested | length) > 0 then
			"", "Sites of the code under test, never the kernel's own whatever a baseline says:"
			+ " those a plan's rcu-reliance step requires, FILE:FUNCTION marks, modules' sites; hits:", "",
			under_test_table($f.reliance)
		 else empty end),
		"",
		(if ($tested | length) == ($f.reliance | length) then
			"No other site: every site is of the code under test."
		 elif ($rest | length) == 0 then
			"No other site: \(if ($tested | length) > 0 then "every other one" else "every site" end)"
			+ " is the kernel's own (all under Full results)."
		 else
			"Other sites not known to be the kernel's own: \($rest | length)"
			+ (if ($rest | length) > ($shown | length) then ", the \($shown | length) most hit" else "" end)
			+ (if ($f.reliance | length) > ($shown | length) then " (all sites under Full results)" else "" end)
			+ ":", "",
			table(reliance_header; [$shown[] | reliance_row])
		 end)
	 else empty end);

# suite_counts(CASES): a row per suite, in the order they ran.
def suite_counts($cases):
	reduce $cases[] as $c ({order: [], n: {}};
		(if .n[$c.suite] == null then .order += [$c.suite] | .n[$c.suite] = {passed: 0, failed: 0, skipped: 0} else . end)
		| .n[$c.suite][if $c.result == "pass" then "passed" elif $c.result == "fail" then "failed" else "skipped" end] += 1)
	| .n as $n | [.order[] | [., $n[.].passed, $n[.].failed, $n[.].skipped]];

# cases_md(CASES): a results file, collapsed: counts per suite, then the
# rows of what did not pass.
def cases_md($cases):
	table(["suite", "passed", "failed", "skipped"]; suite_counts($cases)),
	([$cases[] | select(.result != "pass")] as $bad
	 | if ($bad | length) > 0 then
		"", table(["suite", "test", "result", "time (s)", "detail"];
			[$bad[] | [.suite, .test, .result, .seconds, .detail]])
	   else empty end);

# full_md: every run and results file, collapsed per suite.
def full_md:
	.findings as $f
	| "", "---", "", "# Full results",
	(.runs[] |
		"", "## \(.name): plan \(.plan)", "",
		"- profile `\(.profile)`, tree \(.tree // "unknown")\(if .tree_id then " (id \(.tree_id))" else "" end)",
		"- kernel \(.kernel // "unknown") \(.kernel_build // ""), config \(.config.sha1 // "unknown")"
		+ " (\(.config.fragments // [] | join(" ")))"
		+ (if (.config.cmdline // "") != "" then ", command line `\(.config.cmdline)`" else "" end),
		"- verdict \(.verdict), boot \(.boot), \(.seconds | dur)",
		"- files: `\(.dir)/`: console.log, ktap.txt, config, results.tsv, verdict.txt, run.json",
		"",
		cases_md(.cases)),
	(.suites[] | "", "## \(.name)", "", cases_md(.cases)),
	(if ($f.controls | length) > 0 then
		"", "## Controls", "",
		table(["control", "status", "time (s)", "why", "console"];
			[$f.controls[] | [.control, .status, .seconds, .reason, .console]])
	 else empty end),
	(if ($f.xdp | length) > 0 then
		"", "## XDP teardown accounting", "",
		table(["run", "scenario", "result", "frames", "entries torn down", "loss", "leaks"];
			[$f.xdp[] | xdp_row])
	 else empty end),
	(if ($f.reliance | length) > (reliance_shown($f.reliance) | length) then
		"", "## Readers relying on RCU flavor consolidation", "",
		"hits, context, check, site (kernel/patches/0002-*; docs/emulate-4.19.md), and whether"
		+ " it is of the code under test (and why), or the run's idle baseline has it (the kernel's"
		+ " own), has it not (new), or none was applied:", "",
		table(reliance_header; [$f.reliance[] | reliance_row])
	 else empty end),
	(if ([$f.xdp[] | select(.failed | length > 0)] | length) > 0 then
		"", "## XDP teardown: failed checks", "",
		table(["run", "scenario", "failed checks"];
			[$f.xdp[] | select(.failed | length > 0) | [.run, .scenario, (.failed | join("; "))]])
	 else empty end);

# report_md: the whole report.
def report_md: summary_md, full_md;

# ---- the terminal ----------------------------------------------------

# groups(f): the items of the input array grouped by f, groups in the
# order of their first item, items in their order.
def groups(f):
	reduce .[] as $x ({keys: [], by: {}};
		($x | f | tojson) as $k
		| (if .by[$k] == null then .keys += [$k] else . end)
		| .by[$k] += [$x])
	| .by as $by | [.keys[] | $by[.]];

# terminal_notes: a line per run with reliance sites but no idle baseline
# applied (none, or a stale one), so that none is known to be the
# kernel's own, with the command that makes one.
def terminal_notes:
	.findings.reliance as $r
	| .runs[] | .name as $n | .reliance_baseline as $b
	| ([$r[] | select(.run == $n)] | length) as $k
	| select($k > 0 and $b != null and (($b.found | not) or $b.stale != null))
	| "rcuvet: \($n): \(plural($k; "reliance site")), "
	+ (if $b.found then "stale idle baseline (\($b.stale))" else "no idle baseline" end)
	+ ": none known to be the kernel's own (\(baseline_cmd))";

# terminal_failures: a line per failure, at most 8 per run and suite.
def terminal_failures:
	.failures | groups([.where, .suite])[]
	| (.[:8][] | "FAILED: \(.where): \(.case): \(.reason | split("\n")[0] | .[:200])"),
	  (if length > 8 then "FAILED: \(.[0].where): \(length - 8) more in \(.[0].suite) (results/report.md)" else empty end);
