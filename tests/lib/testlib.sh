# testlib.sh - helpers every script test sources (not run): fail/check/skip,
# a private temporary directory removed on exit, and the real e2fsprogs
# oracles (is an image clean, the checksum of every file in it).
# Usage: . "$(dirname "$0")/../lib/testlib.sh"   (sets T, the temp dir)
set -u
: "${E2LAYOUT:?}"
T=$(mktemp -d "${TMPDIR:-/tmp}/e2l-test.XXXXXX")
# On exit: the script's own cleanup() when it defines one (a tmux server, a
# mount), then $T.  An interrupt exits 2 through the same path.
e2l_exit() {
	if command -v cleanup >/dev/null 2>&1; then cleanup; fi
	rm -rf "$T"
}
trap e2l_exit EXIT
trap 'exit 2' INT TERM
# undo files of applied plans land here, not beside the shared images
export E2LAYOUT_UNDO_DIR="$T"
# libext2fs's own leaks on the apply path (tests/lib/lsan.supp says which);
# slow unwinding lets the suppression see through libext2fs's frames
LSAN_OPTIONS="suppressions=$(cd "$(dirname "$0")/../lib" && pwd)/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
export LSAN_OPTIONS ASAN_OPTIONS

# fail MSG: the test fails now.  A script with more to show (the screen, a
# log) defines on_fail(), whose output comes first: the FAIL line is last.
fail() {
	if command -v on_fail >/dev/null 2>&1; then on_fail; fi
	echo "FAIL: $*"
	exit 1
}
# check MSG: a failure noted, the test goes on (it checks the rest);
# checks_done exits 1 after saying how many, when there were any.
nchecks_failed=0
check() {
	if command -v on_fail >/dev/null 2>&1; then on_fail; fi
	echo "FAIL: $*"
	nchecks_failed=$((nchecks_failed + 1))
}
checks_done() {
	[ "$nchecks_failed" -eq 0 ] && return 0
	echo "$nchecks_failed check(s) failed"
	exit 1
}
# skip REASON: the test cannot run here (exit 77, the reason last).
skip() { echo "$*"; exit 77; }

# wait_until SECONDS WHAT CMD...: runs CMD every 0.1 s until it succeeds;
# fails with WHAT when it has not after SECONDS (what a test waits for, it
# polls: never a fixed sleep).
wait_until() {
	wu_end=$(( $(date +%s) + $1 )); wu_what=$2; shift 2
	until "$@"; do
		[ "$(date +%s)" -lt "$wu_end" ] || fail "$wu_what"
		sleep 0.1
	done
}

# pane_has "TMUX-COMMAND" PATTERN: the pane of session s on that tmux
# server shows a line matching PATTERN (for wait_until; a tmux server of a
# test's own, where tests/lib/tmux.sh's one server does not fit).
pane_has() { $1 capture-pane -p -t s 2>/dev/null | grep -q -- "$2"; }

# fsck_clean IMG: e2fsck -fn finds nothing (exit 0).
fsck_clean() { e2fsck -fn "$1" >"$T/fsck.out" 2>&1; }

# file_sums IMG: "md5 path" for every regular file, sorted, via the real
# debugfs (rdump into a fresh directory).
file_sums() {
	rm -rf "$T/sums.d"; mkdir "$T/sums.d"
	debugfs -R "rdump / $T/sums.d" "$1" >/dev/null 2>&1
	(cd "$T/sums.d" && find . -type f -exec md5sum {} + | sort -k2)
}

# page_cache_drop FILE: FILE's pages out of the page cache (this file's
# alone: written back, then dropped, asked again while some stay, up to 5
# s; a page whose buffers the journal still holds stays a while).  1 when
# pages remain or this cannot be done here (no dd iflag=nocache, fincore),
# 2 at once when FILE is on tmpfs (its pages are all it has).
page_cache_drop() {
	case "$(df -PT "$1" 2>/dev/null | awk 'NR == 2 { print $2 }')" in
	tmpfs|ramfs) return 2 ;;
	esac
	command -v fincore >/dev/null 2>&1 || return 1
	sync "$1" 2>/dev/null || sync
	pcd_end=$(( $(date +%s) + 5 ))
	while :; do
		dd if="$1" iflag=nocache count=0 status=none 2>/dev/null ||
			return 1
		[ "$(fincore -n -o PAGES "$1" 2>/dev/null | tr -d ' ')" = 0 ] &&
			return 0
		[ "$(date +%s)" -lt "$pcd_end" ] || return 1
		sleep 0.1
	done
}
