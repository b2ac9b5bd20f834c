#!/bin/sh
# t_man.sh - the manual page: made by `make man` with no compiler and without
# running e2layout (CC=false: a cross build's host), the same bytes as
# `e2layout --man`; dated by SOURCE_DATE_EPOCH, else the last commit, else
# help/version.h, reproducibly, with -V's version; every request (name and
# summary, in the table's order), topic and help text in it word for word;
# at most 80 columns in `man` at 80 columns; no warning from man --warnings
# (as lintian runs it, and in the C locale), groff -ww or lexgrog, and
# lintian's manual-page checks clean when lintian is installed.
. "$(dirname "$0")/../lib/testlib.sh"
: "${E2LAYOUT:?}" "${E2L_IMAGES:?}" "${E2L_BUILD:?}"
top=$(cd "$(dirname "$0")/../.." && pwd)
img=$E2L_IMAGES/ext4.img
command -v man >/dev/null 2>&1 || skip "no man (man-db) to render the page"

# 1. the page without a compiler or the program
make -s -C "$top" BUILD="$T/xb" CC=false MANSECT=8 man > "$T/make.out" 2>&1 ||
	fail "make man with CC=false failed: $(tail -5 "$T/make.out")"
page=$T/xb/gen/e2layout.8
[ -s "$page" ] || fail "make man made no $page"
[ -z "$(find "$T/xb" -name '*.o' -o -name e2layout -type f)" ] ||
	fail "make man compiled something: $(find "$T/xb" -name '*.o' | head -3)"
"$E2LAYOUT" --man > "$T/prog.8" || fail "e2layout --man failed"
cmp -s "$page" "$T/prog.8" ||
	fail "e2layout --man differs from the generated page: $(diff "$page" "$T/prog.8" | head -5)"
cmp -s "$E2L_BUILD/gen/man_page.roff" "$T/prog.8" ||
	fail "e2layout --man differs from the build's $E2L_BUILD/gen/man_page.roff"
make -s -C "$top" BUILD="$T/xb" CC=false MANSECT=5 man > "$T/make.out" 2>&1 ||
	fail "make man MANSECT=5 failed: $(tail -5 "$T/make.out")"
grep -q '^\.TH E2LAYOUT 5 ' "$T/xb/gen/e2layout.5" || fail "MANSECT=5: $(grep '^\.TH' "$T/xb/gen/e2layout.5")"

