#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# report PROFILE PLAN OUTDIR [START [BOOT]]: OUTDIR/run.json, one run's
# facts, test cases, failures and findings (the "runs" entry of
# docs/report.md's format, with its failures and findings), and
# OUTDIR/report.md, the same as Markdown.  START: when vet.sh began (epoch
# seconds); BOOT: "booted", or "cached" when the boot cache's console was
# judged again.
. "$(dirname "$0")/lib.sh"

profile=${1:?usage: report.sh PROFILE PLAN OUTDIR [START [BOOT]]}
plan=${2:?usage: report.sh PROFILE PLAN OUTDIR [START [BOOT]]}
out=${3:?usage: report.sh PROFILE PLAN OUTDIR [START [BOOT]]}
start=${4:-}
boot=${5:-booted}
here=$RCUVET_ROOT/scripts
load_profile "$profile"

# rel PATH: PATH as the user finds it from the checkout.
rel() {
	printf '%s\n' "${1#"$RCUVET_ROOT"/}"
}
name=${out#"$RESULTS"/}

console=$out/console.log
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
touch "$out/results.tsv"
cat "$out/verdict.txt" >"$tmp/verdict" 2>/dev/null || true

# The kernel: "Linux version VERSION (...) #N SMP PREEMPT ...".
awk '/Linux version / {
	sub(/.*Linux version /, "")
	v = $1
	for (i = 2; i <= NF && $i !~ /^#[0-9]+$/; i++) ;
	b = $i
	for (i++; i <= NF && $i ~ /^[A-Z_]+$/; i++) b = b " " $i
	printf "%s\t%s\n", v, b
	exit
}' "$console" 2>/dev/null >"$tmp/kernel" || true
# The config's identity, preemption model and debug options.
if [ -f "$out/config" ]; then
	sha1sum <"$out/config" | cut -c1-12 >"$tmp/config"
	awk -v model="$tmp/config" -v debug="$tmp/debug" '
		BEGIN {
			split("PREEMPT_RT PREEMPT PREEMPT_VOLUNTARY PREEMPT_NONE", m, " ")
			split("KASAN PROVE_LOCKING PROVE_RCU DEBUG_KMEMLEAK " \
			      "RCU_EMULATE_UNCONSOLIDATED RCU_CONSOLIDATION_RELIANCE", d, " ")
		}
		/^CONFIG_[A-Z0-9_]+=y$/ { sub(/^CONFIG_/, ""); sub(/=y$/, ""); y[$0] = 1 }
		END {
			for (i = 1; i in m; i++) if (m[i] in y) { print m[i] >>model; break }
			for (i = 1; i in d; i++) if (d[i] in y) print d[i] >debug
		}' "$out/config"
fi
touch "$tmp/config" "$tmp/debug"
# The guest's time: the console's last timestamp.
guest=$(grep -ao '^\[ *[0-9]*\.[0-9]*\]' "$console" 2>/dev/null | tail -1 | tr -d '[] ' || true)
"$here/report-failures.sh" "$out" >"$tmp/failures"
"$here/report-xdp.sh" "$console" >"$tmp/xdp"
# Readers relying on consolidation (rcu-reliance steps): each site once,
# with its most hits (a filtered listing repeats sites of the full one).
grep -ao 'rcu-reliance: [0-9][0-9]* [^ ]* [^ ]* .*' "$console" 2>/dev/null | tr -d '\r' |
	awk '$3 != "site(s)" {
		site = $0
		sub(/^rcu-reliance: [0-9]+ [^ ]+ [^ ]+ /, "", site)
		k = $3 "\t" $4 "\t" site
		if (!(k in hits) || $2 + 0 > hits[k]) hits[k] = $2 + 0
	}
	END { for (k in hits) printf "%d\t%s\n", hits[k], k }' | sort -t$'\t' -k1,1nr -k4 >"$tmp/reliance" || true
