#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lava-lab-stop: stop what lava-lab-start.sh started, the worker first
# (a job it runs ends Incomplete), then the scheduler, publisher, server,
# and PostgreSQL if the lab started it.  The lab's database, user, token
# and devices stay for its next start.  A no-op when nothing runs.
. "$(dirname "$0")/lava-lab-lib.sh"

for d in lava-worker lava-scheduler lava-publisher gunicorn; do
	daemon_stop "$d"
done
pg_stop
note "LAVA lab stopped"
