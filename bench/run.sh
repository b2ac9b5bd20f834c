#!/bin/bash
# run.sh - e2layout's performance harness (issue 6, `make bench`): builds or
# reuses the benchmark images, times e2layout against the e2fsprogs tools side
# by side with hyperfine, measures peak memory, checks identical outputs and
# writes bench/RESULTS.md.  --smoke: tiny images, one run per pair, a
# temporary RESULTS file, and a check that every row has a number or "not
# available" (tests/bench/t_bench_smoke.sh).
set -u

usage() {
	cat <<'EOF'
Usage: bench/run.sh [--smoke] [--results FILE] [--rounds N] [--runs N]
                    [--no-cold] [--only ID,ID...] [--ladder "N N..."]
  E2LAYOUT=PATH        the binary (default: ./e2layout of this tree)
  E2LAYOUT_BENCH_DIR   where the images are cached (default /tmp/e2layout-bench)
Rows: stat stats freefrag groups frag frag_mnt tui relocate live_defrag
experiment undo (and memory), ladder (issue 15: 100k, 1M, 3M and, where the disk
allows, 10M files and a 2 TiB filesystem with files in all its groups).
EOF
}

top=$(cd "$(dirname "$0")/.." && pwd)
E2L=${E2LAYOUT:-$top/e2layout}
SMOKE=0 RESULTS="" ROUNDS=2 RUNS=2 COLD=auto ONLY="" LADDER=""
while [ $# -gt 0 ]; do
	case $1 in
	--smoke) SMOKE=1 ;;
	--results) RESULTS=$2; shift ;;
	--rounds) ROUNDS=$2; shift ;;
	--runs) RUNS=$2; shift ;;
	--no-cold) COLD=no ;;
	--only) ONLY=,$2, ; shift ;;
	--ladder) LADDER=$2; shift ;;
	-h|--help) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
	shift
done

missing=""
for t in hyperfine jq /usr/bin/time script debugfs dumpe2fs e2fsck \
	 e2freefrag filefrag mke2fs tune2fs; do
	command -v "$t" >/dev/null 2>&1 || missing="$missing $t"
done
[ -x "$E2L" ] || missing="$missing $E2L"
if [ -n "$missing" ]; then
	echo "run.sh: missing:$missing (make deps; make)" >&2
	exit 2
fi
. "$top/bench/lib.sh"
. "$top/bench/ladder.sh"
declare -A AVAIL AVAIL_WHY
DROP='sync; echo 3 > /proc/sys/vm/drop_caches'
WARMUP=1
SAME_FAIL=0

if [ $SMOKE = 1 ]; then
	BDIR=$(mktemp -d "${TMPDIR:-/tmp}/e2layout-bench-smoke.XXXXXX")
	[ -n "$RESULTS" ] || RESULTS=$BDIR.RESULTS.md
	ROUNDS=1 RUNS=1 WARMUP=0 COLD=no
	BIG_SIZE=8M FILES_SIZE=16M NFILES=300
	J_SIZE=32M J_MIB=4 J_FILE_KIB=256
	L_SIZE=64M L_FILES=8 L_ROUNDS=8
	[ -n "$LADDER" ] || LADDER=2000
	L2T_SIZE=2G L2T_FILES=2000 L2T_PER=100 L2T_DESC="2 GiB, 16 groups"
	U_SIZE=128M U_MIB=16 U_PKIB=256 UO_MIB=8
else
	BDIR=${E2LAYOUT_BENCH_DIR:-/tmp/e2layout-bench}
	[ -n "$RESULTS" ] || RESULTS=$top/bench/RESULTS.md
	BIG_SIZE=16T FILES_SIZE=4G NFILES=300000
	J_SIZE=1G J_MIB=128 J_FILE_KIB=4096
	L_SIZE=1G L_FILES=64 L_ROUNDS=64
	[ -n "$LADDER" ] || LADDER="100000 1000000 3000000 10000000"
	L2T_SIZE=2T L2T_FILES=1000000 L2T_PER=61
	L2T_DESC="2 TiB, 16,384 groups, 1M files in all of them"
	U_SIZE=16G U_MIB=2048 U_PKIB=4096 UO_MIB=512
