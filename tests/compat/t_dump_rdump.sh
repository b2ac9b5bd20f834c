#!/bin/sh
# t_dump_rdump.sh - dump, dump -p, cat and rdump write the same host files
# as debugfs (contents, modes, owners, times), lcd, and rdump's refusal of
# directory entries whose names would escape the target directory.
set -u
: "${E2LAYOUT:?}" "${E2L_IMAGES:?}"
command -v debugfs >/dev/null || { echo "no debugfs"; exit 77; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
listing() {	# DIR: every path with type, mode, owner, size, mtime, target
	# (whole seconds of mtime and atime, and none for symlinks: one find
	# per kind instead of a stat per file keeps this quick)
	(cd "$1" && { find . ! -type l -printf '%p %y %m %U %G %s  %T@ %A@\n' |
		awk '{ sub(/\.[0-9]*$/, "", $7); sub(/\.[0-9]*$/, "", $8); print }'
		find . -type l -printf '%p %y %m %U %G %s %l\n'; } | sort)
}
same_run() {	# NAME REQUEST IMAGE: stdout and stderr as debugfs's
	debugfs -R "$2" "$3" > "$t/d.out" 2> "$t/d.err0"
	sed '1{/^debugfs 1\./d}' "$t/d.err0" > "$t/d.err"
	"$E2LAYOUT" -R "$2" "$3" > "$t/e.out" 2> "$t/e.err"
	cmp -s "$t/d.out" "$t/e.out" && cmp -s "$t/d.err" "$t/e.err" ||
		{ bad "$1: $2 output differs"; diff "$t/d.err" "$t/e.err"; }
}

for img in ext2-1k ext4 inline bigalloc; do
	i=$E2L_IMAGES/$img.img
	[ -f "$i" ] || continue
	for who in d e; do
		rm -rf "$t/$who"; mkdir -p "$t/$who/r" "$t/$who/m" "$t/$who/plain"
	done
	(cd "$t/d" && debugfs -R "rdump / r" "$i" 2>/dev/null)
	(cd "$t/e" && "$E2LAYOUT" -R "rdump / r" "$i") || bad "$img: rdump /"
	(cd "$t/d" && debugfs -R "rdump /home/user /etc/conf1 /var m" "$i" \
		2>/dev/null)
	(cd "$t/e" && "$E2LAYOUT" -R "rdump /home/user /etc/conf1 /var m" \
		"$i") || bad "$img: rdump several"
	for f in /home/user/sparse /usr/share/doc/big.txt /etc/conf3; do
		n=$(basename $f)
		(cd "$t/d" && debugfs -R "dump -p $f $n.p" "$i" 2>/dev/null &&
			debugfs -R "dump $f plain/$n" "$i" 2>/dev/null)
		(cd "$t/e" && "$E2LAYOUT" -R "dump -p $f $n.p" "$i" &&
			"$E2LAYOUT" -R "dump_inode $f plain/$n" "$i") ||
			bad "$img: dump $f"
	done
	# the times listed before diff -r reads the files: a read moves an
	# atime not after the mtime (relatime), and the two trees' reads may
	# fall in different seconds
	listing "$t/d" > "$t/d.all"
	listing "$t/e" > "$t/e.all"
	diff -r --no-dereference "$t/d" "$t/e" > /dev/null ||
		bad "$img: dumped files differ"
	# symlinks, plain dumps and the targets get the time they are made
	sed 's/ [0-9]* [0-9]*$//' "$t/d.all" > "$t/d.l"
	sed 's/ [0-9]* [0-9]*$//' "$t/e.all" > "$t/e.l"
	cmp -s "$t/d.l" "$t/e.l" || { bad "$img: modes/owners differ"
		diff "$t/d.l" "$t/e.l" | head; }
	grep -v ' l ' "$t/d.all" > "$t/d.l"
	grep -v ' l ' "$t/e.all" | grep -v '^\. ' | grep -v '^\./m \|^\./plain' > "$t/e.l"
	grep -v '^\. ' "$t/d.l" | grep -v '^\./m \|^\./plain' > "$t/d.l2"
	cmp -s "$t/d.l2" "$t/e.l" || { bad "$img: times differ"
		diff "$t/d.l2" "$t/e.l" | head; }
	same_run "$img" "cat /etc/conf7" "$i"
	same_run "$img" "cat /home/user/long-link" "$i"
done
# errors, compared with debugfs
i=$E2L_IMAGES/ext4.img
for r in "dump" "dump -x a b" "dump /etc/conf1" "dump /nosuch $t/x" \
	"dump /etc/conf1 $t/no/such" "cat" "cat a b" "cat /nosuch" \
	"rdump" "rdump /etc" "rdump /etc $t/nosuch" "rdump /etc /etc/passwd" \
	"rdump /nosuch $t" "lcd" "lcd $t/nosuch" "lcd a b"; do
	same_run errors "$r" "$i"
done
printf 'lcd %s\ndump /etc/conf2 viaLcd\n' "$t" > "$t/lcd.s"
"$E2LAYOUT" -f "$t/lcd.s" "$i" > /dev/null && [ -s "$t/viaLcd" ] ||
	bad "lcd then dump"

# Entry names that would escape: "..", "a/b" and a control character.
esc=$t/esc.img
MKE2FS_CONFIG=/dev/null mke2fs -q -F -t ext2 -b 1024 -O ^dir_index "$esc" 2M >/dev/null 2>&1
printf 'mkdir d\nwrite /etc/hostname d/qq\nwrite /etc/hostname d/axb\nwrite /etc/hostname d/ok\nln d/ok d/c\001x\n' |
	debugfs -w -f - "$esc" > /dev/null 2>&1
blk=$(debugfs -R "blocks /d" "$esc" 2>/dev/null | tr -d ' \n')
patch() {	# OLD NEW: renames an entry in place
	off=$(dd if="$esc" bs=1024 skip="$blk" count=1 2>/dev/null |
		grep -obUa "$1" | head -1 | cut -d: -f1)
	printf '%s' "$2" | dd of="$esc" bs=1 seek=$((blk * 1024 + off)) \
		conv=notrunc 2>/dev/null
}
patch qq ..
patch axb a/b
debugfs -R "ls -l /d" "$esc" 2>/dev/null | grep -q ' \.\. *$' ||
	echo "note: could not plant the names"
mkdir -p "$t/out/in"
: > "$t/out/hostname-guard"
"$E2LAYOUT" -R "rdump /d $t/out/in" "$esc" > "$t/r.out" 2> "$t/r.err"
rc=$?
[ $rc -eq 1 ] || bad "rdump of escaping names: exit $rc, not 1"
[ "$(grep -c 'refusing to dump entry' "$t/r.err")" -eq 3 ] ||
	{ bad "rdump: three refusals expected"; cat "$t/r.err"; }
grep -q 'c\\x01x' "$t/r.err" || bad "rdump: control character not shown escaped"
[ -f "$t/out/in/d/ok" ] || bad "rdump: safe entry not dumped"
[ "$(ls -A "$t/out")" = "$(printf 'hostname-guard\nin')" ] &&
	[ "$(ls -A "$t/out/in/d")" = ok ] && [ ! -e "$t/out/in/a" ] ||
	{ bad "rdump wrote outside or extra files"; ls -laR "$t/out"; }
echo "$fail failures"
[ $fail -eq 0 ]
