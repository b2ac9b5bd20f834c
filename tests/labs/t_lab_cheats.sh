#!/bin/sh
# t_lab_cheats.sh - each way of passing a lab without doing its work (from
# issue #19, and the ones found since) fails, with a message naming the
# check; two trainees get different scenarios and answers; lab start does
# not overwrite a worked scenario; no solution is in the binary.  Every
# attempt runs even when one fails, so a run on an old e2layout lists all
# the attempts it lets through.
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/solve.sh"
export USER=alice
bad=""
nope() { echo "CHEAT PASSED: $*"; bad="$bad
  $*"; }
# gamed LAB IMAGE PATTERN WHAT: lab check must fail, naming PATTERN.
gamed() {
	"$E2LAYOUT" lab check "$1" "$2" > "$T/gamed.out" 2>&1
	rc=$?
	if [ $rc -ne 1 ]; then
		cat "$T/gamed.out"; nope "$4 (lab check exits $rc)"
	elif ! grep "NOT MET" "$T/gamed.out" | grep -q -- "$3"; then
		cat "$T/gamed.out"; nope "$4 (no NOT MET naming $3)"
	else
		echo "ok: $4: $(grep -m1 "NOT MET" "$T/gamed.out" | sed 's/^ *//')"
	fi
}
start() {	# LAB DIR [USER]
	USER=${3:-alice} "$E2LAYOUT" lab start "$1" "$2" </dev/null >/dev/null 2>&1 ||
		fail "lab start $1 $2"
}

# journal: another lab's image with a contiguous journal.
start where "$T/w"; start journal "$T/j1"
cp "$T/w/where.img" "$T/j1/journal.img"
gamed journal "$T/j1/journal.img" "scenario" "journal: the where lab's image"

# journal: remove it and add a new one of the same size (tune2fs).
start journal "$T/j2"
jb=$(dumpe2fs -h "$T/j2/journal.img" 2>/dev/null | sed -n 's/^Total journal blocks: *//p')
tune2fs -O ^has_journal "$T/j2/journal.img" >/dev/null 2>&1 &&
	tune2fs -J size=$((jb / 256)) "$T/j2/journal.img" >/dev/null 2>&1 ||
	fail "tune2fs could not recreate the journal"
n=$(debugfs -R "ex -l <8>" "$T/j2/journal.img" 2>/dev/null | grep -c "^ *[0-9]*/")
[ "$n" = 1 ] || fail "the recreated journal has $n extents, not 1: not a cheat"
gamed journal "$T/j2/journal.img" "journal.sequence" "journal: tune2fs -O ^has_journal, -J size=$((jb / 256))"

# ... and then write the old journal's sequence number into the new
# journal's superblock (s_sequence, big-endian at byte 24) with dd
start journal "$T/j3"
seq=$(dumpe2fs -h "$T/j3/journal.img" 2>/dev/null | sed -n 's/^Journal sequence: *//p')
[ -n "$seq" ] || fail "dumpe2fs shows no journal sequence"
tune2fs -O ^has_journal "$T/j3/journal.img" >/dev/null 2>&1 &&
	tune2fs -J size=$((jb / 256)) "$T/j3/journal.img" >/dev/null 2>&1 ||
	fail "tune2fs could not recreate the journal"
jblk=$(debugfs -R "bmap <8> 0" "$T/j3/journal.img" 2>/dev/null)
bs=$(dumpe2fs -h "$T/j3/journal.img" 2>/dev/null | sed -n 's/^Block size: *//p')
s=$((seq))
printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $((s >> 24 & 255)) $((s >> 16 & 255)) $((s >> 8 & 255)) $((s & 255)))" |
	dd of="$T/j3/journal.img" bs=1 seek=$((jblk * bs + 24)) conv=notrunc status=none
[ "$(dumpe2fs -h "$T/j3/journal.img" 2>/dev/null | sed -n 's/^Journal sequence: *//p')" = "$seq" ] ||
	fail "dd did not forge the journal sequence $seq"
gamed journal "$T/j3/journal.img" "inode(8).ctime" "journal: tune2fs -J, then the old sequence number written with dd"

