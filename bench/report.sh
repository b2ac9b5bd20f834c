# report.sh - renders bench/RESULTS.md from what run.sh recorded in $W
# (rows.tsv, mem.tsv, same.tsv, ff.diff, reloc.note); sourced by run.sh.

disk_of() {
	local src dev
	src=$(df -P "$1" | awk 'NR == 2 { print $1 }')
	dev=$(basename "$(readlink -f "$src")")
	printf '%s (%s, %s)' "$src" "$(df -PT "$1" | awk 'NR == 2 { print $2 }')" \
		"$( [ "$(cat "/sys/block/$dev/queue/rotational" 2>/dev/null)" = 1 ] &&
		    echo "reports rotational" || echo "reports non-rotational")"
}

# The ladder's memory: one row per measured command, one column per rung
# (peak MiB and growth), then bytes of the owner index per extent.
ladder_table() {
	awk -F'\t' '
	$2 == "extents" { ext[$1] = $3; next }
	{ if (!($1 in seen)) { seen[$1] = 1; rung[++nr] = $1 }
	  if (!($2 in wseen)) { wseen[$2] = 1; what[++nw] = $2 }
	  kib[$1, $2] = $3 }
	END {
		printf "| command |"
		for (i = 1; i <= nr; i++) printf " %s |", rung[i]
		printf "\n|---|"
		for (i = 1; i <= nr; i++) printf "---|"
		printf "\n"
		for (j = 1; j <= nw; j++) {
			printf "| `%s` |", what[j]
			for (i = 1; i <= nr; i++) {
				k = kib[rung[i], what[j]]
				g = ""
				if (i > 1 && rung[i] != "2t" && kib[rung[i-1], what[j]] > 0)
					g = sprintf(" (x%.2f)", k / kib[rung[i-1], what[j]])
				printf " %.1f MiB%s |", k / 1024, g
			}
			printf "\n"
		}
		printf "| owner index bytes per extent (map peak - frag peak) / extents |"
		for (i = 1; i <= nr; i++) {
			d = kib[rung[i], "e2layout owner index (map)"] - kib[rung[i], "e2layout frag"]
			if (ext[rung[i]] > 0) printf " %.1f |", d * 1024 / ext[rung[i]]
			else printf " ? |"
		}
		printf "\n"
	}' "$W/ladder.tsv"
}

# noise_txt "MEDIAN MIN MAX": "40 ms (38 - 47 ms)".
noise_txt() {
	set -- $1
	echo "$1 ms ($2 - $3 ms)"
}

