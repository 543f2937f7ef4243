#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lava-wait: follow the jobs of the run's boots on the lab LAVA until every
# boot has its end (lava-lib.sh): a line for each job that changes state
# (queued: Submitted, Scheduling, Scheduled; running; done: Finished, and
# its health), the counts whenever they change, and each finished job's
# log collected (lava-collect.sh).  A job LAVA ended before the kernel
# started (an infrastructure error: no console) is submitted once more;
# a second one is the boot's end, as an infrastructure error, never a
# pass or a failure.  LAVA_POLL: seconds between two looks (default 15).
# Interrupted, it loses nothing: a rerun goes on where it stopped.
. "$(dirname "$0")/lava-lib.sh"

LAVA_URI=$(lava_uri)
server=$(redact <<<"${LAVA_URI%/RPC2}")
poll=${LAVA_POLL:-15}
mapfile -t dirs < <(lava_run_dirs)

# collect DIR JOB: the finished JOB's log; its boot ends, or is submitted
# again after a first infrastructure error.
collect() {
	local rc=0 why

	"$RCUVET_ROOT/scripts/lava-collect.sh" "$1" || rc=$?
	case $rc in
	0)
		note "$(lava_name "$1"): job $2: console collected ($(cat "$1/lava.txt"))"
		return
		;;
	3) why=$(cat "$1/lava.txt") ;;
	2) why="infrastructure error: job $2's log is not a LAVA job log" ;;
	*) exit 1 ;;
	esac
	if [ "$(wc -l <"$1/jobs")" -lt 2 ]; then
		note "$(lava_name "$1"): job $2: $why; submitting it again"
		"$RCUVET_ROOT/scripts/lava-submit.sh" "$1"
	else
		note "$(lava_name "$1"): job $2: $why, a second time: an infrastructure error"
		echo "$why" >"$1/infra.txt"
	fi
}

step "LAVA: ${#dirs[@]} boot(s) on $server (a look every ${poll} s)"
last=
while :; do
	queued=0 running=0 done=0
	for d in "${dirs[@]}"; do
		if lava_final "$d"; then
			done=$((done + 1))
			continue
		fi
		[ -s "$d/jobs" ] || die "$(lava_name "$d"): never submitted (run again to submit it)"
		job=$(tail -n 1 "$d/jobs")
		show=$(lab jobs show "$job") ||
			die "LAVA server $server: jobs show $job: $show (run again to go on collecting)"
		state=$(sed -n 's/^state *: //p' <<<"$show")
		health=$(sed -n 's/^Health *: //p' <<<"$show")
		now=$state
		[ "$state" != Finished ] || now="$state, $health"
		if [ "$now" != "$(cat "$d/state" 2>/dev/null)" ]; then
			echo "$now" >"$d/state"
			[ "$state" = Finished ] || note "$(lava_name "$d"): job $job: $now"
		fi
		case $state in
		Finished)
			collect "$d" "$job"
			if lava_final "$d"; then
				done=$((done + 1))
			else
				queued=$((queued + 1))
			fi
			;;
		Running | Canceling) running=$((running + 1)) ;;
		*) queued=$((queued + 1)) ;;
		esac
	done
	counts="$queued queued, $running running, $done done"
	[ "$counts" = "$last" ] || step "LAVA: $counts"
	last=$counts
	[ $((queued + running)) -gt 0 ] || break
	sleep "$poll"
done