# flexbg: the -G 16 companion copied over the image, with the right
# answers; then with the image's UUID too.
start flexbg "$T/f"
lab_solve flexbg "$T/f" >/dev/null 2>&1	# the answers (and a packed image)
start flexbg "$T/f2"
cp "$T/f/flexbg.answers" "$T/f2/flexbg.answers"
cp "$T/f2/flexbg-g16.img" "$T/f2/flexbg.img"
gamed flexbg "$T/f2/flexbg.img" "scenario" "flexbg: cp flexbg-g16.img flexbg.img"
start flexbg "$T/f3" bob
uuid=$(dumpe2fs -h "$T/f3/flexbg.img" 2>/dev/null | sed -n 's/^Filesystem UUID: *//p')
cp "$T/f3/flexbg-g16.img" "$T/f3/flexbg.img"
tune2fs -U "$uuid" "$T/f3/flexbg.img" >/dev/null 2>&1 || fail "tune2fs -U"
gamed flexbg "$T/f3/flexbg.img" "scenario" "flexbg: the companion with the image's UUID (tune2fs -U)"

# fragfiles: the worst file punched down to one block, then defragmented.
start fragfiles "$T/g"
lab_solve fragfiles "$T/g" >/dev/null 2>&1 || fail "fragfiles: the solution failed"
start fragfiles "$T/g2"
cp "$T/g/fragfiles.answers" "$T/g2/fragfiles.answers"
worst=$(sed -n 's/^worst = //p' "$T/g2/fragfiles.answers")
debugfs -w -R "punch $worst 1" "$T/g2/fragfiles.img" >/dev/null 2>&1
"$E2LAYOUT" -w -R "defrag $worst --group 5" "$T/g2/fragfiles.img" >/dev/null 2>&1 ||
	fail "fragfiles: defrag of the punched file failed"
gamed fragfiles "$T/g2/fragfiles.img" "sum" "fragfiles: the worst file punched to one block, then defragmented"
# and a path answer in the wrong case
start fragfiles "$T/g3"
lab_solve fragfiles "$T/g3" >/dev/null 2>&1
tr 'a-z' 'A-Z' < "$T/g3/fragfiles.answers" | sed 's/^WORST/worst/; s/^EXTENTS_/extents_/' > "$T/g3/upper"
"$E2LAYOUT" lab check fragfiles "$T/g3/fragfiles.img" --answers "$T/g3/upper" > "$T/gamed.out" 2>&1 &&
	nope "fragfiles: the worst file's path in upper case"
grep -q "NOT MET answer worst" "$T/gamed.out" && echo "ok: fragfiles: path answers are case-sensitive"

# prealloc: 64 MiB of written data plus one unwritten block.
start prealloc "$T/p"
dd if=/dev/urandom of="$T/wal" bs=1M count=64 2>/dev/null
debugfs -w -f - "$T/p/prealloc.img" >/dev/null 2>&1 <<EOT
write $T/wal /srv/db/wal.log
sif /srv/db/wal.log size 67112960
fallocate /srv/db/wal.log 16384 16384
EOT
debugfs -R "ex /srv/db/wal.log" "$T/p/prealloc.img" 2>/dev/null | grep -q Uninit ||
	fail "prealloc: the cheat has no unwritten block"
first=$(debugfs -R "ex -l /srv/db/wal.log" "$T/p/prealloc.img" 2>/dev/null | sed -En 's/^ *[0-9]+\/ *[0-9]+ +[0-9]+\/ *[0-9]+ +[0-9]+ *- *[0-9]+ +([0-9]+) .*/\1/p' | head -1)
echo "wal_first_block = $first" > "$T/p/prealloc.answers"
gamed prealloc "$T/p/prealloc.img" "written\|size" "prealloc: 64 MiB written plus one unwritten block"
# the debugfs way its step 1 compares: unwritten, but in pieces (as the
# step says), so it fails the contiguity check
start prealloc "$T/p2"
debugfs -w -f - "$T/p2/prealloc.img" >/dev/null 2>&1 <<EOT
write /dev/null /srv/db/wal.log
sif /srv/db/wal.log size 67108864
fallocate /srv/db/wal.log 0 16383
EOT
first=$(debugfs -R "ex -l /srv/db/wal.log" "$T/p2/prealloc.img" 2>/dev/null | sed -En 's/^ *[0-9]+\/ *[0-9]+ +[0-9]+\/ *[0-9]+ +[0-9]+ *- *[0-9]+ +([0-9]+) .*/\1/p' | head -1)
echo "wal_first_block = $first" > "$T/p2/prealloc.answers"
debugfs -R "ex /srv/db/wal.log" "$T/p2/prealloc.img" 2>/dev/null | grep -q Uninit ||
	fail "prealloc: step 1 says debugfs fallocate leaves unwritten blocks: it does not"
