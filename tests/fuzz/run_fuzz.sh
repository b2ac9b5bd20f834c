#!/bin/sh
# run_fuzz.sh DIR SECONDS - makes the seed image and corpora under DIR, runs
# each libFuzzer harness of DIR for SECONDS, then replays every committed
# crash input (tests/fuzz/crashes/HARNESS-*).  Exit 0 when nothing crashed.
set -u
dir=$1
secs=$2
here=$(cd "$(dirname "$0")" && pwd)
corpus=${E2L_CORPUS:-$here/../../../shared/corpus/e2fsprogs-tests}
status=0

# A small ext4 with a journal, files, a directory, a symlink and an xattr.
if [ ! -f "$dir/seed.img" ]; then
	src="$dir/seed-src"
	rm -rf "$src"; mkdir -p "$src/dir1"
	printf 'hello\n' > "$src/file1"
	head -c 40000 /dev/urandom > "$src/dir1/big"
	ln -s file1 "$src/link1"
	mke2fs -q -F -t ext4 -b 1024 -N 64 -J size=1 -E root_owner=0:0 -d "$src" \
		"$dir/seed.tmp" 4096 >/dev/null || exit 1
	debugfs -w -R "ea_set /file1 user.a 1" "$dir/seed.tmp" 2>/dev/null
	mv "$dir/seed.tmp" "$dir/seed.img"
	rm -rf "$src"
fi
export E2L_FUZZ_SEED="$dir/seed.img"

# Image inputs: the seed's first 64 KiB and those of a few corpus images.
mkdir -p "$dir/corpus_image" "$dir/corpus_cmdline"
head -c 65536 "$dir/seed.img" > "$dir/corpus_image/seed"
for name in f_badsymlinks f_baddir2 f_badinode f_extent_htree f_bad_fname \
	    d_inline_dump f_badjourblks f_bad_inode_csum; do
	[ -f "$corpus/$name.img.gz" ] || continue
	gzip -dc "$corpus/$name.img.gz" 2>/dev/null | head -c 65536 \
		> "$dir/corpus_image/$name"
done
cp "$here"/corpus_cmdline/* "$dir/corpus_cmdline/"

for h in image cmdline; do
	bin="$dir/fuzz_$h"
	max=65536
	[ $h = cmdline ] && max=512
	"$bin" -max_total_time="$secs" -max_len=$max -timeout=20 \
		-rss_limit_mb=1536 -print_final_stats=0 \
		-artifact_prefix="$dir/crash-$h-" "$dir/corpus_$h" \
		> "$dir/fuzz_$h.log" 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "fuzz_$h failed (exit $rc); see $dir/fuzz_$h.log:"
		grep -E "ERROR|SUMMARY|Test unit written" "$dir/fuzz_$h.log" |
			head -5
		status=1
	else
		echo "fuzz_$h: $(grep -c . "$dir/fuzz_$h.log") log lines," \
			"$(ls "$dir/corpus_$h" | wc -l) corpus inputs, no crash"
	fi
	for c in "$here"/crashes/$h-*; do
		[ -f "$c" ] || continue
		if ! "$bin" "$c" > "$dir/replay.log" 2>&1; then
			echo "regression: $c crashes fuzz_$h again"
			tail -20 "$dir/replay.log"
			status=1
		fi
	done
done
exit $status
