# ladder.sh - the scale ladder of bench/run.sh (sourced, bash; issue 15):
# images of 100k, 1M, 3M (and, where the disk allows, 10M) files and a
# 2 TiB filesystem with files in all its 16,384 groups, made by
# images/genfs.c; on each rung the reads against their peers (ratios),
# the peak memory of each side and its growth from the rung before.
# Memory rows go to $W/ladder.tsv: rung, what, KiB.

# rung_block IMG: a data block of a file in the middle of the tree.
rung_block() {
	local img=$1 per=$2 d ndirs
	ndirs=$(debugfs -R "ls -p /" "$img" 2>/dev/null | grep -c '/d[0-9]')
	d=$((ndirs / 2))
	debugfs -R "bmap /$(printf 'd%05d' $d)/f0000-$((d * per)) 0" "$img" \
		2>/dev/null | tail -1
}

# rung_blocks IMG N: N blocks spread evenly over the device.
rung_blocks() {
	local n
	n=$(dumpe2fs -h "$1" 2>/dev/null | awk -F: '/^Block count/ {print $2+0}')
	awk -v n="$n" -v k="$2" 'BEGIN { for (i = 0; i < k; i++)
		printf "%d ", (i + 0.5) * n / k }'
}

# floor_script IMG: dd commands reading the block bitmaps and the in-use
# part of every inode table (adjacent ranges merged): the I/O floor of a
# scan that reads nothing else.
floor_script() {
	"$E2L" --json -R groups "$1" | jq -r --argjson ib \
		"$(dumpe2fs -h "$1" 2>/dev/null | awk -F: '/^Inodes per group/ {print $2+0}')" '
		.result as $r | ($r.inode_table_blocks) as $itb
		| ($r.columns | index("block_bitmap")) as $bb
		| ($r.columns | index("inode_table")) as $it
		| ($r.columns | index("itable_unused")) as $un
		| [ $r.groups[] | [.[$bb], 1],
		    (if (.[$un] < $ib) then [.[$it],
		       ((($ib - .[$un]) * ($itb / $ib)) | ceil)] else empty end) ]
		| sort_by(.[0])
		| reduce .[] as $x ([]; if length > 0 and
			(.[-1][0] + .[-1][1]) >= $x[0] then
			.[-1][1] = ([.[-1][1], $x[0] + $x[1] - .[-1][0]] | max)
			else . + [$x] end)
		| .[] | "\(.[0]) \(.[1])"' |
	awk -v img="$1" '{ printf "dd if=%s of=/dev/null bs=4096 skip=%d count=%d status=none\n", img, $1, $2 }'
}

lmem() {	# lmem RUNG WHAT CMD
	local kib
	kib=$(peak_kib "$3")
	printf '%s\t%s\t%s\n' "$1" "$2" "$kib" >> "$W/ladder.tsv"
	echo "  memory $1 $2: $kib KiB"
}

# lstep NAME WHAT: how long the step just done took (the log's record of
# what each row costs on each rung).
lstep() {
	echo "  [$1 $2: $((SECONDS - LSTEP_AT)) s]"
	LSTEP_AT=$SECONDS
}

