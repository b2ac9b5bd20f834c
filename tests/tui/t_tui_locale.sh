#!/bin/sh
# t_tui_locale.sh - the TUI in a comma-decimal locale (de_DE.UTF-8, built
# here with localedef): it still draws UTF-8 (LC_CTYPE is the user's), but
# numbers are read and written the C way, so the experiment panel reads a
# saved result's "12.5" as twelve and a half and prints it with a point,
# and a request run at the : prompt prints its numbers as it does outside.
. "$(dirname "$0")/../lib/testlib.sh"
: "${E2L_IMAGES:?}"
command -v jq >/dev/null 2>&1 || skip "jq is missing: skipped"
command -v localedef >/dev/null 2>&1 || skip "localedef is missing: skipped"
[ -d /usr/share/i18n/locales ] && [ -f /usr/share/i18n/locales/de_DE ] ||
	skip "no de_DE locale source (/usr/share/i18n/locales): skipped"
. "$(dirname "$0")/../lib/tmux.sh"
demo=$E2L_IMAGES/demo.img
res=$(cd "$(dirname "$0")" && pwd)/exp_result.json
[ -r "$res" ] || fail "no $res"

mkdir "$T/loc"
localedef -i de_DE -f UTF-8 "$T/loc/de_DE.UTF-8" >/dev/null 2>&1 ||
	skip "localedef could not build de_DE.UTF-8: skipped"
# the locale really is comma-decimal (else the test proves nothing)
[ "$(LOCPATH=$T/loc LC_ALL=de_DE.UTF-8 /usr/bin/printf '%.1f' 1,5 2>/dev/null)" = "1,5" ] ||
	skip "the built de_DE.UTF-8 is not comma-decimal here: skipped"

tmux_start -x 170 -y 34 "env LOCPATH='$T/loc' LC_ALL=de_DE.UTF-8 ASAN_OPTIONS='${ASAN_OPTIONS:-}' LSAN_OPTIONS='${LSAN_OPTIONS:-}' UBSAN_OPTIONS='${UBSAN_OPTIONS:-}' '$E2LAYOUT' '$demo' 2>'$T/err'; echo \$? > '$T/rc'; sleep 30"
wait_for " 1 Overview" "the TUI never started"
# UTF-8 drawing still on: the overview's map uses block glyphs
wait_for "█" "no UTF-8 block glyphs: LC_CTYPE was not taken from the locale"

keys ':'
keys -l "experiment show $res"
keys Enter
wait_for 'result: lines 1-' "the panel did not open (a number misread?)"
wait_stable
# the first comparison with statistics, formatted in the C locale
c=$(jq '[.result.comparisons[] | select(.delta_pct != null)][0]' "$res")
m=$(echo "$c" | jq -r .metric)
row=$(printf '%-22s %11.6g %9.4g %11.6g %9.4g %+8.1f' "$m" \
	$(echo "$c" | jq -r '.mean_a, .sd_a, .mean_b, .sd_b, .delta_pct'))
case $row in *.*) ;; *) fail "the fixture's first row has no decimal point" ;; esac
grep -qF -- "$row" "$SCREEN" || fail "$m: no row \"$row\" (numbers read or printed with the locale's comma?)"
keys q
wait_gone 'result: lines 1-' "q did not close the panel"

# a request at the prompt prints its numbers the C way
keys ':'
keys -l "frag"
keys Enter
wait_for 'Fragmentation score: ' "frag printed nothing"
wait_stable
want=$("$E2LAYOUT" -R frag "$demo" 2>/dev/null | grep -o 'Fragmentation score: [0-9.]*')
case $want in *.*) ;; *) fail "frag's score has no decimal point in the C locale" ;; esac
grep -qF "$want" "$SCREEN" ||
	fail "the console's frag does not say \"$want\" (a comma-decimal score?)"
