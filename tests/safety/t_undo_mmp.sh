#!/bin/sh
# t_undo_mmp.sh - on MMP filesystems (4 KiB blocks without and with
# metadata_csum, 1 KiB blocks) the default undo file of every plan operation
# (defrag, prealloc, evacuate, journal relocation with and without a new
# size, repack-flex) gives back the image byte for byte with the real
# e2undo, MMP block included, and e2fsck -fn finds it clean; so do a -f
# script's two applies with a debugfs write between them (its undo files
# run newest first), a write after an apply (both without MMP too), and a
# -z session.  (libext2fs rewrote the superblock
# and the MMP block after apply had finished its undo file: e2undo refused
# it.)  Each MMP -w open waits about 11 s, so the cases run at once.
. "$(dirname "$0")/../lib/testlib.sh"
for tool in mke2fs debugfs e2fsck e2undo tune2fs; do
	command -v $tool >/dev/null 2>&1 || skip "$tool is missing: no oracle"
done

# gen IMG BS [mke2fs options]: a 64 MiB ext4 with a journal, flex groups
# of 4 and a fragmented "big", MMP turned on last (debugfs -w would wait
# for it at each of its opens).
gen() {
	g_img=$1; g_bs=$2; shift 2
	mke2fs -q -F -t ext4 -b "$g_bs" -G 4 "$@" "$g_img" 64M >/dev/null 2>&1 ||
		fail "mke2fs -b $g_bs $*"
	i=1
	while [ $i -le 10 ]; do
		echo "write $T/p$i f$i"
		i=$((i + 1))
	done | debugfs -w "$g_img" >/dev/null 2>&1
	printf 'rm f%s\n' 1 3 5 7 9 | debugfs -w "$g_img" >/dev/null 2>&1
	debugfs -w -R "write $T/big big" "$g_img" >/dev/null 2>&1
	tune2fs -O mmp "$g_img" >/dev/null 2>&1 || skip "tune2fs cannot add MMP here"
	debugfs -R dump_mmp "$g_img" 2>/dev/null | grep -q "^block_number:" ||
		fail "$g_img has no MMP block"
	fsck_clean "$g_img" || { cat "$T/fsck.out"; fail "$g_img is not clean"; }
}

i=1
while [ $i -le 10 ]; do
	head -c $((300000 + i * 1000)) /dev/urandom > "$T/p$i"
	i=$((i + 1))
done
cat "$T/p1" "$T/p3" "$T/p5" > "$T/big"
gen "$T/k4.img" 4096 -O ^metadata_csum
gen "$T/c4.img" 4096 -O metadata_csum
gen "$T/c1.img" 1024 -O metadata_csum

# restored NAME ORIG IMG UNDO...: the undo files, in the order given, give
# IMG back as ORIG byte for byte, and it is clean; NAME's verdict on stdout.
restored() {
	r_name=$1; r_orig=$2; r_img=$3
	shift 3
	for r_u in "$@"; do
		[ -s "$r_u" ] || { echo "FAIL: $r_name: no undo file $r_u"; return 1; }
		e2undo "$r_u" "$r_img" > "$r_img.undo" 2>&1 ||
			{ cat "$r_img.undo"; echo "FAIL: $r_name: e2undo $r_u refused"
			  return 1; }
	done
	if ! cmp "$r_img" "$r_orig" > "$r_img.cmp" 2>&1; then
		cat "$r_img.cmp"
		echo "FAIL: $r_name: not restored byte for byte"
		return 1
	fi
	e2fsck -fn "$r_img" > "$r_img.fsck" 2>&1 ||
		{ cat "$r_img.fsck"; echo "FAIL: $r_name: not clean after e2undo"
		  return 1; }
	echo "ok: $r_name: restored exactly"
}

