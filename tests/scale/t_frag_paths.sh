#!/bin/sh
# t_frag_paths.sh - frag answers the same from its own scan (no index:
# per-file counts and a bounded heap of the worst files) as from the
# session's owner index, for the default top, a top the index keeps and
# one it does not (1500 > the 1024 it keeps), text and JSON.
. "$(dirname "$0")/../lib/testlib.sh"

n=0
for img in "$E2L_IMAGES"/*.img; do
	name=$(basename "$img")
	cp "$img" "$T/i.img"
	for top in 10 300 1500; do
		printf 'frag --top %s\nmap 0-0\nfrag --top %s\n' $top $top \
			> "$T/script"
		"$E2LAYOUT" -f "$T/script" "$T/i.img" > "$T/out" 2>&1 ||
			fail "$name: frag --top $top failed: $(tail -1 "$T/out")"
		# the two frag outputs, split at the echoed request lines
		awk -v d="$T" '/^debugfs: / { k++; next }
			k == 1 { print > (d "/a") } k == 3 { print > (d "/b") }' \
			"$T/out"
		[ -s "$T/a" ] || fail "$name: no frag output"
		cmp -s "$T/a" "$T/b" ||
			fail "$name --top $top: own scan and index differ:" \
			     "$(diff "$T/a" "$T/b" | head -5)"
		"$E2LAYOUT" -R "frag --top $top" "$T/i.img" > "$T/c" 2>&1
		cmp -s "$T/a" "$T/c" || fail "$name: -R and -f frag differ"
		rm -f "$T/a" "$T/b"
		n=$((n + 1))
	done
	"$E2LAYOUT" --json -f "$T/script" "$T/i.img" > "$T/j" 2>&1 ||
		fail "$name: frag --json failed"
	[ "$(grep -c '"command":"frag"' "$T/j")" -eq 2 ] ||
		fail "$name: expected two JSON frag documents"
	[ "$(grep '"command":"frag"' "$T/j" | sed 's/"elapsed[^,]*,//' |
	     sort -u | wc -l)" -eq 1 ] ||
		fail "$name: the JSON of own scan and index differ"
done
echo "ok: $n comparisons"
