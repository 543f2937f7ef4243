# perf-full-noinline's kernel (rcu_read_lock() out of line) under QEMU's
# -icount shift=0, beside icount-full: what inlining the reader changes,
# in instructions (make bench pairs NAME-noinline with NAME).
DESCRIPTION="perf-full-noinline's kernel, QEMU -icount shift=0, for make bench"
KERNEL_OF=perf-full-noinline
QEMU_ICOUNT=0
BOOT_TIMEOUT=1800
