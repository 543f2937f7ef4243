# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the rcuvet host pipeline; sourced, never run.

set -euo pipefail

RCUVET_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$RCUVET_ROOT/build}
RESULTS=${RESULTS:-$RCUVET_ROOT/results}
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/rcuvet/ccache}
JOBS=${JOBS:-$(nproc)}

# Trees and kernel builds live under KBUILD_ROOT; modules, guest programs
# and initramfs under BUILD.  They are the same folder unless
# RCUVET_KERNEL_BUILD points at another checkout's build/, so that a second
# work tree can reuse its kernels (and must not change their configs).
KBUILD_ROOT=${RCUVET_KERNEL_BUILD:-$BUILD}

# Guests boot one at a time machine-wide: the lock stays with the shared
# kernels, whatever a profile builds where (see mutant profiles below);
# RCUVET_BOOT_LOCK names it when a checkout boots kernels of its own.
BOOT_LOCK=${RCUVET_BOOT_LOCK:-$KBUILD_ROOT/boot.lock}

# The tree to build: a Debian linux-source package, TREE=6.12 (the
# default) or TREE=6.1 (Debian 12's kernel series), with its patch series
# applied, or the user's own tree (KSRC=), patched only with PATCHES=1.
# The scripts use TREE for the tree's folder (below): the name given on
# the command line is kept, for them and the scripts they run, in
# RCUVET_TREE.  TREE_NAME names the tree in results/<TREE_NAME>/.
# KSRC's own version (its Makefile) names its tree: a 6.1 tree takes 6.1's
# series (PATCHES=1) and configuration additions (fragment_files), any
# other 6.12's; TREE= naming the other one of those two is refused.
RCUVET_TREE=${RCUVET_TREE:-${TREE:-}}
if [ -n "${KSRC:-}" ]; then
	[ -f "$KSRC/Makefile" ] && [ -d "$KSRC/kernel/rcu" ] ||
		{ echo "rcuvet: error: KSRC=$KSRC is not a Linux source tree" >&2; exit 1; }
	KSRC=$(realpath "$KSRC")
	KSRC_VERSION=$(sed -n 's/^VERSION = \([0-9]*\)$/\1/p; s/^PATCHLEVEL = \([0-9]*\)$/\1/p' \
		"$KSRC/Makefile" | paste -sd.)
	case $KSRC_VERSION in
	6.1 | 6.12)
		[ -z "$RCUVET_TREE" ] || [ "$RCUVET_TREE" = "$KSRC_VERSION" ] || {
			echo "rcuvet: error: KSRC=$KSRC is a $KSRC_VERSION tree (its Makefile), TREE=$RCUVET_TREE another: leave TREE= out, the tree's version picks its patch series and configuration" >&2
			exit 1
		}
		RCUVET_TREE=$KSRC_VERSION
		;;
	esac
fi
RCUVET_TREE=${RCUVET_TREE:-6.12}
export RCUVET_TREE
case $RCUVET_TREE in
6.12)
	TREE_TAG=debian
	PRISTINE=$KBUILD_ROOT/tree/pristine
	SERIES=${RCUVET_SERIES:-$RCUVET_ROOT/kernel/patches/series}
	;;
6.1)
	TREE_TAG=debian-6.1
	PRISTINE=$KBUILD_ROOT/tree/pristine-6.1
	# The 6.1 versions of the patches, kernel/patches/6.1/*.patch.
	SERIES=${RCUVET_SERIES:-$RCUVET_ROOT/kernel/patches/series-6.1}
	;;
*)
	echo "rcuvet: error: TREE=$RCUVET_TREE: trees are 6.12 (the default) and 6.1, or KSRC=/path/to/linux" >&2
	exit 1
	;;
esac
DEBIAN_TARBALL=/usr/src/linux-source-$RCUVET_TREE.tar.xz
TREE_NAME=$RCUVET_TREE
if [ -n "${KSRC:-}" ]; then
	TREE_TAG=ksrc-$(printf '%s' "$KSRC" | sha1sum | cut -c1-8)
	TREE_NAME=$TREE_TAG
	if [ "${PATCHES:-0}" = 1 ]; then
		TREE=$KBUILD_ROOT/tree/$TREE_TAG
	else
		TREE=$KSRC
	fi
else
	TREE=$KBUILD_ROOT/tree/$TREE_TAG
