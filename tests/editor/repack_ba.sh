# repack_ba.sh - the bigalloc repack_flex checks shared by t_repack_bigalloc
# and t_repack_bigalloc1k (sourced after lib.sh, not run).  ba_case NAME
# BLOCK CLUSTER CPG makes a filesystem of several groups without flex_bg
# (each group's bitmaps and inode table share its clusters, files right
# after them), then:
#  1. repack-flex --all (the evacuations and the repack, one job): crash
#     points across the job, applied with an undo file and verified,
#     e2fsck -fn clean, every file's md5 unchanged, the bitmaps packed by
#     the block (several to a cluster, as mke2fs -G does), e2undo restoring
#     the image byte for byte;
#  2. on a copy whose island was evacuated first, repack-flex 0 alone with
#     a crash at every write (every other under ASan): after the journal is
#     replayed as a mount would, e2fsck -fn clean and every file intact.

# BA_EVERY (read by each ba_case): crash at every BA_EVERY-th write of the
# repack alone (1: each one); the sanitizer build takes every other one.

ba_files() {
	mkdir -p "$T/d/sub"
	i=1
	while [ $i -le 6 ]; do
		head -c $((70000 * i + 1234)) /dev/urandom > "$T/d/f$i"
		head -c $((3000 * i)) /dev/urandom > "$T/d/sub/s$i"
		i=$((i + 1))
	done
}

# the block bitmaps of flex group 0's groups one after another, then the
# inode bitmaps
ba_packed() {	# IMG GROUPS
	dumpe2fs "$1" 2>/dev/null | awk -v n="$2" '
	/^Group [0-9]+:/ { g = $2 + 0 }
	/Block bitmap at/ && g < n { bb[g] = $4 + 0 }
	/Inode bitmap at/ && g < n { ib[g] = $4 + 0 }
	END { for (g = 1; g < n; g++) if (bb[g] != bb[0] + g ||
		ib[g] != bb[0] + n + g) { print "group", g, bb[g], ib[g]; bad = 1 }
		if (ib[0] != bb[0] + n) bad = 1
		exit bad }'
}

# crash at write k of REQUEST on a copy of IMG: 0 crashed and checked,
# 1 the apply completed
ba_crash() {	# IMG REQUEST K WHAT
	cp --sparse=always "$1" "$T/c.img"
	E2L_FAULT_WRITES=$3 "$E2LAYOUT" -w -R "$2 --no-undo" "$T/c.img" \
		> "$T/out" 2>&1
	rc=$?
	[ $rc -eq 0 ] && return 1
	[ $rc -eq 86 ] || { cat "$T/out"; fail "$4: k=$3 exit $rc"; }
	e2fsck -E journal_only -y "$T/c.img" >/dev/null 2>&1	# as a mount
	fsck_verdict "$T/c.img"
	[ $? -eq 0 ] || { cat "$T/fsck.out"; fail "$4: k=$3 not clean after the journal's recovery"; }
	sums "$T/c.img" "$T/got.md5"
	cmp -s "$T/want.md5" "$T/got.md5" || fail "$4: k=$3 contents changed"
	return 0
}

