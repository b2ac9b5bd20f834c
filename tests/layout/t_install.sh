#!/bin/sh
# t_install.sh - Debian's habits in the Makefile: CPPFLAGS, CFLAGS and
# LDFLAGS as given reach every compile and link line (dpkg-buildflags'
# -D_FORTIFY_SOURCE lives in CPPFLAGS), "make install" puts the program in
# sbin and its page in man8 like e2fsprogs (BINDIR, MANDIR, MANSECT
# overridable), with the completion and the JSON Schemas, and "make
# uninstall" removes every file it installed.
. "$(dirname "$0")/../lib/testlib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
command -v make >/dev/null 2>&1 || skip "make is not installed"

# Every command a clean build would run, without running them.
make -C "$top" -n -B BUILD="$T/b" CPPFLAGS=-DE2L_T_CPP CFLAGS=-DE2L_T_C \
	LDFLAGS=-Wl,-zE2L_T_LD all > "$T/n" 2>&1 || fail "make -n: $(tail -3 "$T/n")"
grep -E '^(cc|gcc|clang|\$\(CC\))? ?.* -c ' "$T/n" > "$T/compile" || true
[ "$(wc -l < "$T/compile")" -ge 50 ] || fail "too few compile lines: $(head -3 "$T/n")"
for f in -DE2L_T_CPP -DE2L_T_C; do
	n=$(grep -cv -- "$f" "$T/compile")
	[ "$n" -eq 0 ] || fail "$n compile lines lack $f: $(grep -v -- "$f" "$T/compile" | head -1)"
done
grep -E ' -o [^ ]*e2layout ' "$T/n" > "$T/link" || fail "no link line for e2layout"
for f in -Wl,-zE2L_T_LD -DE2L_T_C; do
	grep -q -- "$f" "$T/link" || fail "the link line lacks $f: $(cat "$T/link")"
done

# A staged install with the defaults, then an uninstall.
# (a copy of the program, newer than every object: make would otherwise
# relink the binary BIN names from the default build's objects, which for
# the sanitizer build's binary rewrote it while parallel tests ran it)
cp "$E2LAYOUT" "$T/e2layout" || fail "cannot copy $E2LAYOUT"
bin=$T/e2layout
inst() {
	make -C "$top" -s BIN="$bin" DESTDIR="$T/root" "$@" > "$T/inst" 2>&1 ||
		fail "make $*: $(tail -5 "$T/inst")"
}
inst install PREFIX=/usr
for f in usr/sbin/e2layout usr/share/man/man8/e2layout.8 \
	 usr/share/bash-completion/completions/e2layout \
	 usr/share/doc/e2layout/schema/envelope.json \
	 usr/share/doc/e2layout/schema/result/groups.json; do
	[ -f "$T/root/$f" ] || fail "make install did not install /$f: $(cd "$T/root" && find . -type f | head)"
done
[ -x "$T/root/usr/sbin/e2layout" ] || fail "/usr/sbin/e2layout is not executable"
grep -q '^\.TH E2LAYOUT 8 ' "$T/root/usr/share/man/man8/e2layout.8" ||
	fail "the man page's .TH is not section 8: $(grep '^\.TH' "$T/root/usr/share/man/man8/e2layout.8")"
[ ! -e "$T/root/usr/bin" ] || fail "make install wrote to /usr/bin"
inst uninstall PREFIX=/usr
left=$(find "$T/root" -type f | sed "s|^$T/root||")
[ -z "$left" ] || fail "make uninstall left: $left"

# The directories are the caller's.  (An install with another MANSECT
# never remakes the build's compiled-in page: it remade man_page.c with
# section 1, and the next build's --man then differed from its page.)
mp=$top/build/gen/man_page.c
before=$(cksum < "$mp" 2>/dev/null || echo none)
inst install PREFIX=/opt/x BINDIR=/opt/x/bin MANDIR=/opt/x/man MANSECT=1
[ "$(cksum < "$mp" 2>/dev/null || echo none)" = "$before" ] ||
	fail "make install MANSECT=1 remade $mp"
[ -x "$T/root/opt/x/bin/e2layout" ] || fail "BINDIR ignored"
grep -q '^\.TH E2LAYOUT 1 ' "$T/root/opt/x/man/man1/e2layout.1" || fail "MANDIR/MANSECT ignored"
inst uninstall PREFIX=/opt/x BINDIR=/opt/x/bin MANDIR=/opt/x/man MANSECT=1
left=$(find "$T/root" -type f | sed "s|^$T/root||")
[ -z "$left" ] || fail "make uninstall left: $left"
echo "ok: flags reach $(wc -l < "$T/compile") compiles and the link; install/uninstall in sbin and man8"
