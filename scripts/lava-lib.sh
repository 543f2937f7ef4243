# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# lava-lib.sh, sourced by the scripts that run a run's boots on a LAVA lab
# (make run|check|controls|mutants LAVA=URI, scripts/lava.sh).  LAVA is
# lavacli's URI of the lab, http[s]://USER:TOKEN@HOST[:PORT][/RPC2], or
# "local": the lab of this machine (scripts/lava-lab-*.sh).
#
# What a run sends to the lab and gets back is kept in results/lava/,
# so that an interrupted run loses nothing and its rerun collects what
# finished:
#   boots/KEY/      one boot (KEY: its boot key, vet.sh's boot.key: the
#                   kernel, initramfs, profile, plan and boot.sh)
#     boot          profile, plan, results folder (relative to results/)
#     job.yaml      its LAVA job (lava-job.sh)
#     jobs          the lab's ids of its jobs, one a line (a job LAVA
#                   ended before the kernel started is resubmitted once)
#     lab           the lab those jobs went to (its URI without the token)
#     state         the last job's state and health, as last seen
#     log.yaml      the last job's log (lavacli jobs logs --raw)
#     console.log   its console, for the verdict (lava-log.sh) ...
#     infra.txt     ... or the infrastructure error that ended it, twice
#     lava.txt      how LAVA ended it
#   run.keys        the boots of the current run, one KEY a line
#   artifacts/      the kernels and initramfs the lab fetches (lava-job.sh)
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

LAVA_DIR=${LAVA_DIR:-$RESULTS/lava}
# The local lab's folder (lava-lab-lib.sh): its URI, with its token, in uri.
LAB=${LAVA_LAB_DIR:-/var/lib/rcuvet-lava-lab}

# lava_uri: LAVA as lavacli's URI ("local": the local lab's; /RPC2 added
# to a URL without a path).
lava_uri() {
	local uri=${LAVA:-}

	if [ "$uri" = local ]; then
		[ -r "$LAB/uri" ] ||
			die "LAVA=local: no local LAVA lab in $LAB (scripts/lava-lab-setup.sh sets it up, as root)"
		uri=$(cat "$LAB/uri")
	fi
	case $uri in
	http://?* | https://?*) ;;
	'') die "LAVA is not set: the URI of a LAVA lab, http://USER:TOKEN@HOST[:PORT] (or LAVA=local)" ;;
	*) die "LAVA=$(redact <<<"$uri"): not an http:// or https:// URI of a LAVA lab" ;;
	esac
	case ${uri#*://} in
	*/*) ;;
	*) uri=$uri/RPC2 ;;
	esac
	printf '%s\n' "${uri%/}"
}

# redact: stdin with each URI's token hidden (USER:TOKEN@ as USER:...@).
redact() {
	sed -E 's#(://[^/:@ ]+:)[^/@ ]+@#\1...@#g'
}

# url_host URL: URL's host.
url_host() {
	local h=${1#*://}

	h=${h%%/*}
	h=${h##*@}
	case $h in
	\[*) h=${h%%]*}] ;;
	*) h=${h%%:*} ;;
	esac
	printf '%s\n' "$h"
}

# loopback HOST: HOST is this machine's own (127.0.0.0/8, localhost, ::1).
loopback() {
	case $1 in
	127.* | localhost | '[::1]') return 0 ;;
	*) return 1 ;;
	esac
}

# lab ARG...: lavacli on the lab (LAVA_URI, set by lava_uri), its output
# with the token hidden, its status lavacli's.
lab() {
	local rc=0

	lavacli --uri "$LAVA_URI" "$@" 2>&1 | redact || rc=${PIPESTATUS[0]}
	return "$rc"
}

# url_answers URL: an http HEAD of URL succeeds within 10 s (file://: the
# file is readable).
url_answers() {
	case $1 in
	file://*) [ -r "${1#file://}" ] ;;
	*) /usr/bin/python3 -c 'import sys, urllib.request
urllib.request.urlopen(urllib.request.Request(sys.argv[1], method="HEAD"), timeout=10)' "$1" 2>/dev/null ;;
	esac
}

# job_urls JOB...: the artifact URLs of lava-job.sh's jobs.
job_urls() {
	sed -n "s/^        url: '\(.*\)'$/\1/p" "$@" | sort -u
}

# lava_final DIR: the boot of store folder DIR has its end: a console to
# judge or an infrastructure error.
lava_final() {
	[ -f "$1/console.log" ] || [ -f "$1/infra.txt" ]
}

# lava_run_dirs: the store folder of each boot of the current run.
lava_run_dirs() {
	[ ! -f "$LAVA_DIR/run.keys" ] || sort -u "$LAVA_DIR/run.keys" | sed "s|^|$LAVA_DIR/boots/|"
}

# lava_name DIR: how the progress lines name the boot of DIR.
lava_name() {
	local profile plan rel

	IFS=$'\t' read -r profile plan rel <"$1/boot"
	printf '%s (%s, plan %s)\n' "$rel" "$profile" "$plan"
}