# one NAME IMG REQUEST: REQUEST applied with its default undo file (in a
# directory of its own), then restored.
one() {
	o_dir=$T/$1
	mkdir "$o_dir"
	cp --sparse=always "$2" "$o_dir/c.img"
	E2LAYOUT_UNDO_DIR=$o_dir "$E2LAYOUT" -w -R "$3" "$o_dir/c.img" \
		> "$o_dir/out" 2>&1 ||
		{ o_rc=$?; cat "$o_dir/out"; echo "FAIL: $1: $3: exit $o_rc"; return 1; }
	grep -q "^verified" "$o_dir/out" ||
		{ cat "$o_dir/out"; echo "FAIL: $1: $3: not verified"; return 1; }
	cmp -s "$o_dir/c.img" "$2" && { echo "FAIL: $1: nothing changed"; return 1; }
	restored "$1: $3" "$2" "$o_dir/c.img" "$o_dir"/*.e2undo
}

# two NAME IMG: a -f script of two applies with a debugfs write (an
# inode's mtime) between them; the two undo files, newest first.
two() {
	o_dir=$T/$1
	mkdir "$o_dir"
	cp --sparse=always "$2" "$o_dir/c.img"
	printf '%s\n' "defrag /big --undo $o_dir/1.e2undo" \
		"sif /f2 mtime @1600000000" "prealloc /new 200K --undo $o_dir/2.e2undo" \
		> "$o_dir/script"
	"$E2LAYOUT" -w -f "$o_dir/script" "$o_dir/c.img" > "$o_dir/out" 2>&1 ||
		{ o_rc=$?; cat "$o_dir/out"; echo "FAIL: $1: the script: exit $o_rc"
		  return 1; }
	[ "$(grep -c "^verified" "$o_dir/out")" = 2 ] ||
		{ cat "$o_dir/out"; echo "FAIL: $1: not two applies verified"; return 1; }
	restored "$1: two applies and a write" "$2" "$o_dir/c.img" \
		"$o_dir/2.e2undo" "$o_dir/1.e2undo"
}

# after NAME IMG: a -f script whose debugfs write comes after its apply:
# the apply's undo file takes it in (and the close's writes).
after() {
	o_dir=$T/$1
	mkdir "$o_dir"
	cp --sparse=always "$2" "$o_dir/c.img"
	printf '%s\n' "evacuate $3-$3 --undo $o_dir/1.e2undo" \
		"sif /f2 mtime @1600000000" > "$o_dir/script"
	"$E2LAYOUT" -w -f "$o_dir/script" "$o_dir/c.img" > "$o_dir/out" 2>&1 ||
		{ o_rc=$?; cat "$o_dir/out"; echo "FAIL: $1: the script: exit $o_rc"
		  return 1; }
	debugfs -R "stat /f2" "$o_dir/c.img" 2>/dev/null | grep -q "mtime: 0x5f5e1000" ||
		{ echo "FAIL: $1: the write after the apply was not made"; return 1; }
	restored "$1: a write after the apply" "$2" "$o_dir/c.img" "$o_dir/1.e2undo"
}

# zfile NAME IMG REQUEST: a -z session applying REQUEST.
zfile() {
	o_dir=$T/$1
	mkdir "$o_dir"
	cp --sparse=always "$2" "$o_dir/c.img"
	"$E2LAYOUT" -w -z "$o_dir/z.e2undo" -R "$3" "$o_dir/c.img" \
		> "$o_dir/out" 2>&1 ||
		{ o_rc=$?; cat "$o_dir/out"; echo "FAIL: $1: -z $3: exit $o_rc"
		  return 1; }
	restored "$1: -z $3" "$2" "$o_dir/c.img" "$o_dir/z.e2undo"
}

n=0
start() {	# NAME FUNCTION ARGS...: a case in the background
	n=$((n + 1))
	s_name=$1
	shift
	( "$@" > "$T/$s_name.log" 2>&1; echo $? > "$T/$s_name.rc" ) &
	cases="${cases:-} $s_name"
}
for img in k4 c4 c1; do
	b=$(debugfs -R "bmap /big 0" "$T/$img.img" 2>/dev/null)
	[ -n "$b" ] || fail "no block of /big in $img"
	js=8M
	[ $img = c1 ] && js=2M
	start $img-defrag one $img-defrag "$T/$img.img" "defrag /big"
	start $img-prealloc one $img-prealloc "$T/$img.img" "prealloc /new 200K"
	start $img-evacuate one $img-evacuate "$T/$img.img" "evacuate $b-$b"
	start $img-jstart one $img-jstart "$T/$img.img" "journal_relocate --start"
	start $img-jsize one $img-jsize "$T/$img.img" "journal_relocate --size $js"
	# (tune2fs put c1's MMP block in flex group 0's island: no repack)
	[ $img = c1 ] || start $img-repack one $img-repack "$T/$img.img" \
		"repack-flex --all --groups-per-flex 32"
done
# the same script without MMP
cp --sparse=always "$T/c4.img" "$T/n4.img"
tune2fs -O ^mmp "$T/n4.img" >/dev/null 2>&1 || fail "tune2fs -O ^mmp"
start n4-two two n4-two "$T/n4.img"
b=$(debugfs -R "bmap /big 0" "$T/n4.img" 2>/dev/null)
start n4-after after n4-after "$T/n4.img" "$b"
start c4-after after c4-after "$T/c4.img" "$b"
start c4-two two c4-two "$T/c4.img"
start c1-two two c1-two "$T/c1.img"
start c4-z zfile c4-z "$T/c4.img" "defrag /big"
wait
for c in $cases; do
	cat "$T/$c.log"
	[ "$(cat "$T/$c.rc" 2>/dev/null)" = 0 ] || check "$c (above)"
done
checks_done
exit 0
