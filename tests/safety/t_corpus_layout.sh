#!/bin/sh
# t_corpus_layout.sh - every image of e2fsprogs's regression corpus (mostly
# deliberately damaged filesystems) through every layout operation with -w.
# Each outcome must be one of two: refused with a message and the image
# byte-identical (cmp), or applied with e2fsck -fn no worse than before and
# every file's content kept (checksums through the real debugfs).  Never a
# crash, a hang, a sanitizer report, or a change beside a refusal.
set -u
. "$(dirname "$0")/../lib/testlib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${E2L_CORPUS:-$top/../shared/corpus/e2fsprogs-tests}
[ -d "$corpus" ] || skip "skip: no e2fsprogs test-image corpus at $corpus"
command -v e2fsck >/dev/null || skip "skip: no e2fsck on PATH"
mkdir "$T/fail" "$T/res"
# Each image is worked on (copied, changed, rdumped: up to 47,000 files)
# in memory when the machine has a tmpfs, else under $T
S=$(mktemp -d /dev/shm/e2l-corpus.XXXXXX 2>/dev/null) || S=$T
cleanup() { [ "$S" = "$T" ] || rm -rf "$S"; }
export S

# The judge of one image: OP lines are run one at a time on a fresh copy.
cat > "$T/one.sh" <<'ONE'
#!/bin/sh
set -u
T=$1; img=$2; label=$3
w=$(dirname "$img")
export E2LAYOUT_UNDO_DIR="$w"
# e2fsck 1.47 -n loops for ever on two corpus images: the gate stops it
export E2LAYOUT_FSCK_STALL=5
cp "$img" "$w/orig"
# fsck IMG OUT: e2fsck -fn's verdict on IMG: its exit status, and its
# problem lines as a set in OUT.  On two corpus images e2fsck loops for
# ever, printing the same problems again: 2 MiB of output stop it (SIGXFSZ,
# exit 153; its last line, cut, is dropped), well before the timeout.
fsck() {
	( ulimit -f 2048; exec timeout 30 e2fsck -fn "$1" > "$w/fsck.raw" 2>&1 ) \
		2>/dev/null
	fr=$?
	[ $fr -eq 153 ] && sed -i '$d' "$w/fsck.raw"
	grep -a -v -e '^Pass ' -e '^e2fsck ' -e ': [0-9]*/[0-9]* files' \
		-e '^$' -e 'WARNING' "$w/fsck.raw" | sort -u > "$2"
	return $fr
}
sums() {
	d="$S/d.$$"
	rm -rf "$d"; mkdir "$d"
	timeout 20 debugfs -R "rdump / $d" "$1" >/dev/null 2>&1
	(cd "$d" && find . -type f ! -name e2l-sweep -exec md5sum {} + |
		sort -k2)
	rm -rf "$d"
}
# before: the untouched image's e2fsck verdict and file sums, made the
# first time an operation is applied (most images refuse every one)
before() {
	[ -f "$w/base" ] && return 0
	fsck "$w/orig" "$w/fsck.before"; echo $? > "$w/base"
	sums "$w/orig" > "$w/sums.before"
}
# what to move: the worst file, a range in the middle, the journal, group 0
worst=$(timeout 20 "$E2LAYOUT" --json -R "frag --top 1" "$w/orig" \
	2>/dev/null | sed -n 's/.*"worst":\[{"inode":\([0-9]*\).*/\1/p')
nblk=$(dumpe2fs -h "$w/orig" 2>/dev/null |
	sed -n 's/^Block count: *\([0-9]*\)$/\1/p')
ops="journal_relocate
journal_relocate --start
defrag <12>
prealloc /e2l-sweep 256K
repack_flex 0"
[ -n "$worst" ] && ops="$ops
defrag <$worst>"
[ -n "$nblk" ] && [ "$nblk" -gt 200 ] && ops="$ops
evacuate $((nblk / 2))-$((nblk / 2 + 63))"
# All of them in one -w session first: when every one is refused with a
# message and the image is unchanged, that is each one's verdict (and an
# MMP image waits for its MMP block once, not once per operation).
cp "$w/orig" "$w/img"
echo "$ops" > "$w/ops"
timeout -k 5 120 "$E2LAYOUT" -w -f "$w/ops" "$w/img" > "$w/out" 2> "$w/err" \
	< /dev/null