report() {
	local mem_max=0 mem_ref="" v
	echo "# e2layout benchmark results"
	echo
	if [ $SMOKE = 1 ]; then
		echo "**Smoke run** (tiny images, one run per pair): the numbers" \
		     "only show that the harness works."
	else
		echo "Made by \`make bench\` (bench/run.sh) on $(date -u '+%Y-%m-%d %H:%M UTC'), in ${SECS}s."
	fi
	echo
	echo "**Noise warning:** this machine is shared (the run happened while" \
	     "other jobs used the same $(nproc) cores; load average" \
	     "$LOAD_START at the start, $LOAD_END at the end).  Medians of few" \
	     "runs: treat ratios near a target as undecided."
	[ -n "${NOISE_START:-}" ] && [ -n "${NOISE_END:-}" ] &&
		echo "The machine's own speed: 15 runs of a fixed CPU loop" \
		     "(awk, no I/O) took $(noise_txt "$NOISE_START") at the" \
		     "start and $(noise_txt "$NOISE_END") at the end (median," \
		     "min - max): a spread of more than a few percent there is" \
		     "the host, not the code."
	echo
	echo "## Machine and versions"
	echo
	echo "- CPU: $(nproc) × $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
	echo "- Memory: $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
	echo "- Kernel: $(uname -srm)"
	echo "- Disk holding the images: $(disk_of "$BDIR")"
	echo "- e2layout: $("$E2L" -V 2>&1 | head -1)," \
	     "commit $(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo '?')"
	echo "- e2fsprogs: $(debugfs -V 2>&1 | head -1)"
	echo "- $(hyperfine --version)"
	echo
	echo "## Method"
	echo
	echo "- Images (cached in \`$BDIR\`): big = \`truncate -s $BIG_SIZE\` (one" \
	     "block less where the host caps file size) + mke2fs -t ext4 with lazy" \
	     "init; files = $FILES_SIZE ext4 with $NFILES files of mixed sizes aged by" \
	     "deletes and interleaved appends, $FILES_HOW; jfrag = $J_SIZE ext4" \
	     "\`-G 512\` whose $JFRAG_HOW."
	echo "- Times: hyperfine, $ROUNDS round(s) per pair, the order of the two" \
	     "commands swapped every round, warmup $WARMUP and $RUNS run(s) per" \
	     "command per round; medians and min – max over all rounds.  Whole" \
	     "processes, output to /dev/null."
	[ -n "$LADDER" ] && [ "$SMOKE" != 1 ] &&
		echo "- The ladder's rows: one round; 2 runs a" \
		     "side at 100k, 1M and 2 TiB, 1 at 3M and 10M (no warmup at 10M)," \
		     "except e2layout against itself (\`frag --top\`, \`owner\` of" \
		     "1000 blocks, the TUI): 4 rounds, the order swapped every" \
		     "round, of 3 runs a side after a warmup, on every rung" \
		     "(cold: 3 runs a side)."
	if [ "$COLD" = yes ]; then
		echo "- Cold rows: \`$DROP\` before every run, one run a side" \
		     "at a time, the order swapped after each."
	else
		echo "- No cold-cache rows (dropping caches is not permitted here or" \
		     "was switched off)."
	fi
	echo "- Ratio = e2layout median / comparator median."
	echo
	echo "## Times"
	echo
	echo "| operation | image | cache | e2layout median (min – max) | compared with | its median (min – max) | ratio | target | verdict | notes |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	awk -F'\t' '{ for (i = 1; i <= NF; i++) gsub(/\|/, "\\|", $i)
		printf "| `%s` | %s | %s | %s | `%s` | %s | %s | %s | **%s** | %s |\n",
		$3, $4, $2, $5, $6, $7, $8, $9, $10, $11 }' "$W/rows.tsv"
	echo
	echo "## Peak memory (maximum resident set size, /usr/bin/time -v)"
	echo
	echo "| e2layout command (on the big image unless said) | peak RSS |"
	echo "|---|---|"
	while IFS=$'\t' read -r label kib who; do
		if [ "$kib" = "not available" ]; then
			echo "| \`$label\` | not available |"
			continue
		fi
		echo "| \`$label\` | $(awk -v k="$kib" 'BEGIN { printf "%.1f MiB", k / 1024 }') |"
		if [ "$who" = e2layout ] && [ "$kib" -gt "$mem_max" ]; then
			mem_max=$kib
		elif [ "$who" = e2fsck ]; then
			mem_ref=$kib
		fi
	done < "$W/mem.tsv"
	echo
	if [ "$mem_max" -gt 0 ]; then
		v=$([ "$mem_max" -le 65536 ] && echo PASS || echo FAIL)
		echo "Peak memory of any e2layout command above:" \
		     "$(awk -v k="$mem_max" 'BEGIN { printf "%.1f MiB", k / 1024 }')" \
		     "(e2fsck -fn: $(awk -v k="${mem_ref:-0}" 'BEGIN { printf "%.1f MiB", k / 1024 }'));" \
		     "target <= 64 MiB: **$v**."
	else
		echo "Peak memory of e2layout: not available (no command measured)."
	fi
	echo
	if [ -s "$W/ladder.tsv" ]; then
		echo "## Scale ladder: peak memory per rung (issue 15)"
		echo
		echo "Images: $LADDER_HOW.  Growth = this rung's peak / the" \
		     "previous rung's (the file count grows 10x, 3x, 3.3x)."
		echo
		ladder_table
		echo
	fi
	echo "## Identical outputs (checked in the same run)"
	echo
	if [ -s "$W/same.tsv" ]; then
		awk -F'\t' '{ for (i = 1; i <= NF; i++) gsub(/\|/, "\\|", $i)
		printf "- %s: **%s**\n", $1, $2 }' "$W/same.tsv"
	fi
	if [ -s "$W/ff.diff" ]; then
		echo "- debugfs -R freefrag vs e2freefrag (legitimate differences;" \
		     "freefrag is compared with debugfs for identity and timed" \
		     "against e2freefrag):"
		echo
		echo '```'
		head -20 "$W/ff.diff"
		echo '```'
	fi
	if [ -f "$W/ff.debugfs" ] && [ ! -s "$W/ff.diff" ]; then
		echo "- debugfs -R freefrag vs e2freefrag: **identical** here" \
		     "(both print the Device: line), so e2layout's freefrag" \
		     "matches e2freefrag as well."
	fi
	[ -s "$W/reloc.note" ] && echo "- journal relocate: $(cat "$W/reloc.note")"
	[ -s "$W/ldf.note" ] && echo "- live defrag: $(cat "$W/ldf.note")"
	[ -s "$W/undo.note" ] && sed 's/^/- undo, /' "$W/undo.note"
	echo
	echo "\"not available\" means this e2layout lacks the command (it answered" \
	     "\"not supported yet\", \"Command not found\" or similar); the" \
	     "comparator is still timed so the target reads as an absolute time."
}
