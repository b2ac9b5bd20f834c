#!/bin/sh
# big.sh - the 16 TiB sparse ext4 image of the benchmark (a few MiB in smoke
# mode): mke2fs with lazy inode-table and journal init, so it takes seconds
# and a few hundred MiB of host disk.  Usage: big.sh OUT [SIZE]
set -eu
out=$1
size=${2:-16T}
rm -f "$out"
if ! truncate -s "$size" "$out" 2>/dev/null; then
	# The host filesystem caps file size (ext4: 16 TiB - 4 KiB): use one
	# block less than asked.
	bytes=$(numfmt --from=iec "$size")
	truncate -s $((bytes - 4096)) "$out"
fi
mke2fs -q -F -t ext4 -b 4096 \
	-E lazy_itable_init=1,lazy_journal_init=1,nodiscard "$out" >/dev/null
