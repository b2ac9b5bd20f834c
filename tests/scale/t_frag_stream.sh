#!/bin/sh
# t_frag_stream.sh - `frag` reads the block bitmap group by group when the
# session has not loaded it (bounded memory); its answers are those of the
# loaded bitmap (the same request after `owner 0` loaded it) on the test
# images and on e2fsprogs's corpus (BLOCK_UNINIT groups, damaged bitmaps,
# 1 KiB blocks, meta_bg), and a bitmap failing its checksum is told as the
# dispatcher tells it, with the same exit status.
. "$(dirname "$0")/../lib/testlib.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${E2L_CORPUS:-$top/../shared/corpus/e2fsprogs-tests}
printf 'owner 0\nfrag\n' > "$T/loaded"
n=0
# Under ASan the run is slower: one corpus image in four.
step=1
case "${E2L_BUILD:-}" in *asan*) step=4 ;; esac
k=0
for src in "$E2L_IMAGES"/*.img "$corpus"/*.img.gz; do
	[ -f "$src" ] || continue
	case $src in
	*.gz)	k=$((k + 1))
		[ $((k % step)) = 0 ] || continue
		gzip -dc "$src" > "$T/i.img" 2>/dev/null || continue ;;
	*)	cp "$src" "$T/i.img" ;;
	esac
	name=$(basename "$src")
	"$E2LAYOUT" -R frag "$T/i.img" > "$T/s.out" 2> "$T/s.err"
	rc=$?
	# a filesystem that does not open says so before the script's echo
	grep -q 'while trying to open\|journal device' "$T/s.err" && continue
	"$E2LAYOUT" -f "$T/loaded" "$T/i.img" > "$T/l.all" 2> "$T/l.err"
	sed '1,/^debugfs: frag$/d' "$T/l.all" > "$T/l.out"
	if [ $rc -eq 0 ]; then
		cmp -s "$T/s.out" "$T/l.out" ||
			check "$name: frag differs from the loaded bitmap's:" \
			      "$(diff "$T/s.out" "$T/l.out" | head -4)"
	else
		# the same error as with the bitmap asked for first (a
		# bitmap failing its checksum fails `owner 0` too, then
		# frag as the dispatcher tells it)
		grep '^frag: ' "$T/l.err" > "$T/l.frag"
		grep '^frag: ' "$T/s.err" | cmp -s - "$T/l.frag" ||
			check "$name: frag failed (exit $rc) with" \
			      "'$(cat "$T/s.err")', loaded: '$(cat "$T/l.err")'"
	fi
	n=$((n + 1))
done
[ "$n" -gt 10 ] || fail "only $n images compared"
checks_done
echo "ok: frag read group by group answers as the loaded bitmap on $n images"