fi
LADDER_HOW="sparse ext4 images (4 KiB blocks, lazy init) filled by bench/images/genfs.c through libext2fs: directories of 1000 files of 1-8 blocks, every 7th file in 2-4 extents with gaps; rungs: $LADDER files; 2t: $L2T_DESC"
W=$BDIR/work
MNT=$W/mnt
mkdir -p "$W"
: > "$W/rows.tsv"; : > "$W/mem.tsv"; : > "$W/same.tsv"; : > "$W/hyperfine.log"
: > "$W/ladder.tsv"

cleanup() {
	mountpoint -q "$MNT" 2>/dev/null && umount "$MNT"
	rmdir "$MNT" 2>/dev/null
	mountpoint -q "$W/ldmnt" 2>/dev/null && umount "$W/ldmnt"
	rmdir "$W/ldmnt" 2>/dev/null
	rm -f "$W"/*.copy.img
	[ $SMOKE = 1 ] && rm -rf "$BDIR"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# image NAME RECIPE ARGS...: builds $BDIR/NAME.img unless the cached one was
# made by the same recipe with the same arguments.
image() {
	local name=$1 recipe=$top/bench/images/$2; shift 2
	local img=$BDIR/$name.img
	local key args="$*"
	# the work directory is where a recipe builds, not what it builds: a
	# run with its own E2LAYOUT_BENCH_DIR may link the cached images in
	args=${args//"$W"/WORK}
	key="$(cat "$recipe" "$top/bench/images/genfiles.c" | cksum) $args"
	case $recipe in */ladder.sh)
		key="$(cat "$recipe" "$top/bench/images/genfs.c" | cksum) $args" ;;
	esac
	if [ -f "$img" ] && [ "$(cat "$img.stamp" 2>/dev/null)" = "$key" ]; then
		return 0
	fi
	echo "making $img ($*)"
	rm -f "$img.stamp"
	sh "$recipe" "$img" "$@" > "$W/$name.recipe.log" 2>&1 || {
		echo "run.sh: $recipe failed:" >&2
		cat "$W/$name.recipe.log" >&2
		exit 1
	}
	cat "$W/$name.recipe.log"
	echo "$key" > "$img.stamp"
}
want() { [ -z "$ONLY" ] || [[ $ONLY == *,$1,* ]]; }

# each image only when a row that reads it runs
want_any() { local r; for r; do want "$r" && return 0; done; return 1; }
want_any stat stats freefrag groups tui memory && image big big.sh "$BIG_SIZE"
want_any frag frag_mnt memory &&
	image files files.sh "$FILES_SIZE" "$NFILES" "$W"
want_any relocate memory undo &&
	image jfrag jfrag.sh "$J_SIZE" "$J_MIB" "$J_FILE_KIB" "$W"
if want undo; then
	image undofrag undofrag.sh "$U_SIZE" "$U_MIB" "$U_PKIB" "$W"
	image undofrag_old undofrag.sh "$U_SIZE" "$UO_MIB" "$U_PKIB" "$W" 1
fi
BIG=$BDIR/big.img FILES=$BDIR/files.img JFRAG=$BDIR/jfrag.img
FILES_HOW=$(tail -1 "$W/files.recipe.log" 2>/dev/null)
[ -n "$FILES_HOW" ] || FILES_HOW="(cached image)"
JFRAG_HOW=$(grep journal: "$W/jfrag.recipe.log" 2>/dev/null)
LDFRAG=$BDIR/ldfrag.img LDFRAG_OK=""
if [ "$(id -u)" = 0 ] && { [ -z "$ONLY" ] || [[ $ONLY == *,live_defrag,* ]]; }; then
	(image ldfrag ldfrag.sh "$L_SIZE" "$L_FILES" "$L_ROUNDS" "$W") 2>/dev/null &&
		LDFRAG_OK=1
fi

if [ "$COLD" = auto ]; then
	if [ "$(id -u)" = 0 ] && sh -c "$DROP" 2>/dev/null; then
		COLD=yes
	else
		COLD=no
	fi
