#!/bin/sh
# t_owner_dir_csum.sh - the path walk behind `owner` and `frag --top` uses
# no entry of a directory block whose checksum fails (its files get no
# path), and still walks the directory's other blocks: a file before the
# bad block, one in it and one after it, asked together and alone.
. "$(dirname "$0")/../lib/testlib.sh"

command -v debugfs >/dev/null || skip "no debugfs"
export MKE2FS_CONFIG=/dev/null E2FSPROGS_FAKE_TIME=1700000000
mkdir -p "$T/src/d"
name=file-with-a-name-long-enough-to-fill-blocks-quickly
i=0
while [ $i -lt 60 ]; do
	echo $i > "$T/src/d/$name-$i"
	i=$((i + 1))
done
mke2fs -q -F -t ext4 -b 1024 -I 256 -d "$T/src" \
	-O has_journal,extent,filetype,metadata_csum,^dir_index,^inline_data \
	"$T/i.img" 4M > "$T/mke2fs.out" 2>&1 || fail "mke2fs failed: $(cat "$T/mke2fs.out")"

# the logical directory block holding each file's entry
i=0
: > "$T/where"
while [ $i -lt 60 ]; do
	lb=$(debugfs -R "dirsearch /d $name-$i" "$T/i.img" 2>/dev/null |
	     sed -n 's/^Entry found at logical block \([0-9]*\),.*/\1/p')
	echo "$i $lb" >> "$T/where"
	i=$((i + 1))
done
first=$(awk '$2 == 0 { print $1; exit }' "$T/where")
bad=$(awk '$2 == 1 { print $1; exit }' "$T/where")
after=$(awk '$2 == 2 { print $1; exit }' "$T/where")
[ -n "$first" ] && [ -n "$bad" ] && [ -n "$after" ] ||
	fail "no entries in directory blocks 0, 1 and 2: $(cat "$T/where")"

# before the damage every file has its path
for n in $first $bad $after; do
	b=$(debugfs -R "bmap /d/$name-$n 0" "$T/i.img" 2>/dev/null)
	eval "blk_$n=$b"
	"$E2LAYOUT" -R "owner $b" "$T/i.img" > "$T/out" 2>&1 ||
		fail "owner $b failed: $(cat "$T/out")"
	grep -qF "(/d/$name-$n)" "$T/out" || fail "no path: $(cat "$T/out")"
done

# one byte of directory block 1's checksum flipped
pb=$(debugfs -R "bmap /d 1" "$T/i.img" 2>/dev/null)
off=$((pb * 1024 + 1023))
byte=$(od -An -tu1 -j $off -N1 "$T/i.img" | tr -d ' ')
printf "\\$(printf '%03o' $(((byte + 1) % 256)))" |
	dd of="$T/i.img" bs=1 seek=$off conv=notrunc status=none
debugfs -R "ls /d" "$T/i.img" 2>&1 | grep -qi "checksum" ||
	fail "the damage did not take: debugfs ls reads the directory"

eval "bf=\$blk_$first bb=\$blk_$bad ba=\$blk_$after"
for q in "$bf $bb $ba" "$bf" "$bb" "$ba"; do
	"$E2LAYOUT" -R "owner $q" "$T/i.img" > "$T/out" 2>&1 ||
		fail "owner $q failed: $(cat "$T/out")"
	for b in $q; do
		line=$(grep "^$b: " "$T/out")
		[ -n "$line" ] || fail "no answer for $b: $(cat "$T/out")"
		case $b in
		"$bb")	case $line in *"(/"*)
				check "$q: the file in the bad block has a" \
				      "path: $line" ;;
			esac ;;
		"$bf")	case $line in *"(/d/$name-$first)"*) ;;
			*) check "$q: no path before the bad block: $line" ;;
			esac ;;
		"$ba")	case $line in *"(/d/$name-$after)"*) ;;
			*) check "$q: no path after the bad block: $line" ;;
			esac ;;
		esac
	done
done
checks_done
echo "ok: paths before and after a bad directory block, none from it"
