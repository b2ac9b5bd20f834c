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