fi
# Identity of the tree's content (source + applied series), for stamps.
TREE_ID=$KBUILD_ROOT/tree/$TREE_TAG.id
# What load_profile starts from for every profile (a mutant changes them).
SHARED_KBUILD_ROOT=$KBUILD_ROOT SHARED_TREE=$TREE SHARED_TREE_ID=$TREE_ID
# Paths under the build folder hash relative: checkouts share cache hits.
export CCACHE_BASEDIR=$KBUILD_ROOT
# Depend mode: on a miss ccache records the headers from the compiler's own
# -MMD output instead of running the preprocessor first, which made a cold
# kernel cost 44 % more CPU than plain gcc (README, "Time").  Hits are
# direct-mode hits, as before.
export CCACHE_DEPEND=1

_rcuvet_t0=${_rcuvet_t0:-$(date +%s)}
export _rcuvet_t0

elapsed() {
	local s=$(($(date +%s) - _rcuvet_t0))

	printf '%d:%02d' $((s / 60)) $((s % 60))
}

# step NAME...: announce a pipeline step with the run's elapsed time.
step() {
	printf '==> [%s] %s\n' "$(elapsed)" "$*"
}

note() {
	printf '    %s\n' "$*"
}

# die MESSAGE: stop with status 1 (DIE_STATUS, if a script sets another).
die() {
	printf 'rcuvet: error: %s\n' "$*" >&2
	exit "${DIE_STATUS:-1}"
}

# apt_install WHAT PACKAGE...: install those of the Debian packages that
# are missing (apt-get, no recommends), WHAT saying what they are for; a
# no-op when all are installed.  Needs root to install.
apt_install() {
	local what=$1 p log
	local -a missing=()

	shift
	for p; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$(id -u)" -eq 0 ] ||
		die "missing packages: ${missing[*]}; run as root, or: sudo apt-get install --no-install-recommends ${missing[*]}"
	step "install ${missing[*]} ($what)"
	log=$(mktemp)
	if ! DEBIAN_FRONTEND=noninteractive apt-get update >"$log" 2>&1; then
		tail -5 "$log" >&2
		rm -f "$log"
		die "apt-get update failed (network or sources.list?)"
	fi
	if ! DEBIAN_FRONTEND=noninteractive apt-get install -y \
		--no-install-recommends "${missing[@]}" >"$log" 2>&1; then
		tail -15 "$log" >&2
		rm -f "$log"
		die "apt-get install ${missing[*]} failed"
	fi
	rm -f "$log"
}

# hash_of FILE...: one short hash over the base names and contents of
# files (not their folders: work trees sharing kernels agree on it).
hash_of() {
	local f

	for f in "$@"; do
		basename "$f"
		cat "$f"
	done | sha1sum | cut -c1-16
}

