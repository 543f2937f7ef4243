#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lava-check: issue 20's acceptance on a LAVA lab of this machine, into
# results/lava-check/: the lab set up (once) and started
# (scripts/lava-lab-*.sh); every job make lava-jobs writes validated by
# lava-run --validate (artifacts not built yet as empty stand-ins); the
# boots of lava-check-plan.sh run here (local/) and through the lab
# (lab/, make ... LAVA=local); then both compared: the same closing line,
# the same case results of the check plan, the control failing the same
# way.  The lab is stopped again at the end.  Root only.
. "$(dirname "$0")/lava-lib.sh"

[ "$(id -u)" -eq 0 ] || die "make lava-check sets up and starts a LAVA lab: root only"
here=$RCUVET_ROOT/scripts
out=$RESULTS/lava-check
rm -rf "$out"
mkdir -p "$out"

# took NAME CMD...: CMD, and how long it took, in out/times.tsv.
took() {
	local name=$1 start=$SECONDS rc=0

	shift
	"$@" || rc=$?
	printf '%s\t%d\n' "$name" $((SECONDS - start)) >>"$out/times.tsv"
	return $rc
}

took setup "$here/setup-lava.sh" validate
took lab-setup "$here/lava-lab-setup.sh"
took lab-start "$here/lava-lab-start.sh" >/dev/null
trap '"$here/lava-lab-stop.sh"' EXIT

step "make lava-jobs: every job through lava-run --validate"
v=$out/validate
ARTIFACT_URL=file://$v/artifacts LAVA_DIR=$v took jobs "$here/lava-jobs.sh" "$v"
mapfile -t files < <(cut -f1 "$v/jobs.tsv" | sed "s|^|$v/|")
while read -r u; do
	[ -e "${u#file://}" ] || { mkdir -p "$(dirname "${u#file://}")" && : >"${u#file://}"; }
done < <(job_urls "${files[@]}")
took validate "$here/lava-validate.sh" "$v"

step "the boots here (results/lava-check/local/)"
# Each side's failures are compared below, not fatal here.
RESULTS=$out/local FRESH=1 took local "$here/lava-check-plan.sh" | tee "$out/local.out" || true
step "the same boots on the lab (results/lava-check/lab/)"
RESULTS=$out/lab LAVA=local took lab "$here/lava.sh" "$here/lava-check-plan.sh" | tee "$out/lab.out" || true

step "here and on the lab: the same?"
differ=0
# same WHAT LOCAL LAB: say whether the two are the same.
same() {
	if [ "$2" = "$3" ]; then
		note "same $1: $2"
	else
		note "DIFFERENT $1: here '$2', on the lab '$3'"
		differ=1
	fi
}
closing() {
	grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1
}
cases() {
	cut -f2,3 "$1/debug/results.tsv" | sort | md5sum | cut -c1-12
}
same "closing line" "$(closing "$out/local.out")" "$(closing "$out/lab.out")"
same "check plan's cases (test, result; a hash)" "$(cases "$out/local")" "$(cases "$out/lab")"
same "check plan's verdict" "$(grep '^verdict' "$out/local/debug/verdict.txt")" \
	"$(grep '^verdict' "$out/lab/debug/verdict.txt")"
same "control" "$(cut -f2,3 "$out/local/debug/controls.tsv")" "$(cut -f2,3 "$out/lab/debug/controls.tsv")"
ctl=xdp-mutant/controls/ctl-xdp-devmap-nogp
same "control's failures" "$(grep '^FAIL' "$out/local/$ctl/verdict.txt" | paste -sd';' -)" \
	"$(grep '^FAIL' "$out/lab/$ctl/verdict.txt" | paste -sd';' -)"
note "the lab's jobs:"
while read -r d; do
	note "  $(lava_name "$d"): job(s) $(paste -sd, "$d/jobs")"
done < <(LAVA_DIR=$out/lab/lava lava_run_dirs)
note "seconds: $(paste -sd' ' "$out/times.tsv" | tr '\t' =)"
[ $differ -eq 0 ] || die "the boots on the lab did not come out as here"
note "1 passed, 0 failed"
