#!/usr/bin/env bash
# An unknown profile is refused, listing the valid ones.
set -u
root=$(dirname "$0")/../..
err=$("$root/scripts/configure.sh" no-such-profile 2>&1) && echo "configure.sh accepted an unknown profile"
valid=$(ls "$root"/configs/profiles/*.profile | xargs -n1 basename | sed 's/\.profile$//' | xargs)
case "$err" in
*"unknown profile 'no-such-profile'; valid profiles: $valid"*) ;;
*) echo "message was: $err" ;;
esac
