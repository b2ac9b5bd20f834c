#!/bin/sh
# t_repack_bigalloc.sh - repack-flex on bigalloc with 4 KiB blocks, clusters
# of 16 KiB and 64 KiB: the job with its evacuations swept, applied,
# verified, clean, undone byte for byte; the repack alone crashed at every
# write (repack_ba.sh says what each checks).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/repack_ba.sh"

ba_case b4k_c16k 4096 16384 512
BA_EVERY=4	# the second geometry: every fourth write (time)
ba_case b4k_c64k 4096 65536 256
exit 0