fi
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
NOISE_START=$(cpu_noise)
T0=$(date +%s)
bigdesc="16 TiB sparse"; [ $SMOKE = 1 ] && bigdesc="$BIG_SIZE (smoke)"
fdesc="$NFILES files"; [ $SMOKE = 1 ] && fdesc="$NFILES files (smoke)"

want stat && pair stat "-R 'stat <8>' (whole process)" "$bigdesc" 0.05 \
	"<= 1/20" "$E2L -R 'stat <8>' $BIG" "debugfs" \
	"debugfs -R 'stat <8>' $BIG"
want stats && pair stats "-R stats" "$bigdesc" 0.25 "<= 1/4" \
	"$E2L -R stats $BIG" "debugfs" "debugfs -R stats $BIG"
want stats && same stats "stats vs debugfs -R stats" \
	"$E2L -R stats $BIG" "debugfs -R stats $BIG"
want freefrag && pair freefrag "-R freefrag" "$bigdesc" 0.0667 "<= 1/15" \
	"$E2L -R freefrag $BIG" "e2freefrag" "e2freefrag $BIG"
want freefrag && same freefrag "freefrag vs debugfs -R freefrag" \
	"$E2L -R freefrag $BIG" "debugfs -R freefrag $BIG"
if want freefrag && [ "${AVAIL[freefrag]}" = ok ]; then
	# What legitimately differs between debugfs's freefrag and e2freefrag.
	debugfs -R freefrag "$BIG" 2>/dev/null > "$W/ff.debugfs"
	e2freefrag "$BIG" > "$W/ff.e2freefrag" 2>&1
	diff "$W/ff.debugfs" "$W/ff.e2freefrag" > "$W/ff.diff"
fi
want groups && pair groups "-R groups --json" "$bigdesc" 2 "<= 2x" \
	"$E2L --json -R groups $BIG" "dumpe2fs -g" "dumpe2fs -g $BIG"
want frag && pair frag "-R frag --json" "$fdesc" 0.3333 "<= 1/3" \
	"$E2L --json -R frag $FILES" "e2fsck -fn" "e2fsck -fn $FILES"
if want frag_mnt; then
	mkdir -p "$MNT"
	if mount -o loop,ro,noload "$FILES" "$MNT" 2>/dev/null; then
		pair frag_mnt "-R frag --json (loop-mounted)" "$fdesc" 0.0667 \
			"<= 1/15" "$E2L --json -R frag $FILES" \
			"find | xargs filefrag" \
			"find $MNT -type f -print0 | xargs -0 -r filefrag"
		umount "$MNT"
	else
		AVAIL[frag_mnt]=na AVAIL_WHY[frag_mnt]="cannot loop-mount here"
		row frag_mnt warm "-R frag --json (loop-mounted)" "$fdesc" \
			"find | xargs filefrag" 0.0667 "<= 1/15" "" "" ""
	fi
fi
TUI="TERM=xterm-256color LINES=50 COLUMNS=160 E2L_TUI_EXIT_AFTER_FIRST_FRAME=1 script -qec \"$E2L --keys q $BIG\" /dev/null"
TUIPEER="TERM=xterm-256color LINES=50 COLUMNS=160 DEBUGFS_PAGER=__none__ script -qec \"debugfs -c -R stats $BIG\" /dev/null"
want tui && pair tui "TUI: start to first full frame, then quit" \
	"$bigdesc" 1 "<= 1x" "$TUI" "debugfs -c -R stats" \
	"$TUIPEER" "" \
	"both whole processes under the same script(1) wrapper; the TUI with --keys q"