rc=$?
nops=$(grep -c . "$w/ops")
if [ $rc -eq 1 ] && cmp -s "$w/orig" "$w/img" &&
   ! grep -a -q -e AddressSanitizer -e 'runtime error' "$w/err" &&
   [ "$(grep -a -c . "$w/err")" -ge "$nops" ]; then
	i=0
	while [ $i -lt "$nops" ]; do
		echo "refused" >> "$T/res/$label"
		i=$((i + 1))
	done
	exit 0
fi
# Otherwise each operation alone, on a fresh copy, judged in full.
echo "$ops" | while IFS= read -r op; do
	cp "$w/orig" "$w/img"
	timeout -k 5 60 "$E2LAYOUT" -w -R "$op" "$w/img" \
		> "$w/out" 2> "$w/err" < /dev/null
	rc=$?
	why=""
	case $rc in
	0|1|3) ;;
	124|137) why="timed out (exit $rc)" ;;
	98|99) why="sanitizer report (exit $rc)" ;;
	*) why="exit status $rc" ;;
	esac
	grep -a -q -e AddressSanitizer -e 'runtime error' "$w/err" &&
		why="${why:+$why; }sanitizer report"
	if [ -z "$why" ] && [ $rc -ne 0 ]; then
		[ -s "$w/err" ] || why="refused without a message"
		cmp -s "$w/orig" "$w/img" ||
			why="${why:+$why; }exit $rc (refused or failed) but the image changed"
		[ -z "$why" ] && echo "refused" >> "$T/res/$label"
	elif [ -z "$why" ]; then
		if cmp -s "$w/orig" "$w/img"; then
			echo "unchanged" >> "$T/res/$label"
		else
			echo "applied" >> "$T/res/$label"
			before; base=$(cat "$w/base")
			fsck "$w/img" "$w/fsck.after"; after=$?
			if [ $base -eq 0 ] && [ $after -ne 0 ]; then
				why="applied to a clean image, e2fsck -fn now exits $after"
			elif [ -n "$(comm -13 "$w/fsck.before" "$w/fsck.after")" ]; then
				why="applied; e2fsck -fn reports new problems: $(comm -13 "$w/fsck.before" "$w/fsck.after" | head -3 | tr '\n' '|')"
			fi
			sums "$w/img" > "$w/sums.after"
			cmp -s "$w/sums.before" "$w/sums.after" ||
				why="${why:+$why; }applied; file contents differ: $(diff "$w/sums.before" "$w/sums.after" | grep '^[<>]' | head -2 | tr '\n' '|')"
		fi
	fi
	if [ -n "$why" ]; then
		{
			echo "FAIL $label: $op: $why"
			tail -n 6 "$w/err" | cut -c1-200 | sed 's/^/  | /'
		} >> "$T/fail/$label"
	fi
	rm -f "$w"/*.e2undo
done
ONE

cat > "$T/batch.sh" <<'BATCH'
#!/bin/sh
set -u
T=$1; shift
for src in "$@"; do
	name=${src##*/}
	w="$S/w.$$"
	rm -rf "$w"; mkdir "$w"
	case "$src" in
	*.gz) gzip -dc "$src" > "$w/image" 2>/dev/null || continue ;;
	*.bz2) bzip2 -dc "$src" > "$w/image" 2>/dev/null || continue ;;
	*) continue ;;
	esac
	sh "$T/one.sh" "$T" "$w/image" "$name"
	rm -rf "$w"
done
BATCH

start=$(date +%s)
find "$corpus" -maxdepth 1 -type f \( -name '*.img.gz' -o -name '*.img.bz2' \
	-o -name 'image.gz' -o -name '*.gz' \) ! -name '*.tar.*' | sort -u |
	xargs -P2 -n 10 sh "$T/batch.sh" "$T"
secs=$(( $(date +%s) - start ))
nimg=$(ls "$T/res" | wc -l)
napplied=$(cat "$T/res"/* 2>/dev/null | grep -c '^applied$')
nrefused=$(cat "$T/res"/* 2>/dev/null | grep -c '^refused$')
nfail=$(cat "$T/fail"/* 2>/dev/null | grep -c '^FAIL')
if [ "$nfail" -gt 0 ]; then
	cat "$T/fail"/*
	echo "$nfail layout operations went wrong on $(ls "$T/fail" | wc -l) of $nimg images (${secs}s)"
	exit 1
fi
[ "$nimg" -ge 200 ] || fail "only $nimg images ran; is the corpus complete?"
# not a test that passes by refusing everything: clean corpus images exist
[ "$napplied" -gt 0 ] || fail "no operation was applied on any image"
echo "$nimg images: $napplied operations applied (e2fsck no worse, files kept)," \
     "$nrefused refused with the image unchanged (${secs}s)"
