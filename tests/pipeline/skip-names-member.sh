#!/usr/bin/env bash
# Every skip for an absent API member (rcuvet_need(test, NAME, "member...")
# or a row's RCUVET_ABSENT(NAME, "member...")) names a member that the
# tree's coverage table can count it for: NAME is a probe of
# scripts/tree-api.sh, the member one of that probe's members (or, for a
# probe that decides none, of another probe), and a row of
# docs/api-members.tsv.  Else a tree's skips would land in no row.
set -u
root=$(dirname "$0")/../..
probes=$(sed -n "/^done <<'EOF'$/,/^EOF$/p" "$root/scripts/tree-api.sh" |
	awk -F'\t' 'NF >= 4 && $1 !~ /^#/ { print $1 "\t" $2 }')
[ -n "$probes" ] || echo "no probe table found in scripts/tree-api.sh"
members=$(grep -v '^#' "$root/docs/api-members.tsv" | cut -f1)
n=0
while IFS=$'\t' read -r file name member; do
	n=$((n + 1))
	m=$(grep -oE '^[A-Za-z_][A-Za-z0-9_]*' <<<"$member")
	own=$(awk -F'\t' -v p="$name" '$1 == p { print $2 }' <<<"$probes")
	if [ -z "$own" ]; then
		echo "$file: $name is no probe of tree-api.sh"
		continue
	fi
	if [ "$own" = - ]; then
		own=$(cut -f2 <<<"$probes" | paste -sd, -)
	fi
	case ",$own," in
	*",$m,"*) ;;
	*) echo "$file: $name's skip names $m, which no probe decides" ;;
	esac
	grep -qxF -- "$m" <<<"$members" || echo "$file: $m is not in docs/api-members.tsv"
done < <(for f in "$root"/kernel/modules/*/*.c; do
	b=${f##*/}
	tr '\n\t' '  ' <"$f" |
		grep -oE '(rcuvet_need\( *test, *|RCUVET_ABSENT\( *)[A-Z0-9_]+, *"[^"]*"' |
		sed -E "s|^[^(]*\\( *(test, *)?([A-Z0-9_]+), *\"([^\"]*)\"|$b\t\\2\t\\3|"
done)
[ "$n" -ge 8 ] || echo "only $n skips found in kernel/modules: the pattern no longer matches"
true