gamed prealloc "$T/p2/prealloc.img" "extents == 1" "prealloc: debugfs fallocate (in pieces, as step 1 says)"

# where: two trainees, two scenarios; one's answers fail the other's.
start where "$T/wa" alice; start where "$T/wb" bob
lab_solve where "$T/wa" >/dev/null 2>&1; lab_solve where "$T/wb" >/dev/null 2>&1
ua=$(dumpe2fs -h "$T/wa/where.img" 2>/dev/null | sed -n 's/^Filesystem UUID: *//p')
ub=$(dumpe2fs -h "$T/wb/where.img" 2>/dev/null | sed -n 's/^Filesystem UUID: *//p')
[ "$ua" != "$ub" ] || nope "where: alice and bob have the same UUID $ua"
cmp -s "$T/wa/where.answers" "$T/wb/where.answers" && nope "where: alice and bob have the same answers"
"$E2LAYOUT" lab check where "$T/wb/where.img" --answers "$T/wa/where.answers" > "$T/gamed.out" 2>&1 &&
	nope "where: alice's answers pass bob's scenario"
"$E2LAYOUT" lab check where "$T/wa/where.img" >/dev/null 2>&1 || fail "where: alice's own answers fail"
# one trainee gets the same scenario again (the trainer can rebuild it)
start where "$T/wa2" alice
cmp -s "$T/wa/where.img" "$T/wa2/where.img" || fail "where: alice's scenario is not reproducible"
# ranges normalised: "gdt = A-A" for a one-block table (groups prints it so)
g=$(sed -n 's/^gdt = //p' "$T/wa/where.answers")
case $g in *-*) ;; *) g=$g-$g ;; esac
sed "s/^gdt = .*/gdt = $g/; s/^superblock_backups = \(.*\)/superblock_backups = \1,\1/" "$T/wa/where.answers" > "$T/wa/ranges"
"$E2LAYOUT" lab check where "$T/wa/where.img" --answers "$T/wa/ranges" > "$T/gamed.out" 2>&1 ||
	{ cat "$T/gamed.out"; nope "where: gdt = $g (a range) is rejected"; }

# where: alice's worked scenario copied, its state edited to name bob
# (the seed kept: it is what builds the image); alone in a class, so no
# other trainee's directory shows the copy
mkdir -p "$T/class/bob"
cp "$T/wa/where.img" "$T/wa/where.answers" "$T/class/bob/"
sed 's/^trainee = alice$/trainee = bob/' "$T/wa/where.state" > "$T/class/bob/where.state"
grep -q '^trainee = bob$' "$T/class/bob/where.state" || fail "the state names no trainee alice"
gamed where "$T/class/bob/where.img" "scenario" "where: alice's scenario, its state edited to name bob"
"$E2LAYOUT" lab class "$T/class" > "$T/class.out" 2>&1
grep -q "^bob  *where  *passed" "$T/class.out" &&
	{ cat "$T/class.out"; nope "lab class: bob passes with alice's edited state"; }

# a trainee's FIFO as a state or an answers file does not hang the
# trainer's roster (nor lab check): each is refused as not a regular file
mkdir -p "$T/class/mallory" "$T/class/eve"
start where "$T/class/mallory" mallory
mkfifo "$T/class/mallory/where.answers" || fail "mkfifo"
cp "$T/wa/where.img" "$T/class/eve/"
mkfifo "$T/class/eve/where.state" || fail "mkfifo"
"$E2LAYOUT" lab class "$T/class" > "$T/class.out" 2>&1 &
pid=$!
ended() { ! kill -0 $pid 2>/dev/null; }
( wait_until 120 "lab class hangs" ended ) ||
	{ kill $pid; fail "lab class hangs on a FIFO in a trainee's directory"; }
