#!/bin/sh
# t_fsck_stall.sh - the consistency gate's e2fsck -fn may loop for ever on a
# damaged filesystem (e2fsck 1.47 restarts pass 1 endlessly on some corpus
# images): one whose progress gets no further for E2LAYOUT_FSCK_STALL
# seconds is stopped and the change refused, the image unchanged; one that
# is slow but keeps getting further is waited for.
. "$(dirname "$0")/../lib/testlib.sh"
mke2fs -q -F -t ext4 "$T/img" 8M >/dev/null 2>&1 || fail "mke2fs"
head -c 100000 /dev/urandom > "$T/f"
printf "write %s f\nssv lastcheck 20200101\n" "$T/f" | debugfs -w "$T/img" >/dev/null 2>&1
cp "$T/img" "$T/img.before"
# e2fsck stand-ins: the progress lines e2fsck -C writes to descriptor 3
cat > "$T/loops" <<'SH'
#!/bin/sh
while :; do printf '1 0 4 x\n1 1 4 x\n1 2 4 x\n' >&3; sleep 0.1; done
SH
cat > "$T/slow" <<'SH'
#!/bin/sh
i=0
while [ $i -lt 8 ]; do printf '1 %d 8 x\n' $i >&3; sleep 0.5; i=$((i + 1)); done
exit 0
SH
chmod +x "$T/loops" "$T/slow"
start=$(date +%s)
E2LAYOUT_E2FSCK="$T/loops" E2LAYOUT_FSCK_STALL=2 timeout 60 "$E2LAYOUT" -w \
	-R "prealloc /p 64K" "$T/img" > "$T/out" 2>&1 && {
	cat "$T/out"; fail "applied although e2fsck never finished"; }
secs=$(( $(date +%s) - start ))
grep -q "made no progress for 2 seconds and was stopped" "$T/out" ||
	{ cat "$T/out"; fail "no stall message"; }
[ $secs -lt 30 ] || fail "the stalled e2fsck was waited for ${secs}s"
cmp -s "$T/img" "$T/img.before" || fail "the image changed"
pgrep -f "$T/loops" >/dev/null && fail "the looping e2fsck was left running"
echo "ok: a looping e2fsck stopped after ${secs}s, nothing written"
E2LAYOUT_E2FSCK="$T/slow" E2LAYOUT_FSCK_STALL=2 timeout 60 "$E2LAYOUT" -w \
	-R "prealloc /p 64K" "$T/img" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "a slow but steady e2fsck was not waited for"; }
grep -q "applied the prealloc plan" "$T/out" || { cat "$T/out"; fail "not applied"; }
fsck_clean "$T/img" || { cat "$T/fsck.out"; fail "e2fsck -fn after the apply"; }
echo "ok: a slow e2fsck that keeps getting further is waited for (4 s > the 2 s limit)"
