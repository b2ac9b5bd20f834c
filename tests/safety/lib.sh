# lib.sh - what the safety tests share (sourced, not run): a small ext4 with
# files of known content made by the real mke2fs/debugfs, lies told to its
# block bitmap with the real debugfs (freeb; optionally with every free
# counter made to agree), where a file's blocks are, and the check that a
# refused request left the image byte for byte as it was.
. "$(dirname "$0")/../lib/testlib.sh"

# dfs IMG REQUEST: the real debugfs, read-write, quiet.
dfs() { debugfs -w -R "$2" "$1" >/dev/null 2>&1; }

# blocks IMG FILE: the physical blocks of FILE, one per line (debugfs).
blocks() { debugfs -R "blocks $2" "$1" 2>/dev/null | tr ' ' '\n' | grep .; }
first_blk() { blocks "$1" "$2" | head -1; }
last_blk() { blocks "$1" "$2" | sort -n | tail -1; }
nblocks() { blocks "$1" "$2" | wc -l | tr -d ' '; }

# owner_of IMG BLK: the inode owning BLK per debugfs icheck ("" if none).
owner_of() {
	debugfs -R "icheck $2" "$1" 2>/dev/null |
		awk -v b="$2" '$1 == b && $2 ~ /^[0-9]+$/ {print $2}'
}

# mk_files IMG [mke2fs options...]: a 32 MiB ext4 of 1 KiB blocks (4 groups,
# backup superblocks in groups 1 and 3) with a 1 MiB journal: a small file
# "small" and right after it a contiguous 1.5 MB "V", then twelve 100 KB
# files, every other one deleted again, and a fragmented "big" (400 KB) in
# their holes.
mk_files() {
	m_img=$1
	shift
	mkdir -p "$T/pay"
	i=1
	while [ $i -le 12 ]; do
		head -c 100000 /dev/urandom > "$T/pay/f$i"
		i=$((i + 1))
	done
	head -c 400000 /dev/urandom > "$T/pay/big"
	head -c 20000 /dev/urandom > "$T/pay/small"
	head -c 1500000 /dev/urandom > "$T/pay/V"
	mke2fs -q -F -t ext4 -b 1024 -J size=1 "$@" "$m_img" 32M \
		>/dev/null 2>&1 || fail "mke2fs $*"
	{
		echo "write $T/pay/small small"
		echo "write $T/pay/V V"
		i=1
		while [ $i -le 12 ]; do
			echo "write $T/pay/f$i f$i"
			i=$((i + 1))
		done
	} | debugfs -w "$m_img" >/dev/null 2>&1
	i=1
	while [ $i -le 12 ]; do
		echo "rm f$i"
		i=$((i + 2))
	done | debugfs -w "$m_img" >/dev/null 2>&1
	dfs "$m_img" "write $T/pay/big big"
	fsck_clean "$m_img" || { cat "$T/fsck.out"; fail "$m_img is not clean"; }
}

# lie IMG FIRST COUNT [agree]: marks FIRST..FIRST+COUNT-1 free in the block
# bitmap (debugfs freeb).  With "agree", every group's free count and the
# superblock's are then set to what the bitmap says (debugfs set_bg, ssv),
# so that only the files and the bitmap disagree (verified with e2fsck:
# no count differences are left).
lie() {
	dfs "$1" "freeb $2 $3"
	[ "${4:-}" = agree ] || return 0
	# (a group counts clusters, dumpe2fs lists cluster starts: blocks per
	# cluster on bigalloc)
	l_ratio=$(dumpe2fs -h "$1" 2>/dev/null | awk '
		/^Block size:/ {b = $3} /^Cluster size:/ {c = $3}
		END {print c && b ? c / b : 1}')
	dumpe2fs "$1" 2>/dev/null | awk -v ratio="$l_ratio" '
		/^Group [0-9]+:/ { g = $2; sub(":", "", g) }
		/^  Free blocks: / {
			n = 0; s = $0; sub(/^  Free blocks: */, "", s)
			k = split(s, r, ", *")
			for (i = 1; i <= k; i++) {
				if (r[i] == "") continue
				# (on bigalloc B is its last cluster start)
				if (split(r[i], ab, "-") == 2)
					n += (ab[2] - ab[1]) / ratio + 1
				else
					n++
			}
			printf "set_bg %s free_blocks_count %d\n", g, n
			printf "set_bg %s checksum calc\n", g
			t += n * ratio
		}
		END { printf "ssv free_blocks_count %d\n", t }' > "$T/agree.cmd"
	debugfs -w -f "$T/agree.cmd" "$1" >/dev/null 2>&1
	[ "$(dumpe2fs -h "$1" 2>/dev/null | sed -n 's/^Free blocks: *//p')" = \
	  "$(awk '/^ssv/ {print $3}' "$T/agree.cmd")" ] ||
		fail "could not make the counters of $1 agree"
	e2fsck -fn "$1" 2>&1 | grep -Ei "free blocks count wrong|Free blocks count" &&
		fail "the free counters of $1 still disagree"
	return 0
}

# refused NAME IMG WANT REQUEST...: each request (a -w session) must fail,
# print every pattern of WANT (grep -E patterns separated by ";") and
# "e2fsck -f", and leave IMG unchanged.
refused() {
	r_name=$1; r_img=$2; r_want=$3
	shift 3
	cp "$r_img" "$T/before.img"
	for r_req in "$@"; do
		if "$E2LAYOUT" -w -R "$r_req" "$r_img" > "$T/out" 2>&1 \
		    < /dev/null; then
			cat "$T/out"
			fail "$r_name: \"$r_req\" was not refused"
		fi
		echo "$r_want" | tr ';' '\n' > "$T/want"
		while read -r r_w; do
			grep -Eq "$r_w" "$T/out" || { cat "$T/out"
				fail "$r_name: \"$r_req\": no \"$r_w\""; }
		done < "$T/want"
		grep -q "e2fsck -f" "$T/out" ||
			{ cat "$T/out"; fail "$r_name: \"$r_req\": no e2fsck advice"; }
		grep -Eq "Segmentation|AddressSanitizer|runtime error" \
			"$T/out" && { cat "$T/out"; fail "$r_name: crashed"; }
		cmp -s "$r_img" "$T/before.img" ||
			fail "$r_name: \"$r_req\" changed the image"
	done
	echo "ok: $r_name"
}
