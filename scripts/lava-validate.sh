#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lava-validate [DIR]: LAVA's own validation, `lava-run --validate`
# (Debian's lava-dispatcher, installed by setup-lava.sh), of every job
# lava-jobs.sh wrote into DIR (default results/lava), each against the
# QEMU device a LAVA server renders for its context from
# configs/lava/qemu-device.yaml (no_kvm: TCG).  lava-run checks the job's
# schema, builds its pipeline for that device and checks that each
# artifact URL answers (an http HEAD, a file:// path): a job whose kernel
# the lab cannot fetch fails here, named.  Writes DIR/validate.tsv (job,
# pass or fail, LAVA's reason); exits 1 if any job failed.
. "$(dirname "$0")/lava-lib.sh"

dir=${1:-$RESULTS/lava}
[ -s "$dir/jobs.tsv" ] ||
	die "no LAVA jobs in ${dir#"$RCUVET_ROOT"/}/: make lava-jobs ARTIFACT_URL=... writes them"
command -v lava-run >/dev/null ||
	die "no lava-run: scripts/setup-lava.sh installs it (lava-dispatcher), as make lava-validate does"
[ "$(id -u)" -eq 0 ] || die "lava-run runs as root only"

# LAVA's own check of an artifact URL retries for over ten minutes; the
# lab must reach them, so must this host, at once.
mapfile -t files < <(cut -f1 "$dir/jobs.tsv" | sed "s|^|$dir/|")
unreachable=()
while read -r u; do
	url_answers "$u" || unreachable+=("$u")
done < <(job_urls "${files[@]}")
[ ${#unreachable[@]} -eq 0 ] ||
	die "the jobs' artifacts cannot be fetched (make lava-jobs copies what is built to ${dir#"$RCUVET_ROOT"/}/artifacts/; serve it at ARTIFACT_URL): ${unreachable[*]}"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tsv=$dir/validate.tsv
: >"$tsv"
version=$(dpkg-query -W -f='${Version}' lava-dispatcher 2>/dev/null || echo '?')
step "lava-run --validate (lava-dispatcher $version) on the jobs of ${dir#"$RCUVET_ROOT"/}/"
n=0 failed=0
while IFS=$'\t' read -r job _; do
	n=$((n + 1))
	# The device as the server renders it for this job's context.
	mem=$(sed -n 's/^  memory: //p' "$dir/$job")
	extra=$(sed -n '/^  extra_options:/,/^[^ ]/s/^  - \(.*\)/\1/p' "$dir/$job" | paste -sd, -)
	sed -e "s/@MEMORY@/$mem/" -e "s|@EXTRA@|[$extra]|" \
		"$RCUVET_ROOT/configs/lava/qemu-device.yaml" >"$work/device.yaml"
	rc=0
	lava-run --validate --job-id "$n" --output-dir "$work/$n" --device "$work/device.yaml" \
		"$dir/$job" >"$work/$n.log" 2>&1 || rc=$?
	if [ $rc -eq 0 ]; then
		printf '%s\tpass\t\n' "$job" >>"$tsv"
		continue
	fi
	failed=$((failed + 1))
	why=$(sed -n 's/^error_msg: //p' "$work/$n/result.yaml" 2>/dev/null | head -1)
	[ -n "$why" ] || why=$(tail -n 1 "$work/$n.log")
	note "FAIL: $job: $why"
	grep -F '"lvl": "error"' "$work/$n.log" | head -5 | sed 's/^/      /' || true
	printf '%s\tfail\t%s\n' "$job" "$(printf '%s' "$why" | tr '\t\n' '  ' | head -c 500)" >>"$tsv"
done <"$dir/jobs.tsv"
note "$((n - failed)) of $n jobs pass lava-run --validate (${tsv#"$RCUVET_ROOT"/})"
[ $failed -eq 0 ]
