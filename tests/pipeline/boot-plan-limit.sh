#!/usr/bin/env bash
# A boot's limit from its first step (boot.sh, boot_plan_limit): a plan's
# own boot-timeout; plans sharing a boot add theirs, a plan without one
# counting the profile's BOOT_TIMEOUT, so that make run's
# run+rcutorture-long gives the run plan its time too; no plan with a
# limit: none from the first step.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export BUILD=$t/build RESULTS=$t/results
mkdir -p "$BUILD/plans"
printf '%s\n' 'boot-timeout: 60' 'kunit rcuvet_smoke' >"$BUILD/plans/lim-60.plan"
printf '%s\n' 'boot-timeout: 30' 'kunit rcuvet_list' >"$BUILD/plans/lim-30.plan"
printf '%s\n' 'kunit rcuvet_srcu' >"$BUILD/plans/lim-none.plan"
(
	# shellcheck source=/dev/null
	. "$root/scripts/boot.sh"
	# shellcheck disable=SC2034 # read by boot_plan_limit
	BOOT_TIMEOUT=900
	for c in lim-60=60 lim-60+lim-30=90 lim-none=0 lim-none+lim-60=960 \
		lim-30+lim-none+lim-none=1830; do
		got=$(boot_plan_limit "${c%=*}")
		[ "$got" = "${c#*=}" ] || echo "${c%=*}: $got s, not ${c#*=}"
	done
	run=$(boot_plan_limit run+rcutorture-long)
	alone=$(boot_plan_limit run)
	[ "$run" -gt "$alone" ] && [ "$alone" -gt 0 ] ||
		echo "run+rcutorture-long: $run s, the run plan alone $alone s"
)
