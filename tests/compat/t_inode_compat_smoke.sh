#!/bin/sh
# t_inode_compat_smoke.sh - the inode/superblock/bitmap requests compared
# with debugfs on what the shared images lack: a many-group image with
# uninit groups and checksums, device nodes, FIFOs, xattrs, an unwritten
# extent, a deleted inode, times past 2038, and local time zones.
set -u
: "${E2LAYOUT:?}" "${E2L_IMAGES:?}"
command -v debugfs >/dev/null || { echo "no debugfs"; exit 77; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export E2FSPROGS_FAKE_TIME=1700000000 MKE2FS_CONFIG=/dev/null
img=$t/x.img
mke2fs -q -F -t ext4 -b 1024 -I 256 -N 4096 \
	-O metadata_csum,^resize_inode,inline_data,extent,flex_bg,ext_attr,huge_file,dir_nlink,extra_isize,64bit \
	"$img" 40M >/dev/null 2>&1 || { echo "mke2fs failed"; exit 1; }
cat > "$t/setup" <<'EOS'
mknod cdev c 4 5
mknod bdev b 259 300
mknod fifo p
mkdir d
write /etc/hostname d/f1
write /etc/services d/f2
ea_set d/f1 user.foo bar
ea_set d/f1 user.bin "\001\002\003\004\005"
ea_set d/f1 user.p "abcdefghijklm\n"
ea_set d/f2 user.long 0123456789012345678901234567890123456789012
ea_set d/f2 user.nl "x\ny"
symlink sl /a/b/c
symlink d/lsl /aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/b
write /etc/hostname dead
kill_file dead
set_inode_field d/f2 ctime 20400101000000
set_inode_field d/f2 crtime 0x1ffffffff
set_inode_field d/f2 atime_extra 0x3
set_inode_field d/f2 mtime_extra 0x12345678
fallocate d/f2 100 120
EOS
debugfs -w -f "$t/setup" "$img" >/dev/null 2>&1
small=$t/small.img
mke2fs -q -F -t ext4 -I 128 -O ^metadata_csum,extent "$small" 8M >/dev/null 2>&1
printf 'write /etc/hostname f\nmknod c c 1 2\n' > "$t/setup2"
debugfs -w -f "$t/setup2" "$small" >/dev/null 2>&1

cat > "$t/req" <<'EOR'
stats
stats -h
features
stat cdev
stat bdev
stat fifo
stat d
stat d/f1
stat d/f2
stat d/lsl
stat sl
stat dead
stat f
stat c
stat <1>
stat <5>
ex d/f2
ex -l d/f2
ex d/f1
blocks d/f2
bmap d/f2 110
bmap d/f2 5
testb 8000 5
testb 9000
testb 41000
testi dead
testi <4000>
ffi
ffb 3 8190
imap <4000>
EOR
fail=0 n=0
compare() {	# TZ IMAGE REQUEST
	n=$((n + 1))
	TZ=$1 debugfs -R "$3" "$2" > "$t/d.out" 2> "$t/d.err"
	sed '1{/^debugfs 1\./d}' "$t/d.err" > "$t/d.err2"
	TZ=$1 "$E2LAYOUT" -R "$3" "$2" > "$t/e.out" 2> "$t/e.err"
	if ! cmp -s "$t/d.out" "$t/e.out" || ! cmp -s "$t/d.err2" "$t/e.err"
	then
		fail=$((fail + 1))
		echo "DIFF (TZ=$1) $(basename "$2"): $3"
		diff "$t/d.out" "$t/e.out" | head -10
		diff "$t/d.err2" "$t/e.err" | head -10
	fi
}
while IFS= read -r r; do
	compare GMT "$img" "$r"
	compare GMT "$small" "$r"
done < "$t/req"
# Local time zones: debugfs uses GMT only when TZ is GMT or GMT0.
for tz in GMT0 EST5EDT CET-1CEST UTC; do
	compare "$tz" "$img" "stat d/f2"
	compare "$tz" "$small" "stat f"
	compare "$tz" "$E2L_IMAGES/ext4.img" "stat /home/user/blob"
done
echo "$n compared, $fail differ"
[ "$fail" -eq 0 ]
