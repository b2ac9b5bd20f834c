# testlib.sh - helpers every script test may source (not run): fail/skip,
# a private temporary directory removed on exit, and the real e2fsprogs
# oracles (is an image clean, the checksum of every file in it).
# Usage: . "$(dirname "$0")/../lib/testlib.sh"   (sets T, the temp dir)
set -u
: "${E2LAYOUT:?}"
T=$(mktemp -d "${TMPDIR:-/tmp}/e2l-test.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
# undo files of applied plans land here, not beside the shared images
export E2LAYOUT_UNDO_DIR="$T"
# libext2fs 1.47's undo manager leaks its bitmap (tests/tui/lsan.supp);
# slow unwinding lets the suppression see through libext2fs's frames
LSAN_OPTIONS="suppressions=$(cd "$(dirname "$0")/../tui" && pwd)/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
export LSAN_OPTIONS ASAN_OPTIONS

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "$*"; exit 77; }

# fsck_clean IMG: e2fsck -fn finds nothing (exit 0).
fsck_clean() { e2fsck -fn "$1" >"$T/fsck.out" 2>&1; }

# file_sums IMG: "md5 path" for every regular file, sorted, via the real
# debugfs (rdump into a fresh directory).
file_sums() {
	rm -rf "$T/sums.d"; mkdir "$T/sums.d"
	debugfs -R "rdump / $T/sums.d" "$1" >/dev/null 2>&1
	(cd "$T/sums.d" && find . -type f -exec md5sum {} + | sort -k2)
}
