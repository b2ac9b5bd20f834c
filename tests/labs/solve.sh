# solve.sh - sourced by the lab tests (not run): lab_solve LAB DIR replays
# the documented solution of help/labs/LAB.lab (its solution: lines, which
# are not compiled into e2layout) on DIR/LAB.img, writing DIR/LAB.answers:
# "sh" lines run with IMAGE, IMAGE_DIR, ANSWERS, WORK and E2LAYOUT set,
# the others go to e2layout -w as requests, in order.
lab_solve() {	# LAB DIR
	_src=$labs_src/$1.lab
	_img=$2/$1.img
	mkdir -p "$2/work"
	: > "$2/$1.answers"
	sed -n 's/^solution: //p' "$_src" > "$2/solution"
	while IFS= read -r _step; do
		case $_step in
		"sh "*)
			IMAGE=$_img IMAGE_DIR=$2 ANSWERS=$2/$1.answers \
			WORK=$2/work E2LAYOUT=$E2LAYOUT \
				sh -c "${_step#sh }" > "$2/step.out" 2>&1 ||
				{ cat "$2/step.out"; return 1; } ;;
		*)
			"$E2LAYOUT" -w -R "$_step" "$_img" > "$2/step.out" 2>&1 ||
				{ cat "$2/step.out"; return 1; } ;;
		esac
	done < "$2/solution"
}
labs_src=$(cd "$(dirname "$0")/../../help/labs" && pwd)

# The prologue the lab tests share.  lab_begin LAB: alice's scenario of
# LAB in $T/a (USER=alice from here on), its image in $img, clean by
# e2fsck -fn; after lab_solve, lab_passes LAB checks the honest solution.
lab_begin() {	# LAB
	USER=alice; export USER
	"$E2LAYOUT" lab start "$1" "$T/a" </dev/null > "$T/start.out" 2>&1 ||
		{ cat "$T/start.out"; fail "lab start $1"; }
	img=$T/a/$1.img
	fsck_clean "$img" || fail "the $1 scenario is not clean"
}
lab_passes() {	# LAB
	lab_solve "$1" "$T/a" || fail "the $1 solution failed"
	"$E2LAYOUT" lab check "$1" "$img" > "$T/ok" 2>&1 ||
		{ cat "$T/ok"; fail "the honest solution of $1 fails"; }
	grep -q "Goal met" "$T/ok" || { cat "$T/ok"; fail "$1: no Goal met"; }
}
# lab_gamed LAB IMAGE ANSWERS PATTERN WHAT: a gaming attempt; lab check
# must exit 1 with a NOT MET line naming PATTERN.
lab_gamed() {
	"$E2LAYOUT" lab check "$1" "$2" --answers "$3" > "$T/gamed.out" 2>&1
	_rc=$?
	[ $_rc -eq 1 ] || { cat "$T/gamed.out"; fail "$5 passed (lab check exits $_rc)"; }
	grep "NOT MET" "$T/gamed.out" | grep -q -- "$4" ||
		{ cat "$T/gamed.out"; fail "$5: no NOT MET naming $4"; }
	echo "ok: $5: $(grep -m1 "NOT MET" "$T/gamed.out" | sed 's/^ *//')"
}
# lab_other LAB PATTERN: bob's scenario in $T/b, solved; his answers
# differ from alice's and fail on her image, naming PATTERN.
lab_other() {
	USER=bob "$E2LAYOUT" lab start "$1" "$T/b" </dev/null > "$T/start.out" 2>&1 ||
		{ cat "$T/start.out"; fail "lab start $1 for bob"; }
	lab_solve "$1" "$T/b" || fail "bob's $1 solution failed"
	cmp -s "$T/a/$1.answers" "$T/b/$1.answers" &&
		fail "alice and bob have the same answers"
	lab_gamed "$1" "$img" "$T/b/$1.answers" "$2" "bob's answers on alice's image"
}
