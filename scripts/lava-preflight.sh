#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lava-preflight: what a run on the LAVA lab LAVA needs, checked before
# anything is built, each failure named: lavacli, the server answering,
# its token accepted (and a token given: a job is submitted by a user),
# the device type (LAVA_DEVICE_TYPE, default qemu) there with a device,
# and ARTIFACT_URL serving LAVA_DIR/artifacts/, where the lab can reach
# it: a file of random content written there must come back through it,
# and a lab on another host cannot fetch from this host's loopback.
. "$(dirname "$0")/lava-lib.sh"

LAVA_URI=$(lava_uri)
server=${LAVA_URI%/RPC2}
server=$(redact <<<"$server")
device_type=${LAVA_DEVICE_TYPE:-qemu}
command -v lavacli >/dev/null ||
	die "no lavacli: scripts/setup-lava.sh submit installs it (Debian's lavacli)"

out=$(lab system version) || case $out in
*' 401 '* | *Unauthorized*) die "LAVA server $server rejected the token of LAVA=...: $out" ;;
*) die "LAVA server $server cannot be reached: $out" ;;
esac
who=$(lab system whoami) || die "LAVA server $server: system whoami failed: $who"
[ "$who" != '<AnonymousUser>' ] ||
	die "LAVA=$server carries no token: jobs are submitted by a user, LAVA=http://USER:TOKEN@HOST (a token of the lab's API tokens page)"
types=$(lab device-types list) || die "LAVA server $server: device-types list failed: $types"
n=$(sed -n "s/^\* $device_type (\([0-9]*\))\$/\1/p" <<<"$types")
[ -n "$n" ] ||
	die "LAVA server $server has no device type '$device_type' (LAVA_DEVICE_TYPE=name for another): it has $(sed -n 's/^\* \([^ ]*\) .*/\1/p' <<<"$types" | xargs)"
[ "$n" -gt 0 ] ||
	die "LAVA server $server: device type '$device_type' has no device to boot on"

# The artifacts: a probe through ARTIFACT_URL.
[ -n "${ARTIFACT_URL:-}" ] ||
	die "ARTIFACT_URL is not set: the URL prefix under which the lab fetches ${LAVA_DIR#"$RCUVET_ROOT"/}/artifacts/"
host=$(url_host "$LAVA_URI")
case $ARTIFACT_URL in
file://*) loopback "$host" ||
	die "ARTIFACT_URL=$ARTIFACT_URL: the lab at $host cannot read this host's files; serve ${LAVA_DIR#"$RCUVET_ROOT"/}/artifacts/ over http" ;;
*) loopback "$host" || ! loopback "$(url_host "$ARTIFACT_URL")" ||
	die "ARTIFACT_URL=$ARTIFACT_URL: the lab at $host cannot fetch from this host's loopback; serve ${LAVA_DIR#"$RCUVET_ROOT"/}/artifacts/ at an address it reaches" ;;
esac
mkdir -p "$LAVA_DIR/artifacts"
probe=.rcuvet-probe
{ od -An -tx1 -N16 /dev/urandom | tr -d ' \n' && echo; } >"$LAVA_DIR/artifacts/$probe"
got=$(/usr/bin/python3 -c 'import sys, urllib.request
print(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())' "${ARTIFACT_URL%/}/$probe" 2>&1) || got=
cmp -s <(printf '%s\n' "$got") "$LAVA_DIR/artifacts/$probe" ||
	die "ARTIFACT_URL=$ARTIFACT_URL does not serve ${LAVA_DIR#"$RCUVET_ROOT"/}/artifacts/: ${ARTIFACT_URL%/}/$probe did not bring back the file written there"
rm -f "$LAVA_DIR/artifacts/$probe"
note "LAVA lab $server: user $who, $n device(s) of type $device_type; artifacts at $ARTIFACT_URL"
