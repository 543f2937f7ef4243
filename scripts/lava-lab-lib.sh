# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # the lava-lab scripts read its names
# lava-lab-lib.sh, sourced by the lava-lab-*.sh scripts: a LAVA lab on
# this machine (Debian bookworm's lava-server, lava-dispatcher, lavacli
# 2023.01), every daemon started directly (these machines run no systemd)
# and listening on 127.0.0.1 only.  Its state, outside the checkout since
# the lab is the machine's: LAVA_LAB_DIR (default /var/lib/rcuvet-lava-lab)
# holds the daemons' pid files and logs, the worker's folder and uri, the
# lab's lavacli URI with its token (for make ... LAVA=$(cat uri)).
. "$(dirname "${BASH_SOURCE[0]}")/lava-lib.sh"

LAB_PORT=${LAVA_LAB_PORT:-8000}
LAB_PUBLISHER_PORT=$((LAB_PORT + 1))
# The publisher's ZeroMQ event socket (LAVA's default port).
LAB_EVENT_PORT=5500
LAB_URL=http://127.0.0.1:$LAB_PORT
LAB_USER=rcuvet
LAB_WORKER=rcuvet-worker
LAB_DEVICE=qemu-rcuvet-01
PG_CLUSTER=(15 main)
# The lava-server daemons run as the package's system user.
LAVA_SYS_USER=lavaserver

# manage ARG...: lava-server's Django management, as its system user.
manage() {
	runuser -u "$LAVA_SYS_USER" -- lava-server manage "$@"
}

# pg_running: PostgreSQL answers.
pg_running() {
	pg_isready -q 2>/dev/null
}

# pg_start: start the PostgreSQL cluster unless it runs; a cluster the lab
# started is marked, so that lab_stop stops it and no other.
pg_start() {
	pg_running && return 0
	mkdir -p "$LAB"
	pg_ctlcluster "${PG_CLUSTER[@]}" start ||
		die "PostgreSQL ${PG_CLUSTER[*]} does not start (pg_lsclusters; its log under /var/log/postgresql/)"
	touch "$LAB/pg-started"
	local i
	for ((i = 0; i < 30; i++)); do
		pg_running && return 0
		sleep 1
	done
	die "PostgreSQL ${PG_CLUSTER[*]} started but does not answer after 30 s"
}

# pg_stop: stop PostgreSQL if the lab started it.
pg_stop() {
	[ -f "$LAB/pg-started" ] || return 0
	pg_ctlcluster "${PG_CLUSTER[@]}" stop || true
	rm -f "$LAB/pg-started"
}

# daemon NAME CMD...: start CMD in the background as daemon NAME, its
# output in LAB/log/NAME.log, its pid in LAB/pid/NAME; nothing if it runs.
daemon() {
	local name=$1

	shift
	mkdir -p "$LAB/pid"
	# lava-server's daemons drop to its system user, and reopen their logs.
	install -d -o "$LAVA_SYS_USER" -g "$LAVA_SYS_USER" "$LAB/log"
	! daemon_running "$name" || return 0
	setsid "$@" >>"$LAB/log/$name.log" 2>&1 </dev/null &
	echo $! >"$LAB/pid/$name"
}

# daemon_running NAME: the daemon NAME started by the lab still runs.
daemon_running() {
	[ -f "$LAB/pid/$1" ] && kill -0 "$(cat "$LAB/pid/$1")" 2>/dev/null
}

# daemon_stop NAME: stop daemon NAME (its process group: gunicorn's and
# the worker's children too), within 30 s, then kill it.
daemon_stop() {
	local pid i

	[ -f "$LAB/pid/$1" ] || return 0
	pid=$(cat "$LAB/pid/$1")
	kill -TERM -- "-$pid" 2>/dev/null || true
	for ((i = 0; i < 30; i++)); do
		kill -0 -- "-$pid" 2>/dev/null || break
		sleep 1
	done
	kill -KILL -- "-$pid" 2>/dev/null || true
	rm -f "$LAB/pid/$1"
}
