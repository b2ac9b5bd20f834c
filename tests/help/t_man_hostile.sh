#!/bin/sh
# t_man_hostile.sh - gen_man.awk on help text that roff would misread: a
# line starting with '.' or '\'', backslashes, escape sequences, and bytes
# that are not UTF-8 (overlong, a surrogate, past U+10FFFF, an ESC): every
# output line is text or one of the awk's own requests, and groff -ww reads
# it without a warning.
. "$(dirname "$0")/../lib/testlib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
command -v groff >/dev/null || skip "no groff"

{
	printf '%s\n' "Usage: evil ARGS" "" ".TH evil 1" "'br" ".\\\" comment" \
		"\\fBbold\\fR \\(em \\*(Tx" "    .SH indented" \
		"prose .SH inside" "    'tick indented"
	printf 'overlong \300\257 surrogate \355\240\200 big \364\220\200\200\n'
	printf 'lead \370\210\200\200\200 cut \342\202 esc \033[31m '
	printf 'del \177 ok caf\303\251\n'
} > "$T/help.txt"
LC_ALL=C awk -f "$top/help/gen_man.awk" "$T/help.txt" > "$T/out.roff" ||
	fail "gen_man.awk failed"
own='^[0-9]*:\.\(PP\|nf\|fi\|br\|SS\|TP\|IP\|RS\|RE\)$'
bad=$(grep -n '^[.'"'"']' "$T/out.roff" | grep -v "$own")
[ -z "$bad" ] || fail "a control line from the text: $bad"
ctl=$(printf '[\001-\010\013-\037\177]')
grep -q "$ctl" "$T/out.roff" &&
	fail "a control byte reaches roff: $(grep -n "$ctl" "$T/out.roff" | cat -A)"
{ printf '.TH X 1\n.SH D\n'; cat "$T/out.roff"; } |
	groff -ww -man -Tutf8 > "$T/out.txt" 2> "$T/warn"
[ -s "$T/warn" ] && fail "groff -ww warns: $(cat "$T/warn")"
grep -q '\.TH evil' "$T/out.txt" || fail "the .TH line is not shown as text"
grep -q "caf$(printf '\303\251')" "$T/out.txt" || fail "good UTF-8 is lost"
echo "hostile help text test passed"
exit 0
