# shellcheck shell=bash
# Sourced by the host tests of make torture, after $t (a temporary folder)
# is set: $rcut, a copy of the 6.12 tree's tools/testing/selftests/
# rcutorture/ with its scenarios (configs/rcu/) and bin/console-badness.sh,
# from the extracted pristine tree or else from Debian's tarball.  Empty
# when neither is there (the test then says so).
rcut=${t:?}/rcutorture
_sub=tools/testing/selftests/rcutorture
# shellcheck disable=SC2016 # expanded by the shell that sourced lib.sh
_pristine=$(env -u RCUVET_TREE -u KSRC TREE=6.12 bash -c '. "$1"; echo "$PRISTINE"' sh \
	"$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh")
mkdir -p "$rcut/bin"
if [ -d "$_pristine/$_sub/configs/rcu" ]; then
	cp -r "$_pristine/$_sub/configs" "$rcut/"
	cp "$_pristine/$_sub/bin/console-badness.sh" "$rcut/bin/"
elif [ -f /usr/src/linux-source-6.12.tar.xz ]; then
	tar -xJf /usr/src/linux-source-6.12.tar.xz -C "$t" --strip-components=1 --wildcards \
		"linux-source-6.12/$_sub/configs/rcu/*" "linux-source-6.12/$_sub/bin/console-badness.sh" &&
		cp -r "$t/$_sub/configs" "$t/$_sub/bin" "$rcut/"
fi
[ -f "$rcut/configs/rcu/CFLIST" ] && [ -f "$rcut/bin/console-badness.sh" ] || rcut=
