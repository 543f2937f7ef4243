#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lava-lab-start: start the LAVA lab lava-lab-setup.sh set up, each daemon
# as its systemd unit would (these machines run no systemd), on 127.0.0.1
# only: PostgreSQL (unless it runs), lava-server under gunicorn
# (LAVA_LAB_PORT, default 8000), lava-publisher (the port after it, and
# ZeroMQ's 5500),
# lava-scheduler and lava-worker.  Returns once the worker is online and
# its devices idle; prints the lab's lavacli URI (LAB_DIR/uri), for
#   make run LAVA=$(cat /var/lib/rcuvet-lava-lab/uri)
# scripts/lava-lab-stop.sh stops it all again.  Root only.
. "$(dirname "$0")/lava-lab-lib.sh"

[ "$(id -u)" -eq 0 ] || die "the LAVA lab starts as root only"
{ [ -s "$LAB/uri" ] && [ -s "$LAB/worker/token" ]; } ||
	die "no LAVA lab set up in $LAB: scripts/lava-lab-setup.sh sets it up"
for port in "$LAB_PORT" "$LAB_PUBLISHER_PORT"; do
	if ! daemon_running gunicorn && ss -Hltn "sport = :$port" | grep -q .; then
		die "port $port of 127.0.0.1 is taken: LAVA_LAB_PORT=N starts the lab on N and N+1"
	fi
done

step "LAVA lab: start on $LAB_URL (logs: $LAB/log/)"
pg_start
log=$LAB/log
daemon gunicorn gunicorn3 lava_server.wsgi --log-level INFO --log-file "$log/gunicorn.log" \
	-u "$LAVA_SYS_USER" -g "$LAVA_SYS_USER" --worker-class eventlet --workers 2 \
	--bind "127.0.0.1:$LAB_PORT"
# Its ZeroMQ event socket binds every address unless told otherwise.
daemon lava-publisher env LAVA_SETTINGS_EVENT_SOCKET="tcp://127.0.0.1:$LAB_EVENT_PORT" \
	lava-server manage lava-publisher --level INFO \
	--log-file "$log/lava-publisher.log" --host 127.0.0.1 --port "$LAB_PUBLISHER_PORT"
daemon lava-scheduler lava-server manage lava-scheduler --level INFO \
	--log-file "$log/lava-scheduler.log"
daemon lava-worker lava-worker --level INFO --log-file "$log/lava-worker.log" \
	--name "$LAB_WORKER" --url "$LAB_URL/" --ws-url "http://127.0.0.1:$LAB_PUBLISHER_PORT/ws/" \
	--worker-dir "$LAB/worker" --token-file "$LAB/worker/token"

LAVA_URI=$(cat "$LAB/uri")

# alive: every daemon still runs.
alive() {
	local d

	for d in gunicorn lava-publisher lava-scheduler lava-worker; do
		daemon_running "$d" ||
			die "$d stopped at its start: $(tail -n 3 "$log/$d.log" | paste -sd' ' -) (logs: $log/)"
	done
}

# Ready: the server answers, the worker is online, its devices idle, the
# publisher listens, and every daemon still runs a few seconds later.
start=$(date +%s)
until lab workers show "$LAB_WORKER" 2>/dev/null | grep -q '^state *: Online' &&
	! lab devices list 2>/dev/null | grep '^\* ' | grep -qv 'Idle,Good' &&
	ss -Hltn "sport = :$LAB_PUBLISHER_PORT" | grep -q .; do
	alive
	[ $(($(date +%s) - start)) -lt 120 ] || die "the LAVA lab did not come up within 120 s (logs: $log/)"
	sleep 1
done
sleep 3
alive
note "lab up after $(($(date +%s) - start)) s: $(lab devices list | grep -c '^\* ') device(s) idle"
cat "$LAB/uri"
