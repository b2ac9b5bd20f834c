#!/bin/sh
# t_arguments.sh - hostile arguments are refused before any layout work,
# with a clear message and exit 1, the image unchanged (cmp), quickly and in
# bounded memory: sizes that wrap, overflow or exceed the free space
# (prealloc, journal_relocate --size), goals and ranges outside the
# filesystem, conflicting placement options, bad inode specs, prealloc into
# a parent that is not a directory; debugfs's requests stay as debugfs says
# (an invalid <ino> is refused silently, output identical).
. "$(dirname "$0")/../lib/testlib.sh"

e4=$T/e4.img
e2=$T/e2.img
cp "$E2L_IMAGES/ext4.img" "$e4"
cp "$E2L_IMAGES/ext2-1k.img" "$e2"	# s_first_data_block 1
cp "$e4" "$T/e4.orig"
cp "$e2" "$T/e2.orig"
# A plain build runs under a 1 GiB address space: a size that made the old
# code lay out 2^36 extents (24 GB) must be refused long before.  (ASan
# reserves terabytes of address space, so it runs without the limit.)
limit="ulimit -v 1048576;"
case "${E2L_BUILD:-}" in *asan*) limit= ;; esac
n=0

# no IMG REQUEST PATTERN: refused (exit 1), PATTERN in the message, the
# image unchanged, and done within 20 s.
no() {
	img=$1; req=$2; pat=$3
	sh -c "$limit exec timeout 20 \"\$0\" -w -R \"\$1\" \"\$2\"" \
		"$E2LAYOUT" "$req" "$img" > "$T/out" 2>&1
	rc=$?
	[ $rc -eq 1 ] || { cat "$T/out"; fail "$req: exit $rc, not 1"; }
	grep -qF -- "$pat" "$T/out" || { cat "$T/out"; fail "$req: no \"$pat\""; }
	grep -q "nothing to do\|^Plan:\|applied the" "$T/out" &&
		{ cat "$T/out"; fail "$req: planned anyway"; }
	cmp -s "$img" "${img%.img}.orig" || fail "$req: the image changed"
	n=$((n + 1))
}

# Sizes.
for sz in 9000000000G 99999999999999999999 -1 0x 1e3 1K1 "1 K" 0 0K \
	  16777216T; do
	case $sz in
	0|0K) pat="must be more than 0" ;;
	16777216T) pat="more than 2^64 bytes" ;;
	*) pat="not a size" ;;
	esac
	[ "$sz" = 9000000000G ] && pat="past the largest file"
	[ "$sz" = 99999999999999999999 ] && pat="not a size"
	no "$e4" "prealloc /f \"$sz\"" "$pat"
done
no "$e4" "prealloc /f 18446744073709551615" "past the largest file"
no "$e4" "prealloc /f 1G" "need 262144 free blocks and the filesystem has"
for sz in 99999999999999999999 -1 0x 1e3 9000000000G 1023 5G; do
	case $sz in
	1023|9000000000G) pat="a journal has 1024 to 4294967295 blocks" ;;
	5G) pat="and the filesystem has" ;;
	*) pat="--size $sz:" ;;
	esac
	no "$e4" "journal_relocate --size $sz" "$pat"
done

# Goals and ranges, the same way for every operation.
for op in "journal_relocate" "defrag /usr/share/doc/big.txt" "prealloc /f 1M"; do
	no "$e4" "$op --goal 16384" "--goal 16384: past the end of the filesystem (the filesystem's blocks are 0-16383)"
	no "$e4" "$op --goal 99999999999999999999" "--goal 99999999999999999999: not a number"
	no "$e4" "$op --goal -1" "--goal -1: not a number"
	no "$e4" "$op --goal 1e3" "--goal 1e3: not a number"
	no "$e4" "$op --group 1" "--group 1: no group 1 (the filesystem has groups 0-0)"
	no "$e4" "$op --goal" "--goal needs a block number"
	# conflicting placement options
	no "$e4" "$op --middle --start" "--middle and --start exclude each other"
	no "$e4" "$op --goal 100 --group 0" "--goal and --group exclude each other"
	no "$e4" "$op --start --start" "--start and --start exclude each other"
done
no "$e2" "defrag /usr/share/doc/big.txt --goal 0" "--goal 0: before the first data block (the filesystem's blocks are 1-16383)"
no "$e2" "prealloc /f 1M --goal 0" "--goal 0: before the first data block"
no "$e4" "evacuate 100-16384" "LAST 16384: past the end of the filesystem"
no "$e4" "evacuate 100-99999999999999999999" "LAST 99999999999999999999: not a number"
no "$e2" "evacuate 0-100" "FIRST 0: before the first data block"
no "$e4" "evacuate 5-3" "FIRST is after LAST"
no "$e4" "evacuate 1e3-2000" "FIRST 1e3: not a number"
no "$e4" "repack_flex 99" "no flex group 99"
no "$e4" "repack_flex -1" "N -1: not a number"

# Inode specs of e2layout's own requests.
for spec in "<0>" "<-1>" "<4294967296>" "<8193>" "<>" "<0x>" "<1 2>"; do
	no "$e4" "defrag \"$spec\"" "$spec: no such inode (the filesystem's inodes are 1-8192)"
	no "$e4" "prealloc \"$spec\" 1M" "$spec: no such inode"
done
no "$e4" "defrag <2>" "<2> is not a regular file"
# prealloc into a file, or into nothing
no "$e4" "prealloc /etc/conf1/new 1M" "/etc/conf1/new: /etc/conf1 is not a directory"
no "$e4" "prealloc /nosuchdir/new 1M" "while looking up the directory /nosuchdir"

# debugfs's requests: an invalid <ino> fails silently, as in debugfs, and
# the output is debugfs's byte for byte.
for spec in "<0>" "<-1>" "<99999>"; do
	for r in stat testi blocks ex; do
		debugfs -R "$r $spec" "$e4" > "$T/d.out" 2> "$T/d.err"
		sed -i '/^debugfs [0-9]/d' "$T/d.err"
		"$E2LAYOUT" -R "$r $spec" "$e4" > "$T/e.out" 2> "$T/e.err" &&
			fail "$r $spec: exit 0"
		cmp -s "$T/d.out" "$T/e.out" && cmp -s "$T/d.err" "$T/e.err" ||
			fail "$r $spec: differs from debugfs: $(cat "$T/e.err")"
		n=$((n + 1))
	done
done
echo "ok: $n hostile arguments refused, images unchanged"
exit 0
