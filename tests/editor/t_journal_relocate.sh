#!/bin/sh
# t_journal_relocate.sh - journal_relocate on a fragmented ext4 journal (and
# the demo image when there is one) and a block-mapped ext3 journal: one run
# per debugfs, e2fsck -fn clean, every file and the journal unchanged, plan
# files, and e2undo restoring the original byte for byte.
. "$(dirname "$0")/lib.sh"

check_relocate() {	# IMG GOALOPT
	img=$1; goal=$2
	cp --sparse=always "$img" "$T/orig.img"
	sums "$img" "$T/before.md5"
	before=$(extents "$img" "<8>")
	printf 'journal_relocate %s\napply\n' "$goal" |
		"$E2LAYOUT" -w -f - "$img" > "$T/out" 2>&1 ||
		{ cat "$T/out"; fail "journal_relocate $goal on $img"; }
	grep -q "^verified: inode 8" "$T/out" || fail "no verification line"
	undo=$(sed -n 's/^undo file: \([^ ]*\) .*/\1/p' "$T/out")
	[ -f "$undo" ] || fail "no undo file reported"
	e2fsck -fn "$img" >"$T/fsck" 2>&1 || { cat "$T/fsck"; fail "e2fsck after relocate"; }
	contiguous "$img" "<8>" || fail "journal not contiguous after relocate"
	sums "$img" "$T/after.md5"
	case $goal in
	*--size*)	# a resized journal's bytes differ; files must not
		grep -v '<8>$' "$T/before.md5" > "$T/b2"; mv "$T/b2" "$T/before.md5"
		grep -v '<8>$' "$T/after.md5" > "$T/a2"; mv "$T/a2" "$T/after.md5"
		want=$(echo "$goal" | sed 's/.*--size \([0-9]*\)M.*/\1/')
		dumpe2fs -h "$img" 2>/dev/null | grep -q "^Total journal size: *${want}M" ||
		dumpe2fs -h "$img" 2>/dev/null | grep -q "^Total journal size: *$((want * 1024))k" ||
			fail "journal size is not ${want}M" ;;
	esac
	cmp -s "$T/before.md5" "$T/after.md5" || fail "contents changed"
	e2undo "$undo" "$img" >/dev/null 2>&1 || fail "e2undo failed"
	cmp -s "$img" "$T/orig.img" || fail "e2undo did not restore $img"
	rm -f "$undo"
	echo "ok: $img $goal ($before extent(s) -> 1)"
}

mk_frag "$T/e4.img" ext4 64M 4096 8
[ "$(extents "$T/e4.img" "<8>")" -gt 4 ] || fail "test journal not fragmented"
check_relocate "$T/e4.img" ""
check_relocate "$T/e4.img" "--start"
check_relocate "$T/e4.img" "--goal 9000"
check_relocate "$T/e4.img" "--size 4M --start"

# The plan previewed read-only, saved, then applied by another process.
"$E2LAYOUT" -f - "$T/e4.img" > "$T/show" 2>&1 <<EOT || fail "plan show"
journal_relocate --middle
plan show --json
plan save $T/p.plan
EOT
grep -q '"extents_after":1' "$T/show" || fail "plan show --json"
grep -q "before: " "$T/show" || fail "no before/after map"
"$E2LAYOUT" -w -R "apply $T/p.plan --no-undo" "$T/e4.img" >"$T/out" 2>&1 ||
	{ cat "$T/out"; fail "apply FILE"; }
e2fsck -fn "$T/e4.img" >/dev/null 2>&1 || fail "e2fsck after apply FILE"
[ "$(extents "$T/e4.img" "<8>")" = 1 ] || fail "not one extent"
# The same plan again: the filesystem changed since, so it is refused.
"$E2LAYOUT" -w -R "apply $T/p.plan" "$T/e4.img" >"$T/out" 2>&1 &&
	fail "a stale plan was applied"
grep -q "changed since the plan" "$T/out" || { cat "$T/out"; fail "stale message"; }

# Block-mapped journal (ext3, 1 KiB blocks: indirect and double indirect).
mk_frag "$T/e3.img" ext3 64M 1024 4
check_relocate "$T/e3.img" "--start"
check_relocate "$T/e3.img" "--size 6M --start"

# The shared demo image (a journal in many extents), when it exists.
if [ -f "${E2L_IMAGES:-}/demo.img" ]; then
	cp --sparse=always "$E2L_IMAGES/demo.img" "$T/demo.img"
	check_relocate "$T/demo.img" ""
	rm -f "$T/demo.img"
else
	echo "note: no demo.img; demo case not run"
fi

# No room: a journal larger than any free run is refused with advice.
mke2fs -q -F -t ext4 -G 512 -J size=8 "$T/full.img" 32M >/dev/null 2>&1
head -c 20000000 /dev/urandom > "$T/fill"
debugfs -w -R "write $T/fill fill" "$T/full.img" >/dev/null 2>&1
"$E2LAYOUT" -R "journal_relocate" "$T/full.img" >"$T/out" 2>&1 &&
	fail "relocate without room succeeded"
grep -q "no free run of" "$T/out" || { cat "$T/out"; fail "no-room message"; }
grep -q "evacuate" "$T/out" || fail "no evacuate advice"
exit 0
