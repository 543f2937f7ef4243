#!/usr/bin/env bash
# seed-mutant.sh copies the base kernel's objects for a kernel mutant; make
# recompiles a file the mutant patches only if it is newer than its copied
# object.  A mutant tree older than its base's kernel (the base rebuilt
# since, the tree unchanged) would otherwise link the base's object: the
# mutant nowhere in its kernel.  A made-up mutant of tree.c, a tree.c
# older than the base's tree.o: after seeding, tree.c must be the newer,
# and a file the mutant does not patch must keep its age.  Runs from a
# copy of the checkout (see unknown-plan.sh).
set -u
. "$(dirname "$0")/../lib/refused.sh"

cat >"$root/kernel/patches/mutants/dev-seed.patch" <<'EOT'
--- a/kernel/rcu/tree.c
+++ b/kernel/rcu/tree.c
@@ -1,1 +1,2 @@
 x
+y
EOT
profile dev-seed 'MUTANT_OF=debug' 'MUTANT_PATCHES="mutants/dev-seed.patch"'

base=$BUILD/debian/debug/kernel
mkdir -p "$base/arch/x86/boot" "$base/kernel/rcu" "$BUILD/mutants/dev-seed/tree/kernel/rcu"
touch "$base/.rcuvet-built" "$base/arch/x86/boot/bzImage" "$base/kernel/rcu/tree.o" \
	"$base/kernel/rcu/update.o" "$BUILD/mutants/dev-seed/tree.id"
tree=$BUILD/mutants/dev-seed/tree/kernel/rcu
touch -d '2020-01-01' "$tree/tree.c" "$tree/update.c"

(cd "$root" && timeout -k 5 "$limit" scripts/seed-mutant.sh dev-seed) >"$t/out" 2>&1 ||
	{ echo "seed-mutant.sh failed: $(tail -n 1 "$t/out")"; exit 0; }
obj=$BUILD/mutants/dev-seed/kernel/kernel/rcu
[ -f "$obj/tree.o" ] || { echo "the base's objects were not copied"; exit 0; }
[ "$tree/tree.c" -nt "$obj/tree.o" ] ||
	echo "kernel/rcu/tree.c, which the mutant patches, is not newer than its copied object: make would link the base's"
[ "$tree/update.c" -ot "$obj/update.o" ] ||
	echo "kernel/rcu/update.c, which the mutant does not patch, was touched: make would rebuild it for nothing"
