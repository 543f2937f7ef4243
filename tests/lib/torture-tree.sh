# shellcheck shell=bash
# Sourced by the host tests of make torture, after $t (a temporary folder)
# is set: $rcut, a copy of the 6.12 tree's tools/testing/selftests/
# rcutorture/ with its scenarios (configs/rcu/) and bin/console-badness.sh
# (tree-files.sh).  Empty when there is no tree (the test then says so).
. "$(dirname "${BASH_SOURCE[0]}")/tree-files.sh"
rcut=${t:?}/rcutorture
_src=$(tree_dir)
mkdir -p "$rcut/bin"
if [ -n "$_src" ]; then
	cp -r "$_src/tools/testing/selftests/rcutorture/configs" "$rcut/"
	cp "$_src/tools/testing/selftests/rcutorture/bin/console-badness.sh" "$rcut/bin/"
fi
[ -f "$rcut/configs/rcu/CFLIST" ] && [ -f "$rcut/bin/console-badness.sh" ] || rcut=
