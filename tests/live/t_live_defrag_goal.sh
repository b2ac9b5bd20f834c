#!/bin/sh
# t_live_defrag_goal.sh - live defrag's goals on a loop-mounted ext4 of 8
# groups without flex_bg: --group G makes the donor in a directory whose
# inode is in G (as stat shows), the file ends in the group the plan named
# (as filefrag shows), and the plan says so plainly when that is not G;
# the directory made for it goes afterwards; --near PATH uses PATH's group;
# a group past the last is refused.
. "$(dirname "$0")/ldf_lib.sh"
ldf_mount 64M "-b 1024 -O ^flex_bg -N 2048"
ipg=$(tune2fs -l "$T/img" | sed -n 's/^Inodes per group: *//p')
bpg=$(tune2fs -l "$T/img" | sed -n 's/^Blocks per group: *//p')
[ -n "$ipg" ] && [ -n "$bpg" ] || fail "no geometry from tune2fs"
ingroup() { echo $(( ($(stat -c %i "$1") - 1) / ipg )); }
firstgroup() {	# the group of the file's first block
	b=$(filefrag -v -b1024 "$1" | sed -n 's/^ *0: *[0-9]*\.\. *[0-9]*: *\([0-9]*\)\.\..*/\1/p')
	echo $(( (b - 1) / bpg ))
}
ldf_frag 16 4 "$mnt/f" "$mnt/g"
sum=$(sha256sum < "$mnt/f")

# check OUT FILE GOAL: the plan's claims against stat and filefrag.
check() {
	dir=$(sed -n 's/^  donor: an unlinked file in \(.*\) (its inode in group \([0-9]*\)).*/\1/p' "$1")
	dg=$(sed -n 's/^  donor: .* (its inode in group \([0-9]*\)).*/\1/p' "$1")
	mg=$(sed -n 's/^  donor: .* mostly in group \([0-9]*\)$/\1/p' "$1")
	[ -n "$dir" ] && [ -n "$dg" ] && [ -n "$mg" ] || fail "no donor line: $(cat "$1")"
	if [ -d "$dir" ]; then
		[ "$(ingroup "$dir")" = "$dg" ] || fail "$dir's inode is in group $(ingroup "$dir"), the plan says $dg"
	fi
	[ "$(firstgroup "$2")" = "$mg" ] || fail "$2 starts in group $(firstgroup "$2"), the plan said $mg"
	if [ "$mg" = "$3" ]; then
		grep -q "not in goal group" "$1" && fail "says elsewhere though in $3"
	else
		grep -q "the kernel placed it in group $mg, not in goal group $3" "$1" ||
			fail "donor in group $mg, goal $3, and nothing said: $(cat "$1")"
	fi
	[ "$(sha256sum < "$2")" = "$sum" ] || fail "content of $2 changed"
}

$E2LAYOUT -R "defrag f --group 5 --apply" "$mnt" > "$T/out" 2>"$T/err" ||
	fail "defrag --group 5: $(cat "$T/err") $(cat "$T/out")"
grep -q "^Moved $mnt/f: " "$T/out" || fail "not moved: $(cat "$T/out")"
check "$T/out" "$mnt/f" 5
ls -a "$mnt" | grep -q e2layout-donors && fail "a directory made for the goal was left"

# --near a directory in another group: that group's directory.
mkdir "$mnt/d1" "$mnt/d2" "$mnt/d3"
for d in d1 d2 d3; do [ "$(ingroup "$mnt/$d")" != 0 ] && near=$d && break; done
[ -n "${near:-}" ] || skip "every new directory landed in group 0: --near not tested"
ng=$(ingroup "$mnt/$near")
ldf_frag 16 4 "$mnt/f2" "$mnt/g"
sum=$(sha256sum < "$mnt/f2")
$E2LAYOUT -R "defrag f2 --near $near --apply" "$mnt" > "$T/out" 2>"$T/err" ||
	fail "defrag --near: $(cat "$T/err") $(cat "$T/out")"
grep -q "in $mnt/$near (its inode in group $ng)" "$T/out" || fail "--near $near (group $ng): $(cat "$T/out")"
check "$T/out" "$mnt/f2" "$ng"

$E2LAYOUT -R "defrag g --group 99" "$mnt" > "$T/out" 2>"$T/err" && fail "--group 99 accepted"
grep -q "groups 0-7" "$T/err" || fail "--group 99: $(cat "$T/err")"
ldf_umount
e2fsck -fn "$T/img" > "$T/fsck" 2>&1 || fail "e2fsck -fn: $(cat "$T/fsck")"
echo "live defrag goals: --group, --near, said when elsewhere, bad group: ok"
exit 0
