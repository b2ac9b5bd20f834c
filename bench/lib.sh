# lib.sh - helpers of bench/run.sh (sourced, bash): availability probes,
# hyperfine pairs run alternately and merged with jq, peak memory from
# /usr/bin/time -v, output identity checks, and the rows they record.
# Rows go to $W/rows.tsv and $W/mem.tsv; run.sh renders them into RESULTS.md.

# Prints what e2layout said when it lacks a command/option, or nothing.
na_reason() {
	grep -m1 -iE 'not supported yet|Command not found|unrecognized option|not in this build|invalid option' "$1"
}

# probe NAME CMD [PREPARE]: runs CMD once.  Sets PROBE to "ok", "na" or
# "error" and PROBE_WHY to the first line of its standard error.
probe() {
	local name=$1 cmd=$2 prep=${3:-}
	[ -n "$prep" ] && sh -c "$prep" >/dev/null 2>&1
	sh -c "$cmd" >"$W/$name.probe.out" 2>"$W/$name.probe.err" </dev/null
	local rc=$?
	# Under script(1) the messages arrive on standard output.
	head -c 65536 "$W/$name.probe.out" | tr -d '\r' >> "$W/$name.probe.err"
	rm -f "$W/$name.probe.out"
	PROBE_WHY=$(grep -v '^debugfs [0-9]' "$W/$name.probe.err" | grep -m1 .)
	if [ $rc -eq 0 ]; then
		PROBE=ok
	elif [ -n "$(na_reason "$W/$name.probe.err")" ]; then
		PROBE=na; PROBE_WHY=$(na_reason "$W/$name.probe.err")
	else
		PROBE=error; PROBE_WHY="exit $rc: $PROBE_WHY"
	fi
	AVAIL[$name]=$PROBE
}

# stats_of JSONFILES... NAME: "median min max n nonzero-exits" in seconds.
stats_of() {
	local name=${!#}
	jq -rs --arg n "$name" '
		[.[].results[] | select(.command == $n)] as $r
		| ([$r[].times[]] | sort) as $t | ($t | length) as $l
		| [ (if $l % 2 == 1 then $t[($l - 1) / 2]
		     else ($t[$l / 2 - 1] + $t[$l / 2]) / 2 end),
		    $t[0], $t[-1], $l,
		    ([$r[].exit_codes[]? | select(. != 0)] | length) ]
		| map(tostring) | join(" ")' "${@:1:$#-1}"
}

# fmt_t SECONDS: "12.3 ms" or "1.23 s".
fmt_t() {
	awk -v t="$1" 'BEGIN { if (t < 1) printf "%.1f ms", t * 1000;
			       else printf "%.2f s", t }'
}

