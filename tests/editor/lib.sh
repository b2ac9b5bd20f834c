# lib.sh - shared helpers for the layout-editor tests (sourced, not run):
# fragmented test images made with the real mke2fs/debugfs/tune2fs, content
# checksums through debugfs, and e2fsck verdicts.
. "$(dirname "$0")/../lib/testlib.sh"	# T, fail, skip, LSAN settings

# Random payload files f1..fN of about 1 MB, made once per test.
mk_payload() {
	mkdir -p "$T/payload"
	i=1
	while [ $i -le "$1" ]; do
		head -c $((900000 + i * 1000)) /dev/urandom > "$T/payload/f$i"
		i=$((i + 1))
	done
}

# mk_frag IMG TYPE SIZE BLOCKSIZE JSIZE: fills the filesystem with files,
# deletes every other one, then adds a journal (when JSIZE) that falls into
# the holes, and a 3 MB file "big" that is fragmented too.
mk_frag() {
	img=$1; type=$2; size=$3; bs=$4; js=$5
	n=${NFILES:-40}
	[ -d "$T/payload" ] || mk_payload "$n"
	case $type in
	ext4) opts="-t ext4 -O ^has_journal -G 512" ;;
	ext3) opts="-t ext3 -O ^has_journal" ;;
	*) opts="-t ext2" ;;
	esac
	# shellcheck disable=SC2086
	mke2fs -q -F $opts -b "$bs" "$img" "$size" >/dev/null 2>&1 ||
		fail "mke2fs $opts"
	i=1
	while [ $i -le "$n" ]; do
		echo "write $T/payload/f$i f$i"
		i=$((i + 1))
	done | debugfs -w "$img" >/dev/null 2>&1
	i=1
	while [ $i -le "$n" ]; do
		echo "rm f$i"
		i=$((i + 2))
	done | debugfs -w "$img" >/dev/null 2>&1
	if [ "$js" != 0 ]; then
		tune2fs -J size="$js" "$img" >/dev/null 2>&1 || fail "tune2fs -J"
	fi
	cat "$T/payload/f1" "$T/payload/f3" "$T/payload/f5" > "$T/big"
	debugfs -w -R "write $T/big big" "$img" >/dev/null 2>&1
	e2fsck -fn "$img" >/dev/null 2>&1 || fail "the generated $img is not clean"
}

# sums IMG OUT: md5 of every file's contents (and of the journal's
# superblock: the log itself holds the editor's own transactions, and
# s_sequence, s_start and the checksum move with them), read with debugfs -c
# so that a bitmap left half-written by a crash does not keep debugfs from
# reading the files.
sums() {
	rm -rf "$T/dump"
	mkdir -p "$T/dump"
	debugfs -c -R "rdump / $T/dump" "$1" >/dev/null 2>&1
	(cd "$T/dump" && find . -type f | LC_ALL=C sort | xargs md5sum) > "$2"
	if debugfs -c -R "stat <8>" "$1" 2>/dev/null | grep -q "Size: [1-9]"; then
		debugfs -c -R "dump <8> $T/journal.bin" "$1" >/dev/null 2>&1
		{ dd if="$T/journal.bin" bs=1 count=24 2>/dev/null
		  dd if="$T/journal.bin" bs=4 skip=8 count=55 2>/dev/null
		} | md5sum | sed 's/-$/<8>/' >> "$2"
	fi
	[ -s "$2" ] || fail "no file contents dumped from $1"
}

# Number of extents (leaf lines) of a file per the real debugfs.
extents() {
	debugfs -R "ex $2" "$1" 2>/dev/null | awk 'NR > 1 && $1 ~ /\/$/ {
		if ($1 + 0 == $2 + 0) n++ } END { print n + 0 }'
}

# Whether debugfs "blocks" lists one consecutive run.
contiguous() {
	debugfs -R "blocks $2" "$1" 2>/dev/null | tr ' ' '\n' | awk 'NF {
		if (p && $1 != p + 1) bad = 1; p = $1 } END { exit bad }'
}

# e2fsck -fn verdict: 0 clean, 1 only leaked blocks (marked in use, owned by
# nobody, with the counters or bitmap checksum of that update: the crash
# window between allocation and release), 2 anything else.
fsck_verdict() {
	if e2fsck -fn "$1" > "$T/fsck.out" 2>&1; then
		return 0
	fi
	if grep -v -e '^Pass ' -e '^e2fsck ' -e 'files (' -e '^Fix? no' \
		-e '^Block bitmap differences: *\(-[(0-9][-0-9)]* *\)*$' \
		-e '^Free blocks count wrong' -e '^$' -e 'WARNING' \
		-e 'block bitmap does not match checksum' -e '^IGNORED' \
		-e '^\*\*\*\*' "$T/fsck.out" | grep -q .; then
		return 2
	fi
	return 1
}

# crash_check IMG WHAT: a crashed apply's image as a mount would see it
# (its journal replayed): e2fsck -fn clean or with leaked blocks only, and
# every file's contents as in $T/want.md5.
crash_check() {
	e2fsck -E journal_only -y "$1" >/dev/null 2>&1
	fsck_verdict "$1"
	[ $? -eq 2 ] && { cat "$T/fsck.out"; fail "$2: e2fsck found damage"; }
	sums "$1" "$T/got.md5"
	cmp -s "$T/want.md5" "$T/got.md5" || fail "$2: contents changed"
	return 0
}

# fault_points IMG REQUEST WHAT K...: runs REQUEST with -w on a fresh copy
# of IMG ($T/c.img) with E2L_FAULT_WRITES=K, for each K in turn until the
# apply completes; each crash (exit 86) must pass crash_check, any other
# exit fails.  Sets rc (the last exit status) and crashes (how many).
fault_points() {
	fp_img=$1; fp_req=$2; fp_what=$3; shift 3
	crashes=0
	for k in "$@"; do
		cp "$fp_img" "$T/c.img"
		E2L_FAULT_WRITES=$k "$E2LAYOUT" -w -R "$fp_req" "$T/c.img" \
			> "$T/out" 2>&1
		rc=$?
		[ $rc -eq 0 ] && break
		[ $rc -eq 86 ] || { cat "$T/out"; fail "$fp_what: k=$k exit $rc"; }
		crash_check "$T/c.img" "$fp_what: k=$k"
		crashes=$((crashes + 1))
	done
}

# applied_check IMG WHAT: after a completed apply, e2fsck -fn is clean and
# every file's contents are as in $T/want.md5.
applied_check() {
	e2fsck -fn "$1" > "$T/fsck.out" 2>&1 ||
		{ cat "$T/fsck.out"; fail "$2: e2fsck -fn"; }
	sums "$1" "$T/got.md5"
	cmp -s "$T/want.md5" "$T/got.md5" || fail "$2: contents changed"
}
