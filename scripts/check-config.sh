#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# check-config.sh TREE CONFIG FRAGMENT...: fail, naming each option, when
# an option a fragment asks for did not survive olddefconfig (an unmet
# dependency drops it silently: tinyconfig's SLUB_TINY=y drops KASAN).
set -euo pipefail

tree=$1 config=$2
shift 2
bad=0

# kconfig_deps OPTION: where the option is defined and what it needs.
kconfig_deps() {
	grep -rn --include='Kconfig*' -A12 -E "^(menu)?config $1\$" "$tree" 2>/dev/null |
		grep -E 'Kconfig[^:]*[:-][0-9]+[:-](menu)?config |depends on' |
		sed -e "s|^$tree/||" -e 's/^/        /' | head -8
}

for frag in "$@"; do
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*)
			opt=${line%%=*}
			got=$(grep -E "^$opt=" "$config" || true)
			[ "$got" = "$line" ] && continue
			printf 'config: %s asks %s, final .config has %s\n' \
				"$(basename "$frag")" "$line" "${got:-"$opt not set"}" >&2
			;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }
			opt=${opt%% *}
			got=$(grep -E "^$opt=" "$config" || true)
			[ -z "$got" ] && continue
			printf 'config: %s asks %s not set, final .config has %s\n' \
				"$(basename "$frag")" "$opt" "$got" >&2
			;;
		*)
			continue
			;;
		esac
		kconfig_deps "${opt#CONFIG_}" >&2 || true
		bad=$((bad + 1))
	done <"$frag"
done

if [ "$bad" -ne 0 ]; then
	printf 'rcuvet: error: %d requested option(s) did not stick in %s; fix the fragments or their dependencies\n' \
		"$bad" "$config" >&2
	exit 1
fi
