#!/bin/sh
# t_owner_probe_corpus.sh - `owner -a` of many blocks at once (the probe scan
# with its bucket map, no index) gives the very answers the full index
# gives, every claimant included, on e2fsprogs images chosen for the edge
# cases of pruning: extent index and leaf blocks, trees deeper than one
# level, indirect blocks, xattr blocks, blocks claimed twice, bigalloc
# clusters, inodes in INODE_UNINIT groups and damaged trees.  Each inode
# debugfs icheck names for a block is one of owner's claimants.
. "$(dirname "$0")/../lib/testlib.sh"

command -v debugfs >/dev/null || skip "no debugfs"
top=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${E2L_CORPUS:-$top/../shared/corpus/e2fsprogs-tests}
[ -f "$corpus/f_extents.img.gz" ] || skip "no corpus at $corpus"

n=0
for name in f_extents f_extents2 f_extent_too_deep f_collapse_extent_tree \
	    f_compress_extent_tree_level f_extent_int_bad_csum \
	    f_extent_leaf_bad_csum f_extent_bad_node f_holedir \
	    f_ind_inode_collision f_messy_inode f_ea_checks f_clear_xattr \
	    f_file_acl_high f_dup f_dup2 f_dup_ba f_badcluster \
	    f_bigalloc_symlink_with_xattr f_uninit_inode_past_unused \
	    f_uninit_set_inode_not_set f_uninit_cat f_dir_bad_csum; do
	[ -f "$corpus/$name.img.gz" ] || fail "$name is not in the corpus"
	gzip -dc "$corpus/$name.img.gz" > "$T/i.img"
	nb=$(dumpe2fs -h "$T/i.img" 2>/dev/null |
	     awk -F: '/^Block count/ {print $2 + 0}')
	[ -n "$nb" ] || fail "$name: no block count"
	# every block up to 4000, then about 4000 more spread evenly
	awk -v n="$nb" 'BEGIN { st = int((n - 4000) / 4000); if (st < 7) st = 7
				 for (b = 0; b < n; b += (b < 4000 ? 1 : st))
				 print b }' > "$T/blocks"
	blocks=$(tr '\n' ' ' < "$T/blocks")
	"$E2LAYOUT" -R "owner -a $blocks" "$T/i.img" > "$T/probe" 2>&1 ||
		fail "$name: owner failed: $(tail -1 "$T/probe")"
	{ echo "map 0-0"; xargs -n 200 echo owner < "$T/blocks"; } \
		> "$T/script"
	"$E2LAYOUT" -f "$T/script" "$T/i.img" 2>&1 |
		grep '^[0-9]*: ' > "$T/index"
	cmp -s "$T/probe" "$T/index" ||
		fail "$name: the probe scan and the index differ:" \
		     "$(diff "$T/probe" "$T/index" | head -5)"
	# every claimant: "B INO" from the first line and the "also" lines
	sed -n 's/^\([0-9]*\): \(also \)\{0,1\}.*, inode \([0-9]*\).*/\1 \3/p' \
		"$T/probe" | sort -u > "$T/ours"
	debugfs -R "icheck $blocks" "$T/i.img" 2>/dev/null |
		awk 'NR > 1 && $2 ~ /^[0-9]+$/ && $2 != 7 { print $1, $2 }' |
		sort -u > "$T/icheck"
	# (not where owner skips an inode as corrupt: icheck still names
	# the blocks of f_extents2's extent past the end of the device)
	missing=$(comm -23 "$T/icheck" "$T/ours" | head -3 | tr '\n' ' ')
	"$E2LAYOUT" -R frag "$T/i.img" 2>/dev/null |
		grep -q '^Skipped [0-9]* corrupted inode' && missing=""
	[ -z "$missing" ] ||
		check "$name: icheck names $missing; owner does not"
	n=$((n + $(wc -l < "$T/blocks")))
done
checks_done
echo "ok: $n blocks asked at once and one by one from the index"
