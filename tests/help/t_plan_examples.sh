#!/bin/sh
# t_plan_examples.sh - the plan operations' help examples do what the help
# says, run as written on the demo image: the read-only request writes
# nothing, the -w request applies (undo file, e2fsck -fn clean), `plan OP`
# then `apply` applies under -w, a saved plan applies later; each option the
# request accepts for applying (--no-undo, --undo, --no-fsck) is in its help.
. "$(dirname "$0")/../lib/testlib.sh"
: "${E2L_IMAGES:?}"
top=$(cd "$(dirname "$0")/../.." && pwd)
demo=$E2L_IMAGES/demo.img
[ -f "$demo" ] || fail "no $demo"
bindir=$(cd "$(dirname "$E2LAYOUT")" && pwd)
mkdir "$T/bin"
ln -s "$bindir/$(basename "$E2LAYOUT")" "$T/bin/e2layout"

# run GROUP: the example's commands, in order, on a fresh demo.img.
run() {
	rm -rf "$T/w" "$T"/e2layout-*.e2undo && mkdir "$T/w" && cp "$demo" "$T/w/demo.img" ||
		fail "copying the demo image"
	(cd "$T/w" && PATH="$T/bin:$PATH" sh -e "$1") > "$T/out" 2>&1 ||
		fail "$op: the example fails: $(cat "$1"): $(tail -5 "$T/out")"
}

for op in defrag evacuate journal_relocate prealloc; do
	help=$top/help/cmd/$op.txt
	for o in --no-undo --undo --no-fsck; do
		grep -q -- "^  $o " "$help" || fail "help $op does not list $o"
	done
	# groups of command lines, split at the description lines
	awk -v d="$T/$op" '
		/^Examples/ { f = 1; n = 1; next }
		f && /^$/ { exit }
		f && cont { sub(/^ */, ""); print > (d "." n); cont = /\|$/; next }
		f && /^  (e2layout|printf) / {
			sub(/^  /, ""); printf "%s%s", $0, (/\|$/ ? " " : "\n") > (d "." n)
			cont = /\|$/; c = 1; next }
		f && c { n++; c = 0 }' "$help"
	[ -f "$T/$op.4" ] || fail "help $op: fewer than four examples"
	for g in "$T/$op".*; do
		run "$g"
		img=$T/w/demo.img
		fsck_clean "$img" || fail "$op: $(cat "$g"): not clean: $(cat "$T/fsck.out")"
		if grep -q -- ' -w ' "$g"; then
			! cmp -s "$img" "$demo" || fail "$op: $(cat "$g") wrote nothing"
			# testlib.sh sends undo files to $E2LAYOUT_UNDO_DIR
			ls "$E2LAYOUT_UNDO_DIR"/e2layout-demo.img-*.e2undo \
				>/dev/null 2>&1 ||
				fail "$op: $(cat "$g") left no undo file"
		else
			cmp -s "$img" "$demo" || fail "$op: $(cat "$g") changed the image"
		fi
	done
done
echo "ok: the plan operations' examples run as their help says"
