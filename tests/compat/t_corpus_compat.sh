#!/bin/sh
# t_corpus_compat.sh - debugfs compatibility on e2fsprogs's own regression
# images (../shared/corpus/e2fsprogs-tests, mostly corrupted filesystems):
# one script of read requests through the real debugfs and through
# e2layout on every image, standard output and standard error compared
# byte for byte.  Two differences are deliberate and normalised here:
# the program's name in "NAME: ... while trying to open" lines, and the
# images whose bitmaps fail their checksums, which debugfs refuses to open
# at all while e2layout opens them (it reads bitmaps only when a request
# needs them); those are counted, not compared.
set -u
: "${E2LAYOUT:?}"
top=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${E2L_CORPUS:-$top/../shared/corpus/e2fsprogs-tests}
[ -d "$corpus" ] || { echo "skip: no e2fsprogs test-image corpus at $corpus"; exit 77; }
command -v debugfs >/dev/null 2>&1 || { echo "skip: no debugfs"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/req" <<'REQ'
stats
stat <2>
stat <7>
stat <8>
stat <12>
ls -l /
ls -l /lost+found
ex <8>
ex <12>
blocks <2>
ffb
ffi
icheck 100
ncheck 12
filefrag -v /
lsdel
logdump
testb 1 20
imap <12>
bmap <2> 0
REQ
# Under ASan the run is slower: one image in four.
step=1
case "${E2L_BUILD:-}" in *asan*) step=4 ;; esac
n=0 same=0 skipped=0 jdevs=0 differ=""
for src in "$corpus"/*.img.gz; do
	n=$((n + 1))
	[ $((n % step)) = 0 ] || continue
	name=$(basename "$src" .gz)
	img=$tmp/$name
	gzip -dc "$src" > "$img" 2>/dev/null || { rm -f "$img"; continue; }
	# An external journal is looked for among the host's devices by
	# debugfs (what it finds depends on the machine): no logdump there.
	if dumpe2fs -h "$img" 2>/dev/null | grep -q '^Journal device:'; then
		grep -v '^logdump' "$tmp/req" > "$tmp/r"
	else
		cp "$tmp/req" "$tmp/r"
	fi
	( cd "$tmp" && timeout 60 debugfs -f r "$name" > d.out 2> d.err )
	( cd "$tmp" && timeout 60 "$E2LAYOUT" -f r "$name" > e.out 2> e.err )
	rc=$?
	[ $rc -le 3 ] || { cat "$tmp/e.err" | tail -5; echo "FAIL: $name: e2layout exit status $rc"; exit 1; }
	if grep -q "while reading allocation bitmaps" "$tmp/d.err"; then
		skipped=$((skipped + 1))
	elif dumpe2fs -h "$img" 2>/dev/null |
	     grep -q '^Filesystem features:.*journal_dev'; then
		# a journal device: debugfs says "unsupported feature(s)",
		# e2layout what it is (tests/open/t_journal_dev.sh)
		grep -q "this is an ext4 journal device" "$tmp/e.err" &&
			grep -q "^Journal device: " "$tmp/e.out" ||
			differ="$differ $name(journal-device-not-told)"
		jdevs=$((jdevs + 1))
	else
		grep -v '^debugfs 1\.47' "$tmp/d.err" |
			sed 's/^debugfs: \(.* while trying to open \)/e2layout: \1/' > "$tmp/d.err2"
		if cmp -s "$tmp/d.out" "$tmp/e.out" && cmp -s "$tmp/d.err2" "$tmp/e.err"; then
			same=$((same + 1))
		else
			differ="$differ $name"
			diff "$tmp/d.out" "$tmp/e.out" | head -10
			diff "$tmp/d.err2" "$tmp/e.err" | head -10
		fi
	fi
	rm -f "$img"
done
total=$(( (n / step) ))
echo "corpus: $same identical, $skipped with bad bitmap checksums (debugfs cannot open them), $jdevs journal devices (told, not opened), of $total images; $(wc -l < "$tmp/req") requests each"
[ -z "$differ" ] || { echo "FAIL: differ on:$differ"; exit 1; }
[ "$same" -gt 0 ] || { echo "FAIL: no image compared"; exit 1; }
exit 0