if want relocate; then
	COPY=$W/jfrag.copy.img
	jstart=$(debugfs -R "ex <8>" "$JFRAG" 2>/dev/null |
		 awk '$6 == "-" && $9 == "-" { print $8; exit }')
	skip=$((jstart * 4096 / 1048576))
	seek=$(( $(stat -c %s "$JFRAG") / 1048576 / 4 ))	# the emptied half
	# The request as the issue names it: on a -w session it plans,
	# applies (here without an undo file, as dd keeps none) and verifies.
	RELOC="$E2L -w -R 'journal relocate --no-undo' $COPY"
	probe relocate "$RELOC" "cp --sparse=always $JFRAG $COPY"
	pair relocate "journal relocate ($J_MIB MiB journal)" \
		"-G 512, $JFRAG_HOW" 2 "<= 2x" "$RELOC" "dd $J_MIB MiB" \
		"dd if=$COPY of=$COPY bs=1M count=$J_MIB skip=$skip seek=$seek conv=notrunc,fsync status=none" \
		"cp --sparse=always $JFRAG $COPY; sync" \
		"a fresh copy each run, synced before it; dd with fsync; e2layout ran: $(echo "$RELOC" |
		 sed "s|$E2L|e2layout|; s|$COPY|COPY|")"
	if [ "${AVAIL[relocate]}" = ok ]; then
		cp --sparse=always "$JFRAG" "$COPY"
		sh -c "$RELOC" >/dev/null 2>&1
		p=$(debugfs -R "ex <8>" "$COPY" 2>/dev/null |
		    awk '$6 == "-" && $9 == "-" {n++} END {print n+0}')
		if e2fsck -fn "$COPY" >/dev/null 2>&1; then f=clean; else f="NOT clean"; fi
		echo "after relocate: journal in $p piece(s), e2fsck -fn $f" > "$W/reloc.note"
	fi
	rm -f "$COPY"
fi
# The undo file's cost (issue 15): the same apply with --undo FILE and
# with --no-undo on fresh copies of the same image, and once more with the
# undo file, which the real e2undo must turn back into the image byte for
# byte.
undo_pair() {	# ID OPERATION IMAGE_DESC IMG REQUEST [SAVED_MIB]
	local id=$1 op=$2 desc=$3 img=$4 req=$5 saved=${6:-} note
	local copy=$W/$id.copy.img undo=$W/$id.e2undo
	# synced: the copy's dirty pages (and, on a discard mount, the
	# discards of the last run's removed files) would otherwise be
	# written back inside the timed apply's fsync, a cost of the
	# preparation that made both sides look alike
	local prep="cp --sparse=always $img $copy; rm -f $undo; sync"
	pair "$id" "$op" "$desc" 1.5 "<= 1.5x" \
		"$E2L -w -R '$req --undo $undo' $copy" "the same, --no-undo" \
		"$E2L -w -R '$req --no-undo' $copy" "$prep" \
		"a fresh copy each run, synced before it; e2layout ran: e2layout -w -R '$req --undo FILE' COPY"
	if [ "${AVAIL[$id]}" = ok ]; then
		sh -c "$prep"
		sh -c "$E2L -w -R '$req --undo $undo' $copy" >/dev/null 2>&1
		note="$(du -k --apparent-size "$undo" | cut -f1) KiB ($(du -k "$undo" | cut -f1) KiB on disk)"
		if e2undo "$undo" "$copy" >/dev/null 2>&1 && cmp -s "$copy" "$img"; then
			note="$note; e2undo restored the image byte for byte"
		else
			note="$note; e2undo did NOT restore the image byte for byte"
			SAME_FAIL=1
		fi
		echo "$op: undo file $note" >> "$W/undo.note"
		echo "  $note"
	fi
	rm -f "$copy" "$undo"
	[ -n "$saved" ] || return 0
	# When the plan overwrites SAVED_MIB of old data, the undo file must
	# hold those bytes: on a disk that the apply keeps busy writing, the
	# undo side writes twice the bytes and the ratio above cannot fall
	# far below 2x.  What the undo costs beyond its bytes is measured
	# against the apply without an undo file followed by a sequential
	# write of SAVED_MIB (O_DIRECT, fsync): the same bytes on the disk.
	local fl=$W/$id.floor.bin
	pair "${id}_floor" "$op: against its bytes" "$desc" 1.1 "<= 1.1x" \
		"$E2L -w -R '$req --undo $undo' $copy" \
		"no undo file, then dd $saved MiB" \
		"$E2L -w -R '$req --no-undo' $copy && dd if=$copy of=$fl bs=1M count=$saved oflag=direct conv=fsync status=none" \
		"$prep; rm -f $fl" \
		"a fresh copy each run, synced before it; the peer writes the bytes the undo file saves as one sequential O_DIRECT file"
	rm -f "$copy" "$undo" "$fl"
}
if want undo; then
	: > "$W/undo.note"
	UHOW=$(grep '^big:' "$W/undofrag.recipe.log" 2>/dev/null)
	UOHOW=$(grep '^big:' "$W/undofrag_old.recipe.log" 2>/dev/null)
	undo_pair undo_defrag "defrag /big, into never-written blocks" \
		"$U_SIZE ext4, ${UHOW:-(cached image)}" "$BDIR/undofrag.img" \
		"defrag /big"
	undo_pair undo_defrag_old "defrag /big, into blocks holding old data" \
		"$U_SIZE ext4, ${UOHOW:-(cached image)}" "$BDIR/undofrag_old.img" \
		"defrag /big" "$UO_MIB"
	undo_pair undo_relocate "journal relocate ($J_MIB MiB journal)" \
		"-G 512, ${JFRAG_HOW:-(cached image)}" "$JFRAG" "journal relocate"