ba_case() {	# NAME BLOCK CLUSTER CPG [,MORE_FEATURES]
	name=$1; img=$T/$1.img; more=${5:-}
	ba_stride=${BA_EVERY:-1}
	case "${E2L_BUILD:-}" in *asan*) ba_stride=$((ba_stride * 2)) ;; esac
	[ -d "$T/d" ] || ba_files
	mke2fs -q -F -t ext4 -O bigalloc,^flex_bg$more -b "$2" -C "$3" -g "$4" \
		-N 2048 -J size=4 -d "$T/d" "$img" 48M >/dev/null 2>&1 ||
		skip "mke2fs cannot make a bigalloc filesystem here ($name)"
	e2fsck -fn "$img" >/dev/null 2>&1 || fail "$name: the generated image is not clean"
	ngroups=$(dumpe2fs -h "$img" 2>/dev/null | awk '/^Block count/ { b = $3 }
		/^Blocks per group/ { g = $4 } END { print int((b + g - 1) / g) }')
	[ "$ngroups" -gt 16 ] && ngroups=16
	sums "$img" "$T/want.md5"
	cp --sparse=always "$img" "$T/orig.img"

	# 1. the whole job: files out of the island, then the repack
	"$E2LAYOUT" -R "repack-flex 0" "$img" > "$T/out" 2>&1 &&
		fail "$name: the island was free: nothing to evacuate"
	grep -q "holds .* blocks of file data" "$T/out" || { cat "$T/out"; fail "$name: refusal"; }
	crashes=0
	for k in 1 3 7 15 30 60 120 240 480 960; do
		ba_crash "$img" "repack-flex --all" $k "$name --all" || break
		crashes=$((crashes + 1))
	done
	[ $rc -eq 0 ] || fail "$name: the job never completed in the sweep"
	[ $crashes -ge 5 ] || fail "$name: only $crashes crash points"
	"$E2LAYOUT" -w -R "repack-flex --all --undo $T/u.e2undo" "$img" > "$T/out" 2>&1 ||
		{ cat "$T/out"; fail "$name: repack-flex --all apply"; }
	grep -q '^verified: flex group 0 packed' "$T/out" || { cat "$T/out"; fail "$name: not verified"; }
	grep '^verified' "$T/out" | grep -qv 'agree$' && { cat "$T/out"; fail "$name: a plan not verified"; }
	grep -q '^verify:' "$T/out" && { cat "$T/out"; fail "$name: verify complained"; }
	e2fsck -fn "$img" > "$T/fsck.out" 2>&1 || { cat "$T/fsck.out"; fail "$name: e2fsck"; }
	sums "$img" "$T/got.md5"
	cmp -s "$T/want.md5" "$T/got.md5" || fail "$name: contents changed"
	ba_packed "$img" "$ngroups" || fail "$name: the bitmaps are not packed"
	e2undo "$T/u.e2undo" "$img" >/dev/null 2>&1 || fail "$name: e2undo"
	cmp -s "$img" "$T/orig.img" || fail "$name: e2undo did not restore the image"
	rm -f "$T/u.e2undo"
	echo "ok: $name: repack-flex --all, $crashes crash points clean, verified, e2fsck clean, files unchanged, undone byte for byte"

	# 2. the repack alone, a crash at every write
	"$E2LAYOUT" -R "repack-flex 0" "$img" > "$T/out.r" 2>&1
	range=$(sed -n 's/.*free it first with: evacuate \([0-9-]*\)$/\1/p' "$T/out.r")
	[ -n "$range" ] || { cat "$T/out.r"; fail "$name: no evacuate range"; }
	# around the resize inode's block (the repack moves it, evacuate
	# does not) and the rest of its cluster
	dind=$(debugfs -R "stat <7>" "$img" 2>/dev/null | sed -n 's/.*(DIND):\([0-9]*\).*/\1/p')
	r=$(($3 / $2)); a=${range%-*}; b=${range#*-}
	parts="$a $b"
	if [ -n "$dind" ]; then
		c0=$((dind - dind % r)); c1=$((c0 + r))
		parts="$a $((c0 - 1))
$c1 $b"
	fi
	while read -r p0 p1; do
		[ "$p0" -le "$p1" ] || continue
		"$E2LAYOUT" -w -R "evacuate $p0-$p1 --no-undo" "$img" > "$T/out" 2>&1 ||
			{ cat "$T/out"; fail "$name: evacuate $p0-$p1"; }
	done <<EOF
$parts
EOF
	sums "$img" "$T/want.md5"
	k=1; crashes=0
	while [ $k -le 1000 ]; do
		ba_crash "$img" "repack-flex 0" $k "$name repack-flex 0" || break
		crashes=$((crashes + 1))
		k=$((k + ba_stride))
	done
	[ $rc -eq 0 ] || fail "$name: repack-flex 0 never completed"
	e2fsck -fn "$T/c.img" >/dev/null 2>&1 || fail "$name: the complete apply is not clean"
	ba_packed "$T/c.img" "$ngroups" || fail "$name: repack-flex 0 did not pack"
	echo "ok: $name: repack-flex 0 crashed at each of $crashes writes (every $ba_stride): journal replayed, e2fsck clean, files intact"
}
