#!/bin/sh
# t_fsck_gate_tui.sh - the TUI's apply screen shows the consistency check
# before the writes: "checking the filesystem (e2fsck -fn) NN%" fed by
# e2fsck's -C progress (here a wrapper that reports pass 1 half done and
# waits for the test), then the apply, verified; e2fsck -fn clean after.
. "$(dirname "$0")/../lib/testlib.sh"
. "$(dirname "$0")/../lib/tmux.sh"
for tool in debugfs e2fsck mkfifo; do
	command -v $tool >/dev/null 2>&1 || skip "$tool is missing"
done
orig=${E2L_IMAGES:-}/demo.img
[ -f "$orig" ] || skip "no demo image: TUI gate test skipped"
on_fail() { tmux_on_fail; echo "--- stderr:"; cat "$T/err" 2>/dev/null; }

img=$T/fs.img
cp --sparse=always "$orig" "$img" || fail "cannot copy the demo image"
# written since its last check: apply must run e2fsck first
debugfs -w -R "ssv mnt_count 1" "$img" >/dev/null 2>&1
# the wrapper: half of pass 1 on its progress descriptor, then waits
real=$(command -v e2fsck)
mkfifo "$T/go" || fail "mkfifo"
cat > "$T/wrap" <<EOF
#!/bin/sh
echo "\$*" >> "$T/calls"
[ "\$2" = -C ] && eval "echo '1 50 100 x' >&\$3"
read go < "$T/go"
exec "$real" "\$@"
EOF
chmod +x "$T/wrap"

tmux_start "cd '$T' && env E2LAYOUT_E2FSCK='$T/wrap' ASAN_OPTIONS='$ASAN_OPTIONS' LSAN_OPTIONS='$LSAN_OPTIONS' UBSAN_OPTIONS='${UBSAN_OPTIONS:-}' '$E2LAYOUT' -w '$img' 2>'$T/err'; echo \$? > '$T/rc'; sleep 30"
wait_for "owner scan: complete" "the owner scan never completed" 30
keys 4; wait_for "Journal inode <8>" "journal view"
keys e 2; wait_for "Plan: journal_relocate of inode 8" "no plan screen"
keys a; wait_for "Type yes" "no yes prompt"
keys y e s Enter
wait_for "checking the filesystem (e2fsck -fn) 35%" "no check progress on the apply screen"
grep -q "blocks written" "$T/screen" && fail "writing began before the check ended"
echo go > "$T/go"
wait_for "Applied and verified" "not applied and verified after the check"
wait_for "checking the filesystem (e2fsck -fn $img)" \
	"the result does not say the filesystem was checked"
keys Enter q
wait_file "$T/rc" "the TUI did not quit"
[ "$(cat "$T/rc" 2>/dev/null)" = 0 ] || fail "exit status $(cat "$T/rc" 2>/dev/null)"
[ "$(wc -l < "$T/calls")" = 1 ] || fail "e2fsck ran $(wc -l < "$T/calls") times"
fsck_clean "$img" || { cat "$T/fsck.out"; fail "e2fsck after the TUI apply"; }
echo "ok: the TUI showed e2fsck's progress, then applied"
exit 0
