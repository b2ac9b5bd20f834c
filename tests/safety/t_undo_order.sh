#!/bin/sh
# t_undo_order.sh - the undo file is durable before the write it protects:
# under strace, after every record written to the undo file (its key blocks
# and saved data, past its first two blocks) an fdatasync or fsync of the
# undo file comes before the next write to the image, for a defrag and a
# journal relocation; and the undo file then restores the image through
# the real e2undo.  (libext2fs's undo manager wrote the image right after
# its records, with no sync between.)
. "$(dirname "$0")/../lib/testlib.sh"
command -v strace >/dev/null 2>&1 || skip "strace is not installed"
command -v e2undo >/dev/null 2>&1 || skip "e2undo is not installed: no oracle"

# order IMG REQUEST: applies REQUEST with an undo file under strace, then
# checks the order of the writes.
order() {
	cp --sparse=always "$1" "$T/c.img"
	rm -f "$T/u.e2undo"
	# LeakSanitizer cannot run under ptrace; the other tests check leaks
	# E2L_UNDO_NO_AHEAD: the presave in the apply's own thread, so that
	# the trace is one order to judge (the presave running ahead keeps
	# its order by published commits, which t_undo_ahead checks with
	# power losses)
	ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" E2L_UNDO_NO_AHEAD=1 \
	strace -f -y -e trace=pwrite64,pwritev,write,fdatasync,fsync \
		-o "$T/st.txt" "$E2LAYOUT" -w -R "$2 --undo $T/u.e2undo" \
		"$T/c.img" > "$T/out" 2>&1 ||
		{ cat "$T/out"; fail "$2: the apply failed"; }
	awk -v img="$T/c.img" -v undo="$T/u.e2undo" '
	function path(s) {
		if (!match(s, /\(([0-9]+)<[^>]*>/))
			return ""
		s = substr(s, RSTART, RLENGTH)
		sub(/^\([0-9]+</, "", s); sub(/>$/, "", s)
		return s
	}
	/ (pwrite64|pwritev|write)\(/ {
		p = path($0)
		if (p == undo) {
			if (match($0, /, [0-9]+\) += [0-9]+$/)) {
				o = substr($0, RSTART + 2)
				sub(/\).*/, "", o)
				if (o + 0 >= 8192) { dirty = 1; recs++ }
			}
		} else if (p == img) {
			imgw++
			if (dirty) { bad++; if (!first) first = NR }
		}
		next
	}
	/ (fdatasync|fsync)\(/ { if (path($0) == undo) { dirty = 0; syncs++ } }
	END {
		printf "%d records, %d undo syncs, %d image writes, %d unprotected\n",
		       recs, syncs, imgw, bad
		if (first) printf "first unprotected image write: line %d\n", first
		exit (bad > 0 || recs == 0 || imgw == 0 || syncs == 0)
	}' "$T/st.txt" > "$T/verdict" ||
		{ cat "$T/verdict"; fail "$2: the image was written before its undo records were durable"; }
	e2undo "$T/u.e2undo" "$T/c.img" > "$T/undo.out" 2>&1 ||
		{ cat "$T/undo.out"; fail "$2: e2undo refused the undo file"; }
	cmp -s "$T/c.img" "$1" || fail "$2: e2undo did not restore the image byte for byte"
	echo "ok: $2: $(cat "$T/verdict")"
}

# a file in several extents, over blocks that held data before
mke2fs -q -F -t ext4 -b 4096 "$T/f.img" 16M >/dev/null 2>&1 || fail "mke2fs"
head -c 8000000 /dev/urandom > "$T/fill"
debugfs -w -R "write $T/fill fill" "$T/f.img" >/dev/null 2>&1
debugfs -w -R "rm fill" "$T/f.img" >/dev/null 2>&1
i=1
while [ $i -le 10 ]; do
	head -c 200000 /dev/urandom > "$T/p$i"
	echo "write $T/p$i f$i"
	i=$((i + 1))
done | debugfs -w "$T/f.img" >/dev/null 2>&1
printf 'rm f%s\n' 1 3 5 7 9 | debugfs -w "$T/f.img" >/dev/null 2>&1
cat "$T/p1" "$T/p3" "$T/p5" "$T/p7" > "$T/big"
debugfs -w -R "write $T/big big" "$T/f.img" >/dev/null 2>&1
fsck_clean "$T/f.img" || fail "the generated image is not clean"
order "$T/f.img" "defrag /big"
cp "$E2L_IMAGES/ext4.img" "$T/j.img"
order "$T/j.img" "journal_relocate --start"
exit 0
