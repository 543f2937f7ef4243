#!/usr/bin/env bash
# scripts/lava.sh on bad input stops within seconds, before anything is
# built, naming it: a server that cannot be reached, a rejected token, no
# token, a device type the lab lacks, artifacts ARTIFACT_URL does not
# serve.  A stand-in lab (tests/lava/lavacli), make run's own script.
set -u
# shellcheck source=../lib/refused.sh
. "$(dirname "$0")/../lib/refused.sh"
cp -r "$(dirname "$0")/../lava" "$t/"
export PATH=$t/lava:$PATH STUB_LAVA=$t/lab
art=ARTIFACT_URL=file://$RESULTS/lava/artifacts
run=(scripts/lava.sh scripts/run.sh)
refused "LAVA server http://unreachable.invalid cannot be reached" \
	LAVA=http://unreachable.invalid "$art" "${run[@]}"
refused "LAVA server http://rcuvet:...@127.0.0.1:1 rejected the token" \
	LAVA=http://rcuvet:bad@127.0.0.1:1 "$art" "${run[@]}"
refused "LAVA=http://127.0.0.1:1 carries no token" LAVA=http://127.0.0.1:1 "$art" "${run[@]}"
refused "LAVA server http://rcuvet:...@127.0.0.1:1 has no device type 'qemu-tcg'" \
	LAVA=http://rcuvet:t@127.0.0.1:1 LAVA_DEVICE_TYPE=qemu-tcg "$art" "${run[@]}"
refused "ARTIFACT_URL=file:///nowhere does not serve " \
	LAVA=http://rcuvet:t@127.0.0.1:1 ARTIFACT_URL=file:///nowhere "${run[@]}"
refused "ARTIFACT_URL=http://127.0.0.1:8010: the lab at lab.example cannot fetch from this host's loopback" \
	LAVA=http://rcuvet:t@lab.example ARTIFACT_URL=http://127.0.0.1:8010 "${run[@]}"
true
