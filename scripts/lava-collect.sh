#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lava-collect DIR: the log of the last job of the boot in store folder DIR
# (lava-lib.sh), a job the lab has finished, fetched into DIR/log.yaml and
# turned by lava-log.sh into DIR/console.log for the verdict.  Exits as
# lava-log.sh: 0 a console to judge, 3 an infrastructure error (no
# console), 2 a log that is none; 1 if the lab did not give the log.
. "$(dirname "$0")/lava-lib.sh"

dir=${1:?usage: lava-collect.sh DIR}
LAVA_URI=$(lava_uri)
job=$(tail -n 1 "$dir/jobs")
lab jobs logs --raw "$job" >"$dir/log.yaml.new" ||
	die "$(lava_name "$dir"): the log of LAVA job $job: $(tail -n 1 "$dir/log.yaml.new")"
mv "$dir/log.yaml.new" "$dir/log.yaml"
"$RCUVET_ROOT/scripts/lava-log.sh" "$dir/log.yaml" "$dir" 2>/dev/null