# The tree's identity: its id file (tree.sh: the source and a hash of the
# series applied, a mutant's patches too), hashed, the build folder's path
# left out so that checkouts of the same tree agree.
tree_hash=
if [ -f "$TREE_ID" ]; then
	ident=$(<"$TREE_ID")
	ident=${ident//"$SHARED_KBUILD_ROOT/"/} ident=${ident//"$KBUILD_ROOT/"/}
	tree_hash=$(printf '%s\n' "$ident" | sha1sum | cut -c1-16)
fi

# Which are the kernel's own: those of the idle baseline of this tree and
# profile ("kernel"), the others "new"; "unknown" without a baseline, or
# with a stale one: made on another tree, config, kernel release or
# profile than this run's (or one that cannot tell), which is not applied.
# Whatever the baseline says, the code under test's sites are
# "under-test", never the kernel's: those the plans require, marks and
# modules' (reliance-baseline.sh).
baseline=$(reliance_baseline_file "$profile") found= stale=
: >"$tmp/baseline"
if [ -f "$baseline" ]; then
	found=1
	cp "$baseline" "$tmp/baseline"
	# differs WHAT BASELINE'S RUN'S: one reason, if they are not the same.
	differs() {
		[ -n "$2" ] && [ "$2" = "$3" ] ||
			stale="${stale:+$stale; }$1 ${2:-unknown}, this run's ${3:-unknown}"
	}
	field() {
		sed -n "s/^# $1: //p" "$baseline" | head -n 1
	}
	differs tree "$(field tree_id)" "$tree_hash"
	differs config "$(field config)" "$(head -n 1 "$tmp/config")"
	b_kernel=$(field kernel)
	differs kernel "${b_kernel%% *}" "$(cut -f1 "$tmp/kernel")"
	differs profile "$(field profile)" "$profile"
fi
applied=-
[ -z "$found" ] || [ -n "$stale" ] || applied=$baseline
"$here/reliance-baseline.sh" mark "$applied" "$tmp/reliance" >"$tmp/reliance-origin"

if [ -n "${KSRC:-}" ]; then
	tree=$KSRC
	[ "${PATCHES:-0}" != 1 ] || tree="$tree + ${SERIES#"$RCUVET_ROOT"/}"
else
	tree="debian linux-source-$RCUVET_TREE"
	[ ! -f "$SERIES" ] || tree="$tree + ${SERIES#"$RCUVET_ROOT"/}"
fi
[ -z "${MUTANT_PATCHES:-}" ] || tree="$tree + $MUTANT_PATCHES"

jq -n --arg name "$name" --arg profile "$profile" --arg plan "$plan" \
	--arg tree "$tree" --arg tree_id "$tree_hash" \
	--arg fragments "$(fragments_used)" --arg cmdline "$CMDLINE" \
	--arg start "$start" --arg now "$(date +%s)" --arg guest "$guest" --arg boot "$boot" \
	--arg dir "$(rel "$out")" --arg console "$(rel "$console")" \
	--rawfile kernel "$tmp/kernel" --rawfile config "$tmp/config" --rawfile debug "$tmp/debug" \
	--rawfile verdict "$tmp/verdict" --rawfile results "$out/results.tsv" \
	--rawfile failures "$tmp/failures" --rawfile xdp "$tmp/xdp" \
	--rawfile reliance "$tmp/reliance-origin" --rawfile baseline "$tmp/baseline" \
	--arg baseline_file "$(rel "$baseline")" --arg baseline_found "$found" --arg stale "$stale" \
	-L "$here" '
	include "report";
	(tsv($kernel)[0] // []) as $k | tsv($config) as $c | (tsv($results) | map(case_of)) as $cases
	| {
		name: $name, profile: $profile, plan: $plan, tree: $tree,
		tree_id: (if $tree_id == "" then null else $tree_id end),
		kernel: ($k[0] // null), kernel_build: ($k[1] // null),
		config: {
			sha1: ($c[0][0] // null), preempt: ($c[1][0] // null),
			debug: (tsv($debug) | map(.[0])),
			fragments: ($fragments | split(" ") | map(select(. != ""))),
			cmdline: $cmdline
		},
		verdict: ([$verdict | split("\n")[] | select(startswith("verdict: "))][0]
			| if . then ltrimstr("verdict: ") | split(",")[0] else "none" end),
		boot: $boot,
		seconds: (if $start == "" then null else ($now | tonumber) - ($start | tonumber) end),
		guest_seconds: (if $guest == "" then null else $guest | tonumber end),
		dir: $dir, console: $console,
		reliance_baseline: baseline_of($baseline_file; $baseline_found == "1"; $baseline; $stale)
	  } + counts($cases) + {
		cases: $cases,
		failures: [tsv($failures)[] | {
			where: $name, suite: .[0], case: .[1], kind: .[2], reason: .[3],
			console: $console, line: (.[4] | tonumber),
			context: (.[5] // "" | if . == "" then [] else split("\u001f") end)
		}],
		findings: {
			xdp: [tsv($xdp)[] | {run: $name} + xdp_of],
			reliance: [tsv($reliance)[] | {
				run: $name, hits: (.[0] | tonumber), context: .[1], check: .[2], site: .[3],
				origin: .[4], under_test: (if (.[5] // "") == "" then null else .[5] end)
			}]
		}
	  }' >"$tmp/run.json"
mv "$tmp/run.json" "$out/run.json"
jq -r -L "$here" --arg cmd "scripts/vet.sh $profile $plan" \
	'include "report"; {command: $cmd, runs: [.]} | report_of_runs | report_md' "$out/run.json" \
	>"$out/report.md"
