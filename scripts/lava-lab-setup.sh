#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lava-lab-setup: a LAVA lab on this machine, set up but not started
# (lava-lab-start.sh starts it): Debian bookworm's lava-server,
# lava-dispatcher and lavacli installed with apt, lava-server's database
# created (PostgreSQL started for it, and stopped again if it was not
# running), a superuser "rcuvet" with a token, the qemu device type, a
# worker and one QEMU device of it whose device dictionary sets no_kvm
# (TCG: KVM guests hang on these machines).  LAVA_LAB_DEVICES=N (default
# 1) devices on the one worker: N boots at once.  Idempotent: a second
# run changes nothing.  Root only.
. "$(dirname "$0")/lava-lab-lib.sh"

[ "$(id -u)" -eq 0 ] || die "the LAVA lab is set up as root only (apt, PostgreSQL, /etc/lava-server)"
devices=${LAVA_LAB_DEVICES:-1}
case $devices in
[1-9] | [1-9][0-9]) ;;
*) die "LAVA_LAB_DEVICES=$devices: not a number of devices (1-99)" ;;
esac

# PostgreSQL first: lava-server's postinst creates its database only if
# PostgreSQL runs ("Skipping database creation as PostgreSQL is not
# running" otherwise).
apt_install "the LAVA lab's database" postgresql
pg_start
trap pg_stop EXIT
apt_install "a LAVA lab on this machine" lava-server lava-dispatcher lavacli
if ! runuser -u postgres -- psql -tAc "SELECT 1 FROM pg_database WHERE datname = 'lavaserver'" |
	grep -q 1; then
	step "lava-server's database (installed while PostgreSQL was down)"
	python3 /usr/share/lava-server/postinst.py --db >"$LAB/postinst.log" 2>&1 ||
		{ tail -5 "$LAB/postinst.log" >&2; die "lava-server's postinst.py --db failed (log: $LAB/postinst.log)"; }
fi

# listed KIND NAME: lava-server manage KIND list names NAME ("* NAME ...").
listed() {
	manage "$1" list | grep -qE "^\* $2( |\$)"
}

step "LAVA lab: user $LAB_USER, device type qemu, worker $LAB_WORKER, $devices device(s)"
# The lab's folder is open (its logs are lava-server's), its tokens not.
mkdir -p "$LAB"
chmod 755 "$LAB"
umask 077
# The superuser whose token lavacli submits with.
listed users "$LAB_USER" || manage users add --superuser --staff "$LAB_USER" >/dev/null
[ -s "$LAB/token" ] || od -An -tx1 -N32 /dev/urandom | tr -d ' \n' >"$LAB/token"
if ! manage tokens list --user "$LAB_USER" --csv | grep -qF "$(cat "$LAB/token")"; then
	manage tokens add --user "$LAB_USER" --description rcuvet --secret "$(cat "$LAB/token")" >/dev/null
fi
printf 'http://%s:%s@127.0.0.1:%s/RPC2\n' "$LAB_USER" "$(cat "$LAB/token")" "$LAB_PORT" >"$LAB/uri"

listed device-types qemu || manage device-types add qemu >/dev/null
listed workers "$LAB_WORKER" ||
	manage workers add --description "rcuvet's local lab" "$LAB_WORKER" >/dev/null
# The worker's token, for lava-worker --token-file.
mkdir -p "$LAB/worker"
manage shell -c "from lava_scheduler_app.models import Worker
print(Worker.objects.get(hostname='$LAB_WORKER').token)" >"$LAB/worker/token"

dicts=/etc/lava-server/dispatcher-config/devices
for ((i = 1; i <= devices; i++)); do
	name=${LAB_DEVICE%01}$(printf '%02d' "$i")
	cat >"$dicts/$name.jinja2" <<'EOF'
{# rcuvet's local lab (scripts/lava-lab-setup.sh): TCG only, no KVM. #}
{% extends 'qemu.jinja2' %}
{% set no_kvm = True %}
EOF
	chown "$LAVA_SYS_USER:$LAVA_SYS_USER" "$dicts/$name.jinja2"
	listed devices "$name" ||
		manage devices add --device-type qemu --worker "$LAB_WORKER" \
			--description "rcuvet's QEMU device (TCG)" "$name" >/dev/null
	manage devices update --health GOOD "$name" >/dev/null
done
note "lab set up: $devices device(s) of type qemu on worker $LAB_WORKER; scripts/lava-lab-start.sh starts it"
