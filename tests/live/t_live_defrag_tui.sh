#!/bin/sh
# t_live_defrag_tui.sh - live defrag in the TUI (tmux) on a loop-mounted
# ext4 made here: the worst-files view (5), e on the worst file, the live
# operation, the plan screen with the kernel's donor as its after, a typed
# "no" moves nothing, `yes` moves it (progress, "Applied and verified");
# filefrag shows fewer extents, the content is unchanged, e2fsck -fn clean.
. "$(dirname "$0")/ldf_lib.sh"
cleanup() { ldf_cleanup; }	# run by testlib's exit trap, after tmux's
. "$(dirname "$0")/../lib/tmux.sh"
on_fail() { tmux_on_fail; echo "--- stderr:"; cat "$T/err" 2>/dev/null; }

ldf_mount 64M "-b 4096"
ldf_frag 30 4 "$mnt/worst" "$mnt/other"
ldf_frag 10 4 "$mnt/worst" "$mnt/x"
sync
n0=$(nextents "$mnt/worst")
sum0=$(sha256sum < "$mnt/worst")
tmux_start -x 160 -y 50 \
	"env ASAN_OPTIONS='${ASAN_OPTIONS:-}' LSAN_OPTIONS='${LSAN_OPTIONS:-}' UBSAN_OPTIONS='${UBSAN_OPTIONS:-}' '$E2LAYOUT' '$mnt' 2>'$T/err'; echo \$? > '$T/rc'; sleep 30"
wait_for "LIVE" "no LIVE mark"
wait_for "owner scan: complete" "the owner scan never completed"
keys 5; wait_for "fragmented, score" "no frag view"
keys e; wait_for "Selection: file <$(stat -c %i "$mnt/worst")>" "e did not select the worst file"
wait_for "live defrag through the kernel" "no live operation in the menu"
wait_stable	# the whole menu, to see what it does not offer
grep -q "defrag: one contiguous run" "$SCREEN" && fail "offline defrag offered on a live view"
keys 1; wait_for "Live plan: defrag $mnt/worst" "no live plan screen"
wait_for "extents: $n0 before, 1 after" "the plan does not show the donor's extents"
wait_for "after: *[X#.]" "no after map"
keys a; wait_for "Type yes" "no yes prompt"
keys n o Enter; wait_for "cancelled: nothing was written" "typing no did not cancel"
[ "$(nextents "$mnt/worst")" = "$n0" ] || fail "a cancelled plan moved the file"
keys a; wait_for "Type yes" "no yes prompt (again)"
keys y e s Enter
wait_for "Applied and verified" "the live defrag was not applied and verified"
wait_for "Moved $mnt/worst: 1 extent now" "no check line on the result screen"
[ "$(nextents "$mnt/worst")" = 1 ] || fail "filefrag: $(nextents "$mnt/worst") extents after"
[ "$(sha256sum < "$mnt/worst")" = "$sum0" ] || fail "content changed"
keys Enter; keys q
wait_file "$T/rc" "the TUI did not quit"
[ "$(cat "$T/rc" 2>/dev/null)" = 0 ] || fail "exit status $(cat "$T/rc" 2>/dev/null)"
tmux_stop
ldf_umount
e2fsck -fn "$T/img" > "$T/fsck" 2>&1 || fail "e2fsck -fn: $(cat "$T/fsck")"
echo "live defrag TUI: e, plan screen, no cancels, yes moves, verified, fsck: ok"
exit 0