# plan_files PLAN: the file of each plan a boot runs (PLAN is NAME or
# NAME+NAME...: several plans one after the other, as controls share boots).
plan_files() {
	local name f

	for name in ${1//+/ }; do
		f=$RCUVET_ROOT/configs/plans/$name.plan
		# A plan written for one boot (make torture's) lives under build/.
		[ -f "$f" ] || [ ! -f "$BUILD/plans/$name.plan" ] || f=$BUILD/plans/$name.plan
		[ -f "$f" ] ||
			die "unknown plan '$name'; plans: $(basename -s .plan "$RCUVET_ROOT"/configs/plans/*.plan | xargs)"
		printf '%s\n' "$f"
	done
}

# What make check boots (check.sh; lava-jobs.sh writes a LAVA job for
# each): the check plan (PLAN, default check) on every profile of PROFILES,
# and the control plans on CONTROLS_PROFILE (default: the first profile);
# then each TREE:PROFILE of CHECK_TREES with that tree's plan, check-TREE
# (a bare TREE boots the first profile; "none": no other tree; empty is
# the default, as make exports an unset variable empty).  By default 6.12
# on debug and debug-rt, and Debian 12's 6.1 on nopreempt: each tree and
# each preemption model once within the budget (README, "Time").  Only
# the default tree boots other trees: with KSRC= or TREE=, the profiles
# are debug, nopreempt and debug-rt, each preemption model on that tree.
# CHECK_TREES is read, never changed: a script that a script runs sees
# what the user gave.
if [ -z "${KSRC:-}" ] && [ "$RCUVET_TREE" = 6.12 ]; then
	CHECK_OTHER_TREES=${CHECK_TREES:-6.1:nopreempt}
	# shellcheck disable=SC2034 # check.sh and lava-jobs.sh read it
	CHECK_PROFILES=${PROFILES:-debug debug-rt}
else
	CHECK_OTHER_TREES=none
	# shellcheck disable=SC2034 # check.sh and lava-jobs.sh read it
	CHECK_PROFILES=${PROFILES:-debug nopreempt debug-rt}
fi

# check_tree_runs FIRST NAME: the runs of CHECK_TREES into the array NAME,
# each "TREE PROFILE", FIRST for a TREE without a profile; a run that
# cannot be is refused, named.
check_tree_runs() {
	local spec t p seen=' ' specs
	local -n runs_out=$2

	runs_out=()
	read -ra specs <<<"$CHECK_OTHER_TREES"
	[ "${specs[*]}" != none ] || return 0
	for spec in "${specs[@]}"; do
		t=${spec%%:*} p=$1
		[ "$spec" = "$t" ] || p=${spec#*:}
		[ "$t" = 6.1 ] ||
			die "CHECK_TREES: '$spec': the other tree make check boots is 6.1 (6.12 boots PROFILES); or none"
		[ -n "$p" ] || die "CHECK_TREES: '$spec': no profile after ':'"
		[[ $seen != *" $t:$p "* ]] || die "CHECK_TREES: '$spec' twice"
		seen+="$t:$p "
		runs_out+=("$t $p")
	done
}

# validate_tree_runs "TREE PROFILE"...: validate.sh on each run of
# check_tree_runs, with its tree's plan, before the first slow step.
validate_tree_runs() {
	local r t p

	for r; do
		read -r t p <<<"$r"
		RCUVET_TREE=$t "$RCUVET_ROOT/scripts/validate.sh" -p "$p" -P "check-$t"
	done
}

# control_plans: every control plan, configs/plans/ctl-*.plan, by name.
control_plans() {
	basename -s .plan "$RCUVET_ROOT"/configs/plans/ctl-*.plan
}

# The boot cache (make check only, RCUVET_BOOT_CACHE=1): the console of a
# boot whose run came out as its caller wanted (a plan passed, a control
# held), kept under the hash of all the boot depends on, so that a check
# with nothing changed judges that console again instead of booting.  As
# go test reuses a cached pass; FRESH=1 boots anyway, make repeat always.
BOOT_CACHE=$BUILD/boot-cache

# profile_sources FILE: FILE and the profiles it sources, a line each
# (". ${BASH_SOURCE[0]%/*}/NAME.profile": perf-full-emulate), theirs too.
profile_sources() {
	local f

	printf '%s\n' "$1"
	for f in $(sed -n 's|^\. .*/\([A-Za-z0-9_.-]*\.profile\)"\{0,1\}$|\1|p' "$1"); do
		profile_sources "$(dirname "$1")/$f"
	done
}

# plan_steps FILE: what the guest reads of a plan: its lines but the
# host's ("control: ...", "boot-timeout: ..."), comments and blank lines.
plan_steps() {
	grep -vE '^[a-z-]+:|^[[:space:]]*(#|$)' "$1" || true
}

# plan_key_text FILE: what of a plan makes its boot what it is: its lines
# but comments and blank lines (the host's lines too: a boot limit, say).
plan_key_text() {
	grep -vE '^[[:space:]]*(#|$)' "$1" || true
}

# host_tests_key: the hash of what the host tests read: the checkout's
# files but those git ignores (build/, results/, dev-*.plan) and the
# versions of the installed packages; nothing if the checkout is no git
# work tree.
host_tests_key() {
	local files

	files=$(cd "$RCUVET_ROOT" && git ls-files -co --exclude-standard 2>/dev/null) || return 0
	[ -n "$files" ] || return 0
	{
		# A file deleted but still tracked: its error, in the hash.
		(cd "$RCUVET_ROOT" && printf '%s\n' "$files" | xargs -d '\n' sha1sum 2>&1) || true
		dpkg-query -W -f '${Package} ${Version}\n' || true
	} | sha1sum | cut -c1-16
}

# boot_key PLAN: the hash of the kernel, the initramfs but its plans
# (initramfs.sh), the profile (the files it is made of), the boot script
# and the plans of the loaded profile's boot of PLAN, comments aside.
boot_key() {
	local plans profiles f

	mapfile -t plans < <(plan_files "$1")
	mapfile -t profiles < <(profile_sources "$(profile_file "$PROFILE")")
	{
		hash_of "$KOBJ/arch/x86/boot/bzImage" "$OBJ/initramfs-base.cpio" \
			"${profiles[@]}" "$RCUVET_ROOT/scripts/boot.sh"
		for f in "${plans[@]}"; do
			basename "$f"
			plan_key_text "$f"
		done
	} | sha1sum | cut -c1-16
}

# boot_cache_dir OUTDIR: where the console of OUTDIR's boot is kept.
boot_cache_dir() {
	printf '%s/%s\n' "$BOOT_CACHE" "$(cat "$1/boot.key")"
}

# boot_cached OUTDIR: the console of OUTDIR's boot, if cached and wanted.
boot_cached() {
	local dir

	dir=$(boot_cache_dir "$1")

	[ "${RCUVET_BOOT_CACHE:-0}" = 1 ] && [ -z "${FRESH:-}" ] &&
		[ -f "$dir/console.log" ] && printf '%s\n' "$dir"
}

# boot_cache_keep OUTDIR: keep OUTDIR's console for its boot's inputs.
boot_cache_keep() {
	local dir

	[ "${RCUVET_BOOT_CACHE:-0}" = 1 ] || return 0
	dir=$(boot_cache_dir "$1")
	mkdir -p "$dir"
	cp "$1/console.log" "$dir/"
	[ ! -f "$1/boot.txt" ] || cp "$1/boot.txt" "$dir/"
}

# borrowed_kernel: true when the kernels belong to another checkout, which
# alone configures and builds them.  A mutant profile's kernel never is.
borrowed_kernel() {
	[ -z "${MUTANT_OF:-}" ] && [ "$KBUILD_ROOT" != "$BUILD" ]
}

# profile_file NAME: configs/profiles/NAME.profile, or the one make
# mutants wrote for a kernel mutant (build/profiles/mutant-*.profile).
profile_file() {
	local f=$RCUVET_ROOT/configs/profiles/$1.profile

	[ -f "$f" ] || [ ! -f "$BUILD/profiles/$1.profile" ] || f=$BUILD/profiles/$1.profile
	printf '%s' "$f"
}

list_profiles() {
	local f

	for f in "$RCUVET_ROOT"/configs/profiles/*.profile; do
		basename "$f" .profile
	done
}

# load_profile NAME: set PROFILE, FRAGMENTS, CMDLINE, QEMU_* (QEMU_ICOUNT:
# boot.sh's icount_machine), SUITES (all:
# our suites of kernel/modules are built for its kernel; none: its guests
# load only the tree's modules, make torture's scenarios), KOBJ (the
# kernel's O= folder), OBJ (modules, initramfs) and OUT (results).  A
# profile with KERNEL_OF=OTHER boots OTHER's kernel (with its fragments)
# under its own command line, QEMU settings and plans: no second build.
# A mutant profile (MUTANT_OF=OTHER, MUTANT_PATCHES="mutants/x.patch ...")
# is OTHER's kernel with deliberately broken patches on top, for negative
# controls.  Its tree, a hard-linked copy of OTHER's with the mutant
# patches applied, and its kernel, a copy of OTHER's objects, live in
# build/mutants/NAME/ (never borrowed, never shared); it builds where
# OTHER's tree and objects show its own (in_base_paths), so that make
# recompiles only the files the mutant patches change.  A mutant of
# MUTANT_SCOPE=modules changes only headers under include/ that our test
# modules inline (rculist.h, list.h, ...): its kernel is OTHER's, built
# objects and image as they are (KOBJ is OTHER's, never rebuilt, never
# written), and only the suites of kernel/modules are compiled against
# its tree (build-modules.sh).  MUTANT_SCOPE=kernel (the default) builds
# a kernel of its own.  API_TREE (and API_TREE_ID) is the tree whose API
# the suites expect: a mutant's is its base's, so that a mutant that
# removes a feature fails the cases that test it instead of having them
# skipped as absent from the tree.
load_profile() {
	local f kernel_of

	PROFILE=$1
	f=$(profile_file "$PROFILE")
	[ -f "$f" ] || die "unknown profile '$PROFILE'; valid profiles: $(list_profiles | xargs)"
	DESCRIPTION= FRAGMENTS= CMDLINE= KERNEL_OF= MUTANT_OF= MUTANT_PATCHES=
	MUTANT_SCOPE= SUITES=all
	QEMU_SMP=2 QEMU_MEM=2G BOOT_TIMEOUT=900 QEMU_ICOUNT=
	KBUILD_ROOT=$SHARED_KBUILD_ROOT TREE=$SHARED_TREE TREE_ID=$SHARED_TREE_ID
	API_TREE=$TREE API_TREE_ID=$TREE_ID
	# shellcheck source=/dev/null
	. "$f"
	if [ -n "$KERNEL_OF" ]; then
		kernel_of=$KERNEL_OF
		[ -f "$(profile_file "$kernel_of")" ] ||
			die "profile '$PROFILE' boots the kernel of unknown profile '$kernel_of'"
		FRAGMENTS=$(. "$(profile_file "$kernel_of")" && echo "$FRAGMENTS")
		KERNEL_OF=$kernel_of
	fi
	if [ -n "$MUTANT_OF" ]; then
		[ -z "$KERNEL_OF" ] || die "profile '$PROFILE' sets both KERNEL_OF and MUTANT_OF"
		[ -f "$(profile_file "$MUTANT_OF")" ] ||
			die "profile '$PROFILE' mutates unknown profile '$MUTANT_OF'"
		FRAGMENTS=$(. "$(profile_file "$MUTANT_OF")" && echo "$FRAGMENTS")
		BASE_TREE=$TREE
		BASE_KOBJ=$KBUILD_ROOT/$TREE_TAG/$MUTANT_OF/kernel
		MUTANT_SCOPE=${MUTANT_SCOPE:-kernel}
		case $MUTANT_SCOPE in
		kernel | modules) ;;
		*) die "profile '$PROFILE': MUTANT_SCOPE is '$MUTANT_SCOPE', not kernel (the mutant builds its kernel) or modules (only our test modules are built against its headers)" ;;
		esac
		KBUILD_ROOT=$BUILD/mutants/$PROFILE
		TREE=$KBUILD_ROOT/tree
		TREE_ID=$KBUILD_ROOT/tree.id
		KOBJ=$KBUILD_ROOT/kernel
		[ "$MUTANT_SCOPE" = kernel ] || KOBJ=$BASE_KOBJ
	else
		[ -z "$MUTANT_SCOPE" ] ||
			die "profile '$PROFILE' sets MUTANT_SCOPE but mutates no profile (MUTANT_OF)"
		KOBJ=$KBUILD_ROOT/$TREE_TAG/${KERNEL_OF:-$PROFILE}/kernel
	fi
	OBJ=$BUILD/$TREE_TAG/$PROFILE
	OUT=$RESULTS/$PROFILE
}

# tree_has_option NAME: the tree to build defines Kconfig option NAME
# (without CONFIG_), as far as can be told before it is extracted: KSRC's
# own Kconfig files, or a patch of the series adding "config NAME" (a
# Debian tree, or KSRC with PATCHES=1).  For the options our patches add;
# an option of the packaged tree itself is not seen.
tree_has_option() {
	local -a patches

	if [ -n "${KSRC:-}" ] &&
		grep -rqsx --include='Kconfig*' "config $1" "$KSRC/kernel" "$KSRC/arch/x86" "$KSRC/lib"; then
		return 0
	fi
	[ -z "${KSRC:-}" ] || [ "${PATCHES:-0}" = 1 ] || return 1
	mapfile -t patches < <(series_patches)
	[ ${#patches[@]} -gt 0 ] && grep -qsx "[+ ]config $1" "${patches[@]}"
}

# fragment_needs FILE: the option a fragment asks only of a tree that has
# it, from its line "# rcuvet-needs: CONFIG_NAME" (NAME printed), if any.
fragment_needs() {
	sed -n 's/^# rcuvet-needs: CONFIG_\([A-Za-z0-9_]*\).*/\1/p' "$1" | head -1
}

# fragment_left_out FRAG: the fragment needs an option the tree lacks
# (fragment_needs, tree_has_option): the profile is built without it.
fragment_left_out() {
	local need

	need=$(fragment_needs "$RCUVET_ROOT/configs/fragments/$1.config")
	[ -n "$need" ] && ! tree_has_option "$need"
}

# fragments_used [LEFT]: the loaded profile's fragments that its build
# merges: FRAGMENTS without those the tree lacks the option for
# (fragment_left_out); with LEFT=left, those left out instead.
fragments_used() {
	local frag used='' left=''

	for frag in $FRAGMENTS; do
		if [[ $frag != /* ]] && fragment_left_out "$frag"; then
			left+="${left:+ }$frag"
		else
			used+="${used:+ }$frag"
		fi
	done
	if [ "${1:-}" = left ]; then
		printf '%s\n' "$left"
	else
		printf '%s\n' "$used"
	fi
}

# torture_name SCENARIO: make torture's name for the scenario's kernel,
# profile (torture-NAME), plan and results: SCENARIO, with
# TORTURE_EMULATE=4.19 SCENARIO-emulate-4.19 (docs/torture.md).
torture_name() {
	printf '%s%s\n' "$1" "${TORTURE_EMULATE:+-emulate-$TORTURE_EMULATE}"
}

# fragment_files: the loaded profile's fragments, each followed by the
# tree's own addition to it, configs/fragments/TREE/NAME.config (TREE as
# RCUVET_TREE: TREE=, or KSRC's version), where the tree needs more to
# give what the fragment asks (6.1's tinyconfig picks an allocator KASAN
# cannot use).  None for 6.12, the tree the fragments are written for.
# Merged after the fragment and checked like it (check-config.sh).  A
# fragment that needs an option the tree lacks (fragment_left_out: the
# inlined reader of our patch 0007 on TREE=6.1; on an unpatched KSRC also
# the emulation of 0001 and the reliance report of 0002) is left out.  A
# fragment named by its absolute path is a file written for one profile
# (make torture's scenarios).
fragment_files() {
	local frag left

	left=$(fragments_used left)
	for frag in $FRAGMENTS; do
		if [[ $frag == /* ]]; then
			[ -f "$frag" ] ||
				die "profile '$PROFILE' names fragment $frag, which does not exist"
			printf '%s\n' "$frag"
			continue
		fi
		[ -f "$RCUVET_ROOT/configs/fragments/$frag.config" ] ||
			die "profile '$PROFILE' names fragment '$frag', but configs/fragments/$frag.config does not exist"
		[[ " $left " != *" $frag "* ]] || continue
		printf '%s\n' "$RCUVET_ROOT/configs/fragments/$frag.config"
		[ ! -f "$RCUVET_ROOT/configs/fragments/$RCUVET_TREE/$frag.config" ] ||
			printf '%s\n' "$RCUVET_ROOT/configs/fragments/$RCUVET_TREE/$frag.config"
	done
}

# series_patches: the patch files of the series, in order (quilt order,
# -p1 only).
series_patches() {
	local name opts

	[ -f "$SERIES" ] || return 0
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$SERIES" | while read -r name opts; do
		[ -n "$name" ] || continue
		case "$opts" in "" | -p1) ;; *) die "series: '$name $opts': only -p1 patches are supported" ;; esac
		[ -f "$(dirname "$SERIES")/$name" ] ||
			die "series names '$name', but $(dirname "$SERIES")/$name does not exist"
		printf '%s\n' "$(dirname "$SERIES")/$name"
	done
}

# mutant_patches: a mutant profile's MUTANT_PATCHES files, in order.
# The mutants (kernel/patches/mutants/) are written for 6.12, on top of
# kernel/patches/series: TREE=6.1 has none (docs/mutants.md).
mutant_patches() {
	local name

	[ -z "${MUTANT_PATCHES:-}" ] || [ "$RCUVET_TREE" = 6.12 ] ||
		die "profile '$PROFILE' is a kernel mutant, and kernel/patches/mutants/ is written for 6.12: TREE=$RCUVET_TREE has no mutants"
	for name in ${MUTANT_PATCHES:-}; do
		[ -f "$(dirname "$SERIES")/$name" ] ||
			die "profile '$PROFILE' names mutant patch '$name', but $(dirname "$SERIES")/$name does not exist"
		printf '%s\n' "$(dirname "$SERIES")/$name"
	done
}

# patched_files PATCH...: the files patches write or delete.
patched_files() {
	cat /dev/null "$@" |
		sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p; s|^--- a/\([^[:space:]]*\).*|\1|p' |
		sort -u
}

# outside_include PATCH...: the files patches touch outside include/,
# which a modules-scope mutant must not (its kernel is not rebuilt).
outside_include() {
	patched_files "$@" | grep -v '^include/' || true
}

# kmake ARG...: make in the loaded profile's kernel folder (a mutant's
# where its base's paths show it, see in_base_paths).
kmake() {
	local in=() tree=$TREE kobj=$KOBJ

	if [ -n "${MUTANT_OF:-}" ]; then
		in=(in_base_paths) tree=$BASE_TREE kobj=$BASE_KOBJ
	fi
	"${in[@]}" make -C "$tree" O="$kobj" ARCH=x86_64 \
		CC="$RCUVET_ROOT/scripts/ccache-gcc" HOSTCC="ccache gcc" -j"$JOBS" "$@"
}

# in_base_paths CMD...: run CMD (no shell function) in a private mount
# namespace where the mutant's tree and objects are mounted over its base
# profile's: every path recorded in the copied objects and .cmd files then
# names the mutant's files, and only what the mutant patches touched is
# newer than its object.  A modules-scope mutant's objects are its base's
# own: only the tree is mounted.  Needs root (make check's setup does too).
in_base_paths() {
	unshare --mount --propagation private -- sh -c '
		mount --bind "$1" "$2" && { [ "$3" = "$4" ] || mount --bind "$3" "$4"; } || exit 125
		shift 4
		exec "$@"' sh "$TREE" "$BASE_TREE" "$KOBJ" "$BASE_KOBJ" "$@"
}

# files_compiled LOG: how far a kernel build writing LOG has come.
files_compiled() {
	[ -f "$1" ] || { echo 0; return; }
	grep -c '^  CC' "$1" || true
}

# kernel_of PROFILE: tree, configuration and kernel of PROFILE brought up
# to date, by one process at a time: when prebuild.sh is building that
# kernel in the background, wait for it instead of racing it.
kernel_of() {
	local base lock log here=$RCUVET_ROOT/scripts

	base=$(load_profile "$1" && printf '%s' "$MUTANT_OF")
	[ -z "$base" ] || kernel_of "$base" || return 1
	log=$(load_profile "$1" && printf '%s/build.log' "$KOBJ")
	# A modules-scope mutant builds only its tree (its KOBJ is its
	# base's): a lock of its own, or it would hold up its base's runs.
	lock=$(load_profile "$1" && if [ "$MUTANT_SCOPE" = modules ]; then
		printf '%s' "$TREE"
	else
		printf '%s' "$log"
	fi)
	lock=$BUILD/locks/$(printf '%s' "$lock" | sha1sum | cut -c1-16)
	mkdir -p "$BUILD/locks"
	(
		if ! flock -n 9; then
			note "kernel of '$1' is being built in the background; waiting"
			until flock -w 30 9; do
				note "still waiting ($(elapsed), $(files_compiled "$log") files compiled)"
			done
		fi
		"$here/tree.sh" "$1" && "$here/configure.sh" "$1" && "$here/build-kernel.sh" "$1"
	) 9>"$lock"
}

# control_mutants PLAN...: the mutant profiles these control plans boot.
control_mutants() {
	local plan p

	for plan in "$@"; do
		sed -n 's/^profile:[[:space:]]*//p' "$(plan_files "$plan")"
	done | sort -u | while read -r p; do
		(load_profile "$p" && [ -n "$MUTANT_OF" ] && echo "$p") || true
	done
}

# prebuild PROFILE...: the first profile's kernel now; the others' in the
# background, at idle priority, while the caller boots the first: a TCG
# guest keeps about 1.25 of 2 cores busy (measured), and a cold kernel
# build is the longest step of a first run.  kernel_of waits for them
# where needed; a build that fails here fails again, with its message,
# when vet.sh builds that kernel.  Output in build/prebuild.log; stopped
# when the caller exits.
prebuild() {
	kernel_of "$1" || return 0
	shift
	[ $# -gt 0 ] || return 0
	note "kernels of $* brought up to date in the background (log: ${BUILD#"$RCUVET_ROOT"/}/prebuild.log)"
	setsid nice -n 19 chrt --idle 0 "$RCUVET_ROOT/scripts/prebuild.sh" "$@" \
		>"$BUILD/prebuild.log" 2>&1 &
	# shellcheck disable=SC2064 # the background job's pid, now
	trap "kill -- -$! 2>/dev/null || true" EXIT
}

# vet_control PROFILE PLAN OUTDIR: boot PLAN, a run meant to fail, with
# vet.sh's status in $rc: its failures stay in its verdict.txt, not on the
# terminal, where they would read as the suite's own.
vet_control() {
	set +e
	"$RCUVET_ROOT/scripts/vet.sh" "$@" | { grep --line-buffered -v '^    FAIL: ' || true; }
	rc=${PIPESTATUS[0]}
	set -e
}

# The idle baselines of the reliance report: the sites the kernel relies
# on by itself, a file per tree and profile (scripts/reliance-idle.sh,
# make reliance-baseline), committed as measured data; report.sh marks a
# run's sites found there as the kernel's own.  RELIANCE_BASELINES names
# another folder (the host tests).
RELIANCE_BASELINES=${RELIANCE_BASELINES:-$RCUVET_ROOT/configs}

# stand_ins: the guest programs whose kernel side the loaded profile's
# kernel lacks, "NAME REASON" a line: initramfs.sh gives the guest a
# stand-in that skips for REASON.
# - rcu-reliance reads the report of CONFIG_RCU_CONSOLIDATION_RELIANCE
#   (kernel/patches/0002-*; KOBJ/.config), which a tree without the patch
#   cannot have (reliance.config is left out, fragment_left_out); where
#   the tree has it, check-config.sh has made sure that a profile asking
#   for it has it.
# - xdp-teardown's traffic is BPF_PROG_TEST_RUN's live frames (v5.18),
#   whose xdp_frame sits in front of data_hard_start until upstream
#   294635a8165a: on such a tree (6.1.192 as Debian ships it) the stress
#   crashes the kernel in bpf_test_run_xdp_live()/__xdp_return() within
#   minutes, and every step after it is lost (docs/xdp-teardown.md).
#   Known from the probe of the tree (tree-api.sh, XDP_LIVE_FRAMES and
#   XDP_LIVE_FRAME_AT_HARD_START: the fix, and 6.1/0008, its backport,
#   make that xdp_frame a flexible array at data_hard_start); a profile
#   without our suites (SUITES=none) has no probe, and runs no stress.
stand_ins() {
	local opt=RCU_CONSOLIDATION_RELIANCE api=$OBJ/tree-api/rcuvet_tree_api.h

	if grep -qx "CONFIG_$opt=y" "$KOBJ/.config"; then
		:
	elif tree_has_option "$opt"; then
		echo "rcu-reliance not in this kernel: profile $PROFILE builds it without CONFIG_$opt"
	else
		echo "rcu-reliance not in this kernel: tree $TREE_NAME has no CONFIG_$opt (kernel/patches/0002-*)"
	fi
	if [ ! -f "$api" ]; then
		:
	elif ! grep -qx '#define RCUVET_HAVE_XDP_LIVE_FRAMES 1' "$api"; then
		echo "xdp-teardown not on this tree: BPF_PROG_TEST_RUN has no live frames (v5.18), the stress's traffic"
	elif ! grep -qx '#define RCUVET_HAVE_XDP_LIVE_FRAME_AT_HARD_START 1' "$api"; then
		echo "xdp-teardown not on this tree: it lacks upstream 294635a8165a (bpf, test_run: fix crashes due to XDP frame overwriting/corruption), and the stress's live frames would crash the kernel; kernel/patches/6.1/0008 backports it (PATCHES=1 on a 6.1 tree)"
	fi
}

# stand_in NAME REASON: the guest's /bin/NAME for initramfs.sh, a script
# in OBJ/stand-in/ that prints a KTAP document of one case, NAME, skipped
# for REASON (as a test the kernel cannot run); prints its line of the
# archive's list.  Its time stamp is 0: 6.1's gen_init_cpio packs a file
# with its own (6.12's gives files -t's too), and a script written again
# at every run would change the archive, and so the key of every boot of
# the tree: make check booted 6.1 again on every run.
stand_in() {
	case $2 in *[\"\$\`\\]*) die "stand-in $1: its reason has a character the shell would read: $2" ;; esac
	mkdir -p "$OBJ/stand-in"
	printf '%s\n' '#!/bin/sh' 'echo "TAP version 13"' 'echo "1..1"' \
		"echo \"ok 1 $1 # SKIP $2\"" >"$OBJ/stand-in/$1"
	touch -d @0 "$OBJ/stand-in/$1"
	echo "file /bin/$1 $OBJ/stand-in/$1 755 0 0"
}

# reliance_baseline_file PROFILE: the idle baseline of PROFILE on this tree.
reliance_baseline_file() {
	printf '%s/reliance-baseline-%s-%s.txt\n' "$RELIANCE_BASELINES" "$TREE_NAME" "$1"
}

# host_tool NAME: compile the host tool scripts/NAME.c if needed, print
# its path.
host_tool() {
	local src=$RCUVET_ROOT/scripts/$1.c bin=$BUILD/host/$1

	if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ]; then
		mkdir -p "$BUILD/host"
		gcc -O2 -Wall -Wextra -Werror -o "$bin" "$src" >&2 ||
			die "scripts/$1.c does not compile"
	fi
	printf '%s\n' "$bin"
}

# vet_stopped OUTDIR RC: why vet.sh stopped with status RC before a
# verdict: the infrastructure error of a boot on a LAVA lab (lava-boot.sh),
# or just its status.
vet_stopped() {
	if [ -f "$1/infra.txt" ]; then
		head -n 1 "$1/infra.txt" | tr '\t' ' '
	else
		echo "vet.sh stopped with status $2"
	fi
}

# vet_profile PROFILE PLAN OUTDIR: one vet.sh run whose results always
# land in OUTDIR/results.tsv, a failed build or boot included.
vet_profile() {
	local rc=0

	"$RCUVET_ROOT/scripts/vet.sh" "$1" "$2" "$3" || rc=$?
	if [ $rc -gt 1 ] || [ ! -f "$3/results.tsv" ]; then
		mkdir -p "$3"
		rm -f "$3/run.json"
		printf '%s\tbuild-and-boot\tfail\t0\t%s\n' "$1" "$(vet_stopped "$3" "$rc")" >"$3/results.tsv"
	fi
}

# finish TSV...: the report of this invocation (results/report.json and
# report.md, docs/report.md), then its failures and the closing line over
# every row of the given results files.
finish() {
	local name cmd

	name=$(basename "$0" .sh)
	case $name in
	controls-only) cmd="scripts/controls-only.sh" ;;
	*) cmd="make $name" ;;
	esac
	step "report: ${RESULTS#"$RCUVET_ROOT"/}/report.md"
	if "$RCUVET_ROOT/scripts/report-json.sh" "$RESULTS/report.json" "$cmd" "$@"; then
		"$RCUVET_ROOT/scripts/report-md.sh" "$RESULTS/report.json" >"$RESULTS/report.md" ||
			note "rcuvet: the report's Markdown failed (results/report.json is there)"
	else
		note "rcuvet: the report failed; the closing line below still counts every row"
		rm -f "$RESULTS/report.json"
	fi
	"$RCUVET_ROOT/scripts/summary.sh" "$RESULTS/report.json" "$@"
}