# hf JSON WARMUP RUNS PREP NAME CMD [NAME CMD]: one hyperfine invocation
# (PREP, when not empty, runs before every timed run); its log goes to
# $W/hyperfine.log.  Failures are recorded (exit_codes), not fatal.
hf() {
	local json=$1 warm=$2 runs=$3 prep=$4; shift 4
	local cmds=() preps=()
	[ -n "$prep" ] && preps=(--prepare "$prep")
	while [ $# -ge 2 ]; do cmds+=(-n "$1" "$2"); shift 2; done
	echo "== ${cmds[*]}" >> "$W/hyperfine.log"
	hyperfine --style basic -i --warmup "$warm" --runs "$runs" \
		"${preps[@]}" --export-json "$json" "${cmds[@]}" \
		>> "$W/hyperfine.log" 2>&1
}

# row ID COND OPERATION IMAGE COMPARATOR TARGET_RATIO TARGET_TEXT E2L_STATS CMP_STATS NOTE
# Stats are "median min max n nonzero" or empty when not measured.
row() {
	local id=$1 cond=$2 op=$3 img=$4 cmp=$5 tr=$6 tt=$7 es=$8 cs=$9
	local note=${10} em emin emax cm cmin cmax ratio verdict e_txt c_txt
	if [ -n "$cs" ]; then
		read -r cm cmin cmax _ cbad <<< "$cs"
		c_txt="$(fmt_t "$cm") ($(fmt_t "$cmin") – $(fmt_t "$cmax"))"
		[ "$cbad" != 0 ] && note="$note; $cmp exited non-zero $cbad times"
	else
		c_txt="—"
	fi
	case ${AVAIL[$id]:-ok} in
	na)	e_txt="not available"; ratio="—"; verdict="n/a"
		note="${AVAIL_WHY[$id]}${note:+; $note}"
		[ -n "$cs" ] && note="$note; target means e2layout <= $(fmt_t \
			"$(awk -v c="$cm" -v r="$tr" 'BEGIN { print c * r }')")" ;;
	error)	e_txt="error"; ratio="—"; verdict="ERROR"
		note="${AVAIL_WHY[$id]}${note:+; $note}" ;;
	*)	read -r em emin emax _ ebad <<< "$es"
		e_txt="$(fmt_t "$em") ($(fmt_t "$emin") – $(fmt_t "$emax"))"
		ratio=$(awk -v e="$em" -v c="$cm" 'BEGIN { printf "%.3f", e / c }')
		verdict=$(awk -v r="$ratio" -v t="$tr" \
			'BEGIN { print (r <= t) ? "PASS" : "FAIL" }')
		ratio=$(awk -v e="$em" -v c="$cm" -v r="$ratio" 'BEGIN {
			if (e > 0 && e < c) printf "%s (1/%.1f)", r, c / e
			else printf "%s (%.2fx)", r, e / c }')
		[ "$ebad" != 0 ] && { verdict="ERROR"
			note="${note:+$note; }e2layout exited non-zero $ebad times"; } ;;
	esac
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$cond" \
		"$op" "$img" "$e_txt" "$cmp" "$c_txt" "$ratio" "$tt" \
		"$verdict" "$note" >> "$W/rows.tsv"
	echo "  $id/$cond: e2layout $e_txt | $cmp $c_txt | ratio $ratio (target $tt) $verdict"
}

# pair ID OPERATION IMAGE TARGET_RATIO TARGET_TEXT E2L_CMD CMP_NAME CMP_CMD
#      [PREP] [NOTE]
# Times E2L_CMD against CMP_CMD: $ROUNDS rounds, the order swapped every
# round; then, when allowed, one cold-cache round.  PREP runs before every
# timed run of either command (and disables the cold round).
pair() {
	local id=$1 op=$2 img=$3 tr=$4 tt=$5 ecmd=$6 cname=$7 ccmd=$8
	local prep=${9:-} note=${10:-} r jsons=() es cs
	echo "$id: $op"
	probe "$id" "$ecmd" "$prep"
	AVAIL_WHY[$id]=$PROBE_WHY
	if [ "$PROBE" != ok ]; then
		# Still time the comparator: it tells what the target means.
		[ "$PROBE" = na ] && hf "$W/$id.c.json" "$WARMUP" "$RUNS" \
			"$prep" "$cname" "$ccmd"
		cs=""
		[ -f "$W/$id.c.json" ] && cs=$(stats_of "$W/$id.c.json" "$cname")
		row "$id" warm "$op" "$img" "$cname" "$tr" "$tt" "" "$cs" "$note"
		return
	fi
	for ((r = 1; r <= ROUNDS; r++)); do
		if ((r % 2)); then
			hf "$W/$id.w$r.json" "$WARMUP" "$RUNS" "$prep" \
				e2layout "$ecmd" "$cname" "$ccmd"
		else
			hf "$W/$id.w$r.json" "$WARMUP" "$RUNS" "$prep" \
				"$cname" "$ccmd" e2layout "$ecmd"
		fi
		jsons+=("$W/$id.w$r.json")
	done
	es=$(stats_of "${jsons[@]}" e2layout)
	cs=$(stats_of "${jsons[@]}" "$cname")
	row "$id" warm "$op" "$img" "$cname" "$tr" "$tt" "$es" "$cs" "$note"
	if [ "$COLD" = yes ] && [ -z "$prep" ]; then
		# one run a side a round, the order swapped every round: a
		# host whose speed drifts over seconds weighs on both sides
		jsons=()
		for ((r = 1; r <= RUNS; r++)); do
			if ((r % 2)); then
				hf "$W/$id.cold$r.json" 0 1 "$DROP" \
					e2layout "$ecmd" "$cname" "$ccmd"
			else
				hf "$W/$id.cold$r.json" 0 1 "$DROP" \
					"$cname" "$ccmd" e2layout "$ecmd"
			fi
			jsons+=("$W/$id.cold$r.json")
		done
		es=$(stats_of "${jsons[@]}" e2layout)
		cs=$(stats_of "${jsons[@]}" "$cname")
		row "$id" cold "$op" "$img" "$cname" "$tr" "$tt" "$es" "$cs" "$note"
	fi
}