# 2. date and version
ver=$("$E2LAYOUT" -V | sed -n '1s/^e2layout \([^ ]*\).*/\1/p')
[ -n "$ver" ] || fail "e2layout -V printed no version"
gen() {	# OUT [DIR]: the page from DIR's copy of the generator (else help/)
	d=${2:-$top/help}
	(cd "$top" && sh "$d/gen_man.sh" "$1" 8 "$d/man.in" "$d/version.h" \
		-- $(find core -name '*.c' | sort) debugfs-compat/*.c \
		-- help/cmd/*.txt help/topics/*.txt help/labs/*.lab)
}
if e=$(git -C "$top" log -1 --format=%ct 2>/dev/null) && [ -n "$e" ] &&
   [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
	d=$(date -u -d "@$e" +%Y-%m-%d)
	grep -q "^\.TH E2LAYOUT 8 \"$d\" \"e2layout $ver\"\$" "$page" ||
		fail "title is not the last commit's date $d and version $ver: $(grep '^\.TH' "$page")"
fi
SOURCE_DATE_EPOCH=86400 gen "$T/sde1.8" || fail "gen_man.sh with SOURCE_DATE_EPOCH failed"
SOURCE_DATE_EPOCH=86400 gen "$T/sde2.8" || fail "gen_man.sh failed the second time"
cmp -s "$T/sde1.8" "$T/sde2.8" || fail "two runs with one SOURCE_DATE_EPOCH differ"
grep -q "^\.TH E2LAYOUT 8 \"1970-01-02\" \"e2layout $ver\"\$" "$T/sde1.8" ||
	fail "SOURCE_DATE_EPOCH=86400 not used: $(grep '^\.TH' "$T/sde1.8")"
# outside a git tree (a release tarball): help/version.h's date
mkdir "$T/nogit" && cp "$top"/help/gen_man.sh "$top"/help/gen_man.awk \
	"$top"/help/man.in "$top"/help/version.h "$T/nogit/" || fail "copying help/"
vd=$(sed -n 's/^#define E2LAYOUT_DATE "\(.*\)"$/\1/p' "$top/help/version.h")
(unset SOURCE_DATE_EPOCH; GIT_CEILING_DIRECTORIES=$T GIT_DIR=$T/none \
	gen "$T/nogit.8" "$T/nogit") || fail "gen_man.sh outside git failed"
grep -q "^\.TH E2LAYOUT 8 \"$vd\" " "$T/nogit.8" ||
	fail "outside git the date is not version.h's $vd: $(grep '^\.TH' "$T/nogit.8")"

# 3. the sections a user and a packager look for
for s in NAME SYNOPSIS DESCRIPTION OPTIONS REQUESTS TOPICS LABS DEBUGFS \
	 "EXIT STATUS" EXAMPLES ENVIRONMENT FILES "SEE ALSO"; do
	grep -q "^\.SH $s\$" "$page" || check "the page lacks section $s"
done
for v in NO_COLOR E2L_THEME E2LAYOUT_UNDO_DIR E2LAYOUT_STATE_DIR E2LAYOUT_E2FSCK; do
	sed -n '/^\.SH ENVIRONMENT/,/^\.SH /p' "$page" | grep -q "$v" ||
		check "ENVIRONMENT lacks $v"
done
for f in e2layout_history e2undo tunables; do
	sed -n '/^\.SH FILES/,/^\.SH /p' "$page" | grep -q "$f" || check "FILES lacks $f"
done
for t in debugfs dumpe2fs e2fsck e2undo e2freefrag filefrag e4defrag tune2fs e2image; do
	sed -n '/^\.SH SEE ALSO/,$p' "$page" | grep -q "^\.BR $t (8)" ||
		check "SEE ALSO lacks $t(8)"
done

# 4. the content: rendered, each request's and topic's text is its help
# file's, word for word (whitespace and the shell's \ line breaks aside)
MANWIDTH=80 LC_ALL=C man --warnings -l "$page" > "$T/page.txt" 2> "$T/warn.c" ||
	fail "man -l failed: $(head -3 "$T/warn.c")"
mkdir "$T/r"
awk -v d="$T/r" '
	/^[A-Z]/ { sec = $0; f = ""; if (sec == "DESCRIPTION" || sec == "DEBUGFS") f = d "/topic." sec; next }
	(sec == "REQUESTS" || sec == "TOPICS") && /^   [^ ]/ {
		n = $0; sub(/^ +/, "", n)
		f = d "/" (sec == "REQUESTS" ? "cmd." : "topic.") n; next }
	f != "" { print > f }' "$T/page.txt"
norm() {	# the words of a text, one a line
	sed -e 's/·/./g' -e 's/░/:/g' -e 's/▒/+/g' -e 's/▓/*/g' -e 's/█/#/g' -e 's/…/~/g' \
	    -e 's/ \\$//' "$@" | tr -s ' \t\n' '\n\n\n' | sed '/^$/d'
}
"$E2LAYOUT" --json -R help "$img" > "$T/help.json" 2>&1 || fail "help --json failed"
python3 -c '
import json, sys
for c in json.loads(sys.stdin.readline())["result"]["commands"]:
    print(c["name"] + "\t" + c["summary"])' < "$T/help.json" > "$T/table" ||
	fail "help --json does not parse: $(head -c 300 "$T/help.json")"
[ "$(wc -l < "$T/table")" -ge 50 ] || fail "help --json lists too few requests"
cut -f1 "$T/table" > "$T/want.order"
sed -n '/^REQUESTS$/,/^TOPICS$/s/^   \([^ ].*\)$/\1/p' "$T/page.txt" > "$T/got.order"
cmp -s "$T/want.order" "$T/got.order" ||
	check "the page's requests are not the table's: $(diff "$T/want.order" "$T/got.order" | head -5)"
while IFS='	' read -r c sum; do
	[ -f "$T/r/cmd.$c" ] || { check "$c: not in the page's REQUESTS"; continue; }
	{ echo "$sum"; cat "$top/help/cmd/$c.txt"; } | norm > "$T/want"
	norm "$T/r/cmd.$c" > "$T/got"
	cmp -s "$T/want" "$T/got" ||
		check "$c: the page's text is not its summary and help/cmd/$c.txt: $(diff "$T/want" "$T/got" | head -4)"
done < "$T/table"
for f in "$top"/help/topics/*.txt; do
	t=$(basename "$f" .txt)
	case $t in e2layout) r=topic.DESCRIPTION ;; debugfs) r=topic.DEBUGFS ;; *) r=topic.$t ;; esac
	[ -f "$T/r/$r" ] || { check "topic $t: not in the page"; continue; }
	norm "$f" > "$T/want"
	norm "$T/r/$r" > "$T/got"
	cmp -s "$T/want" "$T/got" ||
		check "topic $t: the page's text is not help/topics/$t.txt: $(diff "$T/want" "$T/got" | head -4)"
done
for f in "$top"/help/labs/*.lab; do
	l=$(basename "$f" .lab)
	title=$(sed -n 's/^title:[ 	]*//p' "$f" | head -1)
	sed -n '/^LABS$/,/^DEBUGFS$/p' "$T/page.txt" | tr -s ' \n' '  ' |
		grep -qF " $l $title" || check "lab $l: not in LABS with its title"
done

# 5. 80 columns, and no warning from any reader
awk 'length > 80 { n++; if (n <= 3) print length ": " $0 } END { exit n > 0 }' \
	"$T/page.txt" > "$T/wide" || check "lines wider than 80 columns: $(cat "$T/wide")"
[ -s "$T/warn.c" ] && check "man --warnings (C locale) warns: $(head -3 "$T/warn.c")"
# lintian's own call (Lintian::Check::Documentation::Manual)
if locale -a 2>/dev/null | grep -qix 'c\.utf-\?8'; then
	LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l \
		-Tutf8 -Z "$page" > /dev/null 2> "$T/warn.u"
	[ -s "$T/warn.u" ] && check "man --warnings -E UTF-8 warns: $(head -3 "$T/warn.u")"
fi
if command -v groff >/dev/null 2>&1; then
	groff -man -Tutf8 -ww -z "$page" 2> "$T/groff"
	[ -s "$T/groff" ] && check "groff -ww warns: $(head -3 "$T/groff")"
fi
if command -v lexgrog >/dev/null 2>&1; then
	w=$(lexgrog "$page") || check "lexgrog finds no whatis entry: $w"
	case $w in *'"e2layout - see and change where everything lives on an ext2/ext3/ext4 filesystem"') ;;
	*) check "lexgrog's whatis entry: $w" ;; esac
fi
if command -v lintian >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1; then
	p=$T/deb
	mkdir -p "$p/DEBIAN" "$p/usr/share/man/man8" "$p/usr/sbin"
	cp "$E2LAYOUT" "$p/usr/sbin/e2layout"
	gzip -9n < "$page" > "$p/usr/share/man/man8/e2layout.8.gz"
	printf 'Package: e2layout\nVersion: %s\nArchitecture: all\nMaintainer: %s\nDescription: %s\n %s\n' \
		"$ver" "Test <test@example.org>" "ext4 layout tool" "test" > "$p/DEBIAN/control"
	dpkg-deb --root-owner-group --build "$p" "$T/e2layout.deb" > /dev/null ||
		fail "dpkg-deb failed"
	lintian -I --pedantic -C documentation/manual "$T/e2layout.deb" 2>&1 |
		grep '^[EWIPX]: ' > "$T/lintian"
	[ -s "$T/lintian" ] && check "lintian: $(head -5 "$T/lintian")"
else
	echo "note: no lintian; its manual-page checks are those above (man, lexgrog)"
fi
checks_done
echo "ok: the man page is made from help/ alone, dated, complete and clean"
