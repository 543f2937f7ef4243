# perf-full's kernel under QEMU's -icount shift=0 (scripts/boot.sh's
# icount_machine): the guest's clock advances one nanosecond per
# instruction, so make bench's timings count instructions, the same in
# every boot (TCG's speed varies some ten percent from boot to boot).
# Instructions, not cycles: a call and a per-CPU increment each count one.
DESCRIPTION="perf-full's kernel, QEMU -icount shift=0: a ns is an instruction, for make bench"
KERNEL_OF=perf-full
QEMU_ICOUNT=0
BOOT_TIMEOUT=1800
