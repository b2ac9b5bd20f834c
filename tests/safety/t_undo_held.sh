#!/bin/sh
# t_undo_held.sh - the metadata writes of one flush interval (bitmaps,
# descriptors, the inode's block, the journal's blocks) have their old
# contents saved in one batch: under strace, between two syncs of the image
# the undo file is made durable after new records at most once, for a
# defrag on a journaled ext4 and a journal relocation (the undo layer used
# to save and fdatasync before each of them: 5 in one interval); the image
# is never written while records are not durable (as t_undo_order), and
# e2undo restores it byte for byte.
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/../lib/undolib.sh"
command -v strace >/dev/null 2>&1 || skip "strace is not installed"
command -v e2undo >/dev/null 2>&1 || skip "e2undo is not installed: no oracle"

# held IMG REQUEST
held() {
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
		if (p == undo && match($0, /, [0-9]+\) += [0-9]+$/)) {
			o = substr($0, RSTART + 2)
			sub(/\).*/, "", o)
			if (o + 0 >= 8192) unsynced = 1	# a record
		} else if (p == img) {
			imgw++
			if (unsynced) bad++
		}
		next
	}
	/ (fdatasync|fsync)\(/ {
		p = path($0)
		if (p == undo) {
			if (unsynced) c++
			unsynced = 0
		} else if (p == img) {
			if (c > max) max = c
			c = 0; n++
		}
	}
	END {
		printf "%d image syncs, at most %d undo commits between two, %d image writes, %d unprotected\n",
		       n, max, imgw, bad
		exit (bad > 0 || max > 1 || n < 3 || imgw == 0)
	}' "$T/st.txt" > "$T/verdict" ||
		{ cat "$T/verdict"; fail "$2: the metadata writes of an interval were not saved in one batch, or unprotected"; }
	e2undo "$T/u.e2undo" "$T/c.img" > "$T/undo.out" 2>&1 ||
		{ cat "$T/undo.out"; fail "$2: e2undo refused the undo file"; }
	cmp -s "$T/c.img" "$1" || fail "$2: e2undo did not restore the image byte for byte"
	echo "ok: $2: $(cat "$T/verdict")"
}

# a file in six extents over blocks that held data before, on ext4 (the
# defrag's bitmaps, descriptors and inode go through the journal)
oldpieces "$T/f.img" 12000000 300000 0
bigfile "$T/f.img" big 3 1 3 5 7 9 11
held "$T/f.img" "defrag /big"
cp "$E2L_IMAGES/ext4.img" "$T/j.img"
held "$T/j.img" "journal_relocate --start"
exit 0
