#!/bin/sh
# mkimages.sh - makes the test images every test tier shares, with the real
# mke2fs (and e2layout mkdemo for the demo), into DIR.  Images are rebuilt
# when this script or the demo generator changes.
# They are made in a directory of their own, then renamed to DIR: a run
# that fails or is stopped leaves no half-made set behind.
# Usage: mkimages.sh DIR E2LAYOUT
set -e
final=$1
e2layout=$2
stamp="$final/.stamp"
me=$(cat "$0" "$(dirname "$0")"/../../labs/demo*.c 2>/dev/null | cksum | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$me" ] && [ -f "$final/demo.img" ]; then
	exit 0
fi
dir="$final.new.$$"
trap 'rm -rf "$dir"' EXIT
trap 'exit 2' INT TERM
rm -rf "$dir"
mkdir -p "$dir"
export E2FSPROGS_FAKE_TIME=1700000000
export MKE2FS_CONFIG=/dev/null	# the defaults below, not the host's mke2fs.conf

# A source tree: directories, small and large files (large enough for
# indirect and double-indirect blocks with 1 KiB blocks), a sparse file,
# symlinks short and long, an empty file and a device node name.
src="$dir/src"
mkdir -p "$src/etc" "$src/usr/share/doc" "$src/var/log" "$src/home/user/deep/er/still"
i=0
while [ $i -lt 40 ]; do
	printf 'file %d\n' $i > "$src/etc/conf$i"
	i=$((i + 1))
done
seq 1 20000 > "$src/var/log/messages"			# ~108 KiB
seq 1 120000 > "$src/usr/share/doc/big.txt"		# ~780 KiB
head -c 3000000 /dev/zero | tr '\0' 'x' > "$src/home/user/blob"	# ~2.9 MiB
dd if=/dev/zero of="$src/home/user/sparse" bs=1024 seek=5000 count=7 2>/dev/null
: > "$src/home/user/empty"
echo hello > "$src/home/user/deep/er/still/leaf"
ln -s ../etc/conf1 "$src/home/user/short-link"
ln -s "$(printf 'x%.0s' $(seq 1 100))/target/that/is/long/enough/to/need/a/block" "$src/home/user/long-link"
mkdir -p "$src/manyfiles"
i=0
while [ $i -lt 300 ]; do
	echo $i > "$src/manyfiles/entry-with-a-longish-name-$i"
	i=$((i + 1))
done

mk() {
	name=$1; size=$2; shift 2
	mke2fs -q -F -T default -o Linux -E root_owner=0:0 -U 6f1c3e4a-0b0c-4d1e-9f20-3a4b5c6d7e8f \
		-d "$src" "$@" "$dir/$name.img" "$size" >/dev/null
}
mk ext2-1k 16M -t ext2 -b 1024 -I 128 -O ^resize_inode,sparse_super,filetype,^dir_index
mk ext3 32M -t ext3 -O has_journal,ext_attr,resize_inode,dir_index,filetype,sparse_super,large_file -I 256 -J size=4
mk ext4 64M -t ext4 -O has_journal,ext_attr,resize_inode,dir_index,filetype,extent,64bit,flex_bg,sparse_super,large_file,huge_file,dir_nlink,extra_isize,metadata_csum -I 256 -J size=4
mk bigalloc 128M -t ext4 -O has_journal,extent,bigalloc,flex_bg,sparse_super,filetype,dir_index,^resize_inode -C 16384 -I 256
mk metabg 64M -t ext4 -O has_journal,extent,meta_bg,^resize_inode,flex_bg,filetype,dir_index,sparse_super,64bit -I 256
mk inline 32M -t ext4 -O has_journal,extent,inline_data,flex_bg,filetype,dir_index,sparse_super,ext_attr -I 256
mk noflex 64M -t ext4 -O has_journal,extent,^flex_bg,filetype,dir_index,sparse_super,large_file -I 256
# dfs1k: 1 KiB blocks with quota, an htree directory of 3000 entries,
# xattrs in the inode and in a block, deleted inodes and a journal holding
# transactions (for filefrag, htree, ea_*, lsdel, logdump, lq/gq).
# mmp64k: 64 KiB blocks with MMP.
dsrc="$dir/src-dfs"
mkdir -p "$dsrc/big" "$dsrc/x"
i=1
while [ $i -le 3000 ]; do : > "$dsrc/big/f$i"; i=$((i + 1)); done
seq 1 5000 > "$dsrc/x/data"
seq 1 300 > "$dsrc/x/small"
for i in 1 2 3 4 5 6; do seq 1 $((i * 400)) > "$dsrc/x/del$i"; done
i=0	# a sparse file of 12 one-block runs: an extent tree of depth 1
while [ $i -lt 12 ]; do
	printf 'run %d\n' $i | dd of="$dsrc/x/frag" bs=1024 seek=$((i * 3)) conv=notrunc 2>/dev/null
	i=$((i + 1))
done
mke2fs -q -F -T default -o Linux -E root_owner=0:0 -U 6f1c3e4a-0b0c-4d1e-9f20-3a4b5c6d7e8f \
	-t ext4 -b 1024 -I 256 -N 3200 -J size=1 -d "$dsrc" \
	-O quota,metadata_csum,has_journal,extent,flex_bg,dir_index,ext_attr \
	"$dir/dfs1k.img" 8M >/dev/null
e2fsck -fyD "$dir/dfs1k.img" >/dev/null 2>&1 || :	# -D: htree directories
mke2fs -q -F -T default -o Linux -E root_owner=0:0 -U 6f1c3e4a-0b0c-4d1e-9f20-3a4b5c6d7e8f \
	-t ext4 -b 65536 -O mmp,^has_journal,extent,flex_bg -d "$dsrc/x" \
	"$dir/mmp64k.img" 16M >/dev/null 2>&1
cat > "$dir/dfs1k.setup" <<'EOS'
ea_set /x/small user.foo bar
ea_set /x/small user.bin "\001\002\003"
ea_set /x/small trusted.t value
ea_set /x/data user.big 0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789
ea_set /x/data user.a2 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
kill_file /x/del1
rm /x/del2
rm /x/del3
kill_file /x/del4
EOS
debugfs -w -f "$dir/dfs1k.setup" "$dir/dfs1k.img" >/dev/null 2>&1
printf 'jo\njw -b 300,301 /dev/zero\njc\n' > "$dir/dfs1k.setup"
debugfs -w -f "$dir/dfs1k.setup" "$dir/dfs1k.img" >/dev/null 2>&1
printf 'jo\njw -r 400,401\njc\n' > "$dir/dfs1k.setup"
debugfs -w -f "$dir/dfs1k.setup" "$dir/dfs1k.img" >/dev/null 2>&1
rm -rf "$dir/dfs1k.setup" "$dsrc"
# The demo is made by e2layout itself (tests/demo/t_demo.sh checks it).
"$e2layout" mkdemo --seed 1 "$dir/demo.img" >/dev/null || {
	echo "mkimages: e2layout mkdemo failed; no demo.img" >&2
	exit 1
}
echo "$me" > "$dir/.stamp"
rm -rf "$final"
mv "$dir" "$final"