wait $pid
grep -q "^mallory  *where " "$T/class.out" && grep -q "^eve  *where " "$T/class.out" &&
	! grep -q "^\(mallory\|eve\)  *where  *passed" "$T/class.out" ||
	{ cat "$T/class.out"; nope "lab class: a FIFO's trainee is not failed"; }

# the image of a lab start without its state, or with another lab's
start journal "$T/s"
rm -f "$T/s/journal.state"
gamed journal "$T/s/journal.img" "scenario" "journal: no lab state"

# lab start does not overwrite a worked scenario; --force clears it
start fragfiles "$T/r"
lab_solve fragfiles "$T/r" >/dev/null 2>&1
cp "$T/r/fragfiles.img" "$T/r.worked"
touch "$T/r/e2layout-fragfiles.img-20260101-000000.e2undo"
"$E2LAYOUT" lab start fragfiles "$T/r" </dev/null >/dev/null 2>&1 && nope "lab start overwrote a worked scenario"
cmp -s "$T/r/fragfiles.img" "$T/r.worked" || nope "lab start changed the worked image"
"$E2LAYOUT" lab start fragfiles "$T/r" --force </dev/null >/dev/null 2>&1 || nope "lab start --force refused"
[ -e "$T/r/fragfiles.answers" ] && nope "lab start --force kept the stale answers"
[ -e "$T/r/e2layout-fragfiles.img-20260101-000000.e2undo" ] && nope "lab start --force kept the stale undo file"
"$E2LAYOUT" lab check fragfiles "$T/r/fragfiles.img" >/dev/null 2>&1 && nope "the rebuilt scenario passes"

# no solution in the binary
n=$(strings "$E2LAYOUT" | grep -c "^solution:")
[ "$n" = 0 ] || nope "strings shows $n solution: lines"

# ... nor the checks, nor which choice of a "why" question is right
n=$(strings "$E2LAYOUT" | grep -c "^check: \|^claim: \|^choice\[")
[ "$n" = 0 ] || nope "strings shows $n check:, claim: or choice lines"
strings "$E2LAYOUT" | grep -q "60-byte i_block" &&
	nope "strings shows the extents lab's right choice"

# a why question's right letter is the trainee's own: "why = a" (or any
# one letter) does not pass for every trainee, nor does a classmate's
# letter where the two differ; the letter read off the trainee's own text
# (lab show NAME DIR) passes
letters=""
for who in alice bob carol dave erin frank; do
	start extents "$T/w-$who" "$who"
	l=$("$E2LAYOUT" lab show extents "$T/w-$who" |
	    sed -n 's/^ *\([a-f]\)\. the inode.s 60-byte i_block.*/\1/p')
	[ -n "$l" ] || fail "lab show extents DIR lists no choices for $who"
	eval "letter_$who=$l"
	case $letters in *"$l"*) ;; *) letters="$letters$l" ;; esac
done
[ ${#letters} -ge 2 ] || nope "six trainees share the right letter $letters"
for who in alice bob carol dave erin frank; do
	eval "l=\$letter_$who"
	echo "why = $l" > "$T/w-$who/own"
	"$E2LAYOUT" lab check extents "$T/w-$who/extents.img" \
		--answers "$T/w-$who/own" > "$T/w.out" 2>&1
	grep -q "NOT MET answer why\|NOT MET why" "$T/w.out" &&
		{ cat "$T/w.out"; fail "$who's own letter $l fails the why check"; }
	for x in a b c; do
		[ "$x" = "$l" ] && continue
		echo "why = $x" > "$T/w-$who/other"
		"$E2LAYOUT" lab check extents "$T/w-$who/extents.img" \
			--answers "$T/w-$who/other" > "$T/w.out" 2>&1
		grep "NOT MET" "$T/w.out" | grep -q "why" ||
			{ cat "$T/w.out"; nope "why = $x passes for $who (right: $l)"; }
	done
done
echo "ok: the right letter of extents' why differs between trainees ($letters)"

[ -z "$bad" ] || fail "these attempts passed:$bad"
echo "lab cheats test passed"
exit 0
