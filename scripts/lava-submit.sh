#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lava-submit [DIR...]: submit the job of each boot in the store folders
# DIR (lava-lib.sh) to the lab LAVA at once, with one lavacli call, and
# append each job's id to its DIR/jobs.  Without DIR: every boot of the
# run that has no end yet and no job on this lab (never submitted, or
# submitted to another lab).  A job the lab refuses is named, and its
# boot ends as an infrastructure error.
. "$(dirname "$0")/lava-lib.sh"

LAVA_URI=$(lava_uri)
server=$(redact <<<"${LAVA_URI%/RPC2}")
dirs=("$@")
if [ $# -eq 0 ]; then
	while read -r d; do
		lava_final "$d" && continue
		[ -s "$d/jobs" ] && [ "$(cat "$d/lab" 2>/dev/null)" = "$server" ] && continue
		rm -f "$d/jobs"
		dirs+=("$d")
	done < <(lava_run_dirs)
fi
[ ${#dirs[@]} -gt 0 ] || exit 0

# The artifacts are there: the lab's own check retries for ten minutes.
mapfile -t urls < <(job_urls "${dirs[@]/%//job.yaml}")
for u in "${urls[@]}"; do
	url_answers "$u" || die "the lab cannot fetch $u (ARTIFACT_URL=${ARTIFACT_URL:-}): nothing submitted"
done

step "LAVA: submit ${#dirs[@]} job(s) to $server"
out=$(lab jobs submit "${dirs[@]/%//job.yaml}") ||
	die "LAVA server $server: jobs submit failed: $out"
# One line a job, in order: its id, or "Unable to submit FILE: why".
i=0
while read -r line; do
	[ $i -lt ${#dirs[@]} ] || break
	d=${dirs[i]}
	i=$((i + 1))
	if [[ $line =~ ^[0-9]+$ ]]; then
		echo "$server" >"$d/lab"
		echo "$line" >>"$d/jobs"
		echo Submitted >"$d/state"
		note "$(lava_name "$d"): job $line"
	else
		echo "infrastructure error: the lab refused its job: ${line#Unable to submit }" |
			tee "$d/infra.txt" >&2
	fi
done <<<"$out"
[ $i -eq ${#dirs[@]} ] ||
	die "LAVA server $server answered $i line(s) for ${#dirs[@]} jobs: $out"