fi
if want live_defrag; then
	# Two copies of the same image, one per tool, each loop-mounted: the
	# same files defragmented by e2layout (every fragmented file, through
	# the kernel) and by e4defrag (the whole mount).
	LCOPY=$W/ldfrag.copy.img LM=$W/ldmnt
	ldesc="$L_FILES files x $L_ROUNDS pieces"
	[ $SMOKE = 1 ] && ldesc="$ldesc (smoke)"
	mkdir -p "$LM"
	LPREP="cp --sparse=always $LDFRAG $LCOPY"
	lrun() { echo "mount -o loop $LCOPY $LM && { $1 > /dev/null; r=\$?; umount $LM; exit \$r; }"; }
	LE2L=$(lrun "$E2L -R 'defrag --worst 512 --apply' $LM")
	LE4D=$(lrun "e4defrag $LM")
	lcount() { find "$LM" -type f -exec filefrag {} + 2>/dev/null |
		   awk '{ s += $(NF - 2) } END { print s + 0 }'; }
	if [ -z "$LDFRAG_OK" ] || ! command -v e4defrag >/dev/null 2>&1; then
		AVAIL[live_defrag]=na
		AVAIL_WHY[live_defrag]="cannot loop-mount here, or no e4defrag"
		row live_defrag warm "defrag --worst N --apply (live)" \
			"$ldesc" "e4defrag" 1 "<= 1x" "" "" ""
	else
		pair live_defrag "defrag --worst 512 --apply (live)" "$ldesc" 1 \
			"<= 1x" "$LE2L" "e4defrag" "$LE4D" "$LPREP" \
			"a fresh copy each run, mounted and unmounted in the timing"
		ext() {	# CMD: total extents of the files after CMD on a copy
			sh -c "$LPREP"
			mount -o loop "$LCOPY" "$LM" || return
			[ -n "$1" ] && sh -c "$1" >/dev/null 2>&1
			sync; lcount; umount "$LM"
		}
		lb=$(ext "") le=$(ext "$E2L -R 'defrag --worst 512 --apply' $LM")
		l4=$(ext "e4defrag $LM")
		v=$([ "${le:-x}" -le "${l4:-0}" ] 2>/dev/null && echo PASS || echo FAIL)
		echo "extents of the $L_FILES files: $lb before; after e2layout $le, after e4defrag $l4 (target: e2layout <= e4defrag: **$v**)" > "$W/ldf.note"
		cat "$W/ldf.note"
	fi
	rm -f "$LCOPY"
fi

