#!/bin/sh
# t_write_readonly.sh - every low-level write request, on a session opened
# without -w, fails with exit 1 and debugfs's "Filesystem opened read/only"
# and leaves the image byte for byte as it was.
set -u
: "${E2LAYOUT:?}" "${E2L_IMAGES:?}"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cp "$E2L_IMAGES/ext4.img" "$t/fs.img"
cp "$t/fs.img" "$t/orig.img"
fail=0
while IFS='|' read -r req who; do
	"$E2LAYOUT" -R "$req" "$t/fs.img" > "$t/out" 2> "$t/err"
	rc=$?
	if [ $rc -ne 1 ] ||
	   [ "$(cat "$t/err")" != "$who: Filesystem opened read/only" ]; then
		echo "FAIL: $req: exit $rc: $(cat "$t/err")"
		fail=$((fail + 1))
	fi
	cmp -s "$t/fs.img" "$t/orig.img" ||
		{ echo "FAIL: $req changed the image"; fail=$((fail + 1)); }
done <<'EOF2'
setb 3000|setb
freeb 20 2|freeb
seti <40>|seti
freei /etc/conf1|freei
ssv mnt_count 9|ssv
set_super_value state 0|set_super_value
sif /etc/conf1 mode 0|sif
set_inode_field /etc/conf1 links_count 0|set_inode_field
set_bg 0 flags 0|set_bg
set_block_group 0 checksum calc|set_block_group
clri /etc/conf1|clri
copy_inode /etc/conf1 /etc/conf2|copy_inode
kill_file /etc/conf1|kill_file
dirty|dirty
dirty_filesys -clean|dirty_filesys
zap_block 100|zap_block
zap -p 0x55 100|zap
EOF2
echo "$fail failures"
[ $fail -eq 0 ]