# cpu_noise: "median min max" milliseconds of 15 runs of a fixed CPU loop
# (awk, no I/O): how much the machine's own speed moved while it ran.
cpu_noise() {
	hyperfine --style none -N --warmup 2 --runs 15 --export-json \
		"$W/noise.json" "awk 'BEGIN { for (i = 0; i < 3000000; i++) s += i }'" \
		>/dev/null 2>&1 || return 0
	jq -r '.results[0].times | sort | [.[7], .[0], .[-1]]
		| map(. * 1000 | floor) | map(tostring) | join(" ")' \
		"$W/noise.json" 2>/dev/null
}

# peak_kib CMD: the maximum resident set size of CMD (and its children).
peak_kib() {
	/usr/bin/time -v -o "$W/time.out" sh -c "$1" >/dev/null 2>&1 </dev/null
	awk -F: '/Maximum resident set size/ { print $2 + 0 }' "$W/time.out"
}

# mem ID LABEL CMD [KIND]: records the peak memory of an e2layout command
# (when the command is available) in $W/mem.tsv.  KIND "info" keeps it out
# of the 64 MiB verdict (commands on the other images).
mem() {
	local id=$1 label=$2 cmd=$3 kind=${4:-e2layout} kib
	if [ "${AVAIL[$id]:-ok}" != ok ]; then
		printf '%s\t%s\t%s\n' "$label" "not available" "" >> "$W/mem.tsv"
		return
	fi
	kib=$(peak_kib "$cmd")
	printf '%s\t%s\t%s\n' "$label" "$kib" "$kind" >> "$W/mem.tsv"
	echo "  memory $label: $kib KiB"
}

# same ID LABEL CMD_A CMD_B: compares standard output and standard error
# (debugfs's banner line excluded) of two commands; records the verdict.
same() {
	local id=$1 label=$2 a=$3 b=$4 v
	if [ "${AVAIL[$id]:-ok}" != ok ]; then
		printf '%s\t%s\n' "$label" "not available" >> "$W/same.tsv"
		return
	fi
	sh -c "$a" > "$W/a.out" 2> "$W/a.err" </dev/null
	sh -c "$b" > "$W/b.out" 2> "$W/b.err" </dev/null
	sed -i '/^debugfs [0-9][0-9.]* ([0-9]/d' "$W/a.err" "$W/b.err"
	if cmp -s "$W/a.out" "$W/b.out" && cmp -s "$W/a.err" "$W/b.err"; then
		v="identical ($(wc -l < "$W/b.out") lines)"
	else
		v="DIFFERENT: $(diff "$W/a.out" "$W/b.out" | grep -c '^[<>]') stdout lines, $(diff "$W/a.err" "$W/b.err" | grep -c '^[<>]') stderr lines differ"
		SAME_FAIL=1
	fi
	printf '%s\t%s\n' "$label" "$v" >> "$W/same.tsv"
	echo "  $label: $v"
	rm -f "$W/a.out" "$W/b.out" "$W/a.err" "$W/b.err"
}