# rung NAME DESC IMG PER_DIR RUNS [WARMUP]: the rows of one rung (one round
# of RUNS runs a command, after WARMUP runs, default 1; the cold round RUNS
# runs).
rung() {
	local name=$1 desc=$2 img=$3 per=$4 b blks tui frag
	local ROUNDS=1 RUNS=$5 WARMUP=${6:-$WARMUP} SRUNS SWARM SROUNDS=1
	# the pairs of e2layout against itself cost seconds a run even at
	# 10M: four rounds (the order swapped each) of three runs a side after
	# one warmup there, where the rungs run one (a single warm run was
	# noise: one slow frag run once made the 10M TUI row read 0.28; one
	# round of three a side, one side after the other, read 1.40 and 1.67
	# on a host whose speed moved by half within seconds)
	SRUNS=$RUNS SWARM=$WARMUP
	if [ "$SMOKE" != 1 ]; then
		[ "$SRUNS" -lt 3 ] && SRUNS=3
		[ "$SWARM" -lt 1 ] && SWARM=1
		SROUNDS=4
	fi
	LSTEP_AT=$SECONDS
	b=$(rung_block "$img" "$per")
	blks=$(rung_blocks "$img" 1000)
	floor_script "$img" > "$W/$name.floor.sh"
	pair "frag_$name" "-R frag --json" "$desc" 0.3333 "<= 1/3" \
		"$E2L --json -R frag $img" "e2fsck -fn" "e2fsck -fn $img"
	lstep "$name" frag
	ROUNDS=$SROUNDS RUNS=$SRUNS WARMUP=$SWARM \
		pair "top_$name" "-R 'frag --top 10000'" "$desc" 1.2 "<= 1.2x" \
		"$E2L -R 'frag --top 10000' $img" "frag --top 10" \
		"$E2L -R 'frag --top 10' $img"
	lstep "$name" "frag --top"
	pair "owner1_$name" "-R 'owner B' (a file block)" "$desc" 0.5 \
		"<= 1/2" "$E2L -R 'owner $b' $img" "debugfs icheck" \
		"debugfs -R 'icheck $b' $img"
	lstep "$name" "owner B"
	# 1000 blocks spread over the device need (nearly) every inode table
	# read, while one block now needs the few likeliest: the peer that
	# does the same shape of work is one block with every claim (-a, the
	# scan of every inode), which is what `owner B` was when the target
	# "1000 blocks <= 1.2x one block" was set
	ROUNDS=$SROUNDS RUNS=$SRUNS WARMUP=$SWARM \
		pair "ownerk_$name" "-R 'owner B1..B1000'" "$desc" 1.2 "<= 1.2x" \
		"$E2L -R 'owner $blks' $img" "owner -a B" \
		"$E2L -R 'owner -a $b' $img"
	lstep "$name" "owner B1..B1000"
	if [ "$COLD" = yes ]; then
		# cold only: the floor is what the disk gives
		hf "$W/floor_$name.json" 0 "$RUNS" "$DROP" \
			e2layout "$E2L --json -R frag $img" \
			"dd floor" "sh $W/$name.floor.sh"
		AVAIL[floor_$name]=ok
		row "floor_$name" cold "-R frag --json vs the I/O floor" \
			"$desc" "dd of bitmaps + in-use inode tables" 1.5 \
			"<= 1.5x" "$(stats_of "$W/floor_$name.json" e2layout)" \
			"$(stats_of "$W/floor_$name.json" "dd floor")" \
			"$(wc -l < "$W/$name.floor.sh") dd runs"
		lstep "$name" "I/O floor"
	fi
	tui="TERM=xterm-256color LINES=50 COLUMNS=160 script -qec \"$E2L --keys q $img\" /dev/null"
	frag="TERM=xterm-256color LINES=50 COLUMNS=160 script -qec \"$E2L -R frag $img\" /dev/null"
	ROUNDS=$SROUNDS RUNS=$SRUNS WARMUP=$SWARM \
		pair "tui_$name" "TUI: the full owner scan, then quit" "$desc" 1.2 \
		"<= 1.2x" "$tui" "frag" "$frag" "" \
		"both under script(1); the scripted q waits for the scan"
	lstep "$name" TUI
	echo "memory $name"
	lmem "$name" "e2layout frag" "$E2L -R frag $img"
	lmem "$name" "e2layout owner B" "$E2L -R 'owner $b' $img"
	lmem "$name" "e2layout owner index (map)" "$E2L -R 'map 0-0' $img"
	lmem "$name" "e2layout TUI full scan (script)" "$tui"
	lmem "$name" "e2fsck -fn" "e2fsck -fn $img"
	lmem "$name" "debugfs icheck B" "debugfs -R 'icheck $b' $img"
	lstep "$name" memory
	# the index's size: runs x 16 bytes, against the extents it covers
	"$E2L" -R frag "$img" | awk -v n="$name" '/^Files:/ {
		for (i = 1; i <= NF; i++) if ($(i + 1) == "extents") e = $i
		print n "\textents\t" e }' >> "$W/ladder.tsv"
}

ladder_run() {
	local n
	for n in $LADDER; do
		[ "$n" -lt 10000000 ] && ladder_rung "$n"
	done
	# 2 TiB, 16,384 groups, a directory of 61 files in every group
	image l2t ladder.sh "$L2T_SIZE" "$L2T_FILES" 1 "$L2T_PER" "$W"
	pair "groups_2t" "-R groups --json" "$L2T_DESC" 1 "<= 1x" \
		"$E2L --json -R groups $BDIR/l2t.img" "dumpe2fs -g" \
		"dumpe2fs -g $BDIR/l2t.img"
	rung 2t "$L2T_DESC" "$BDIR/l2t.img" "$L2T_PER" 2
	for n in $LADDER; do	# the largest last: the longest to run
		[ "$n" -ge 10000000 ] && ladder_rung "$n"
	done
}

ladder_rung() {
	local n=$1 name size free_g
	{
		case $n in
		100000) name=100k size=8G ;;
		1000000) name=1M size=40G ;;
		3000000) name=3M size=120G ;;
		10000000) name=10M size=400G ;;
		*) name=$n size=$((n / 1000 * 40 + 64))M ;;
		esac
		free_g=$(df -P "$BDIR" | awk 'NR == 2 { print int($4 / 1048576) }')
		if [ "$n" -ge 10000000 ] && [ ! -f "$BDIR/l$name.img.stamp" ] &&
		   [ "$free_g" -lt 20 ]; then
			echo "ladder: $name skipped: ${free_g} GiB free"
			return
		fi
		image "l$name" ladder.sh "$size" "$n" 0 1000 "$W"
		# 10M: no warmup runs (the probe run before each pair has
		# read the same metadata; e2fsck -fn alone takes minutes)
		rung "$name" "$name files" "$BDIR/l$name.img" 1000 \
			$([ "$n" -ge 3000000 ] && echo 1 || echo 2) \
			$([ "$n" -ge 10000000 ] && echo 0 || echo "$WARMUP")
	}
}