# The experiment's counters (tracefs, jbd2) against the workload alone:
# the workload's own seconds (not the copies and mounts around it) of an
# A/A experiment with counters, then of the same with --no-counters.
if want experiment; then
	EXPIMG=$W/exp.img
	mke2fs -q -F -t ext4 -E nodiscard "$EXPIMG" 128M >/dev/null 2>&1
	# XROUNDS invocations a side of XRUNS runs each, the two kinds in
	# turn, so that a drift of the host's speed weighs on both
	if [ $SMOKE = 1 ]; then XRUNS=2 XROUNDS=1; else XRUNS=2 XROUNDS=3; fi
	XARGS="--workload smallcreate --dirs 4 --files 32 --runs $XRUNS --quiet --json --workdir $W"
	xrun() {	# xrun OUT [--no-counters]: one experiment's seconds
		local out=$1; shift
		# shellcheck disable=SC2086
		"$E2L" experiment "$EXPIMG" "$EXPIMG" $XARGS "$@" 2>"$W/exp.err" |
			jq -r '.result.sides[].runs[].seconds' >> "$out" 2>/dev/null
	}
	xstats() {	# xstats FILE: "mean min max 0 0" of its seconds
		[ -s "$1" ] && awk 'NR == 1 || $1 < mn { mn = $1 }
			NR == 1 || $1 > mx { mx = $1 } { t += $1 }
			END { print t / NR, mn, mx, 0, 0 }' "$1"
	}
	echo "experiment (counters' overhead)"
	: > "$W/exp.off"; : > "$W/exp.on"
	xok=1
	for ((r = 1; r <= XROUNDS; r++)); do
		xrun "$W/exp.off" --no-counters && xrun "$W/exp.on" || xok=0
	done
	xcs=$(xstats "$W/exp.off") xes=$(xstats "$W/exp.on")
	[ $xok = 1 ] && [ -n "$xes" ] && [ -n "$xcs" ] ||
		{ AVAIL[experiment]=na
		  AVAIL_WHY[experiment]="experiment refused here: $(head -1 "$W/exp.err")"; }
	row experiment warm "experiment: workload time with the counters" \
		"128 MiB ext4, smallcreate 4x32 files fsync'd" \
		"the workload alone (--no-counters)" 1.05 "<= 1.05x" \
		"${xes:-}" "${xcs:-}" \
		"$((XRUNS * 2 * XROUNDS)) runs each, in $XROUNDS turns a side; tracefs instance with block_rq_issue, jbd2_run_stats, ext4_mark_inode_dirty"
	rm -f "$EXPIMG"
fi

# Peak memory on the big image (and, for information, frag on the files).
if want memory; then
	echo "memory"
	mem stat "-R 'stat <8>'" "$E2L -R 'stat <8>' $BIG"
	mem stats "-R stats" "$E2L -R stats $BIG"
	mem freefrag "-R freefrag" "$E2L -R freefrag $BIG"
	mem groups "-R groups --json" "$E2L --json -R groups $BIG"
	mem tui "TUI first frame (with script(1))" "$TUI"
	mem frag "-R frag --json, $fdesc (for information)" \
		"$E2L --json -R frag $FILES" info
	[ -n "${RELOC:-}" ] && { cp --sparse=always "$JFRAG" "$COPY"
		mem relocate "journal relocate, -G 512 image (for information)" \
			"$RELOC" info; rm -f "$COPY"; }
	kib=$(peak_kib "e2fsck -fn $BIG")
	printf '%s\t%s\t%s\n' "e2fsck -fn (comparator)" "$kib" e2fsck >> "$W/mem.tsv"
	echo "  memory e2fsck -fn: $kib KiB"
fi
want ladder && ladder_run
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)
NOISE_END=$(cpu_noise)
SECS=$(( $(date +%s) - T0 ))

. "$top/bench/report.sh"
report > "$RESULTS"
echo "wrote $RESULTS"

if [ $SMOKE = 1 ]; then
	bad=$(awk -F'\t' '$5 != "not available" && $5 !~ /^[0-9.]+ m?s / ||
			  ($5 != "not available" && $7 !~ /^[0-9.]+ m?s /)' \
		"$W/rows.tsv")
	n=$(wc -l < "$W/rows.tsv")
	[ $SAME_FAIL = 1 ] &&
		echo "smoke: warning: outputs that must be identical differ"
	if [ -n "$bad" ] || [ "$n" -lt 8 ]; then
		echo "smoke: some rows have no number:" >&2
		echo "$bad" >&2
		exit 1
	fi
	echo "smoke: all $n rows have a number or \"not available\""
fi
exit 0
