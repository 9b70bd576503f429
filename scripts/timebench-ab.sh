#!/bin/sh
# timebench-ab.sh: the simulator's speed before and after, in one run on one machine: builds BASE
# (a commit) in DIR with this tree's bench/timebench.c (so that it has --once), then launches each
# timebench workload once per round with the BASE build and with this build in turn, REPS rounds,
# in timing mode on one thread and on THREADS threads, and in functional mode; it prints the
# median warp instructions per second of each, their ratio, and whether the simulated warp
# instructions and cycles are the same (they must be: a speed change changes no result).
#
#   sh scripts/timebench-ab.sh BASE [REPS] [THREADS] [DIR]     # run from the repository root
set -eu
base=${1:?usage: timebench-ab.sh BASE [REPS] [THREADS] [DIR]}
reps=${2:-3}
threads=${3:-2}
dir=${4:-build/bench/ab-$base}
new=build/bench/timebench
if ! git rev-parse -q --verify "$base^{commit}" >/dev/null 2>&1; then
	echo "timebench-ab: no commit $base in this checkout (a shallow clone?): skipped"
	exit 0
fi
if [ ! -x "$dir/build/bench/timebench" ]; then
	echo "timebench-ab: building $base in $dir (log: $dir.log)"
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp"
	git archive "$base" | tar -x -C "$dir.tmp"
	cp bench/timebench.c bench/benchutil.c bench/benchutil.h "$dir.tmp/bench/"
	if ! make -C "$dir.tmp" -j2 build/bench/timebench >"$dir.log" 2>&1; then
		echo "timebench-ab: the build of $base failed (see $dir.log)"
		exit 1
	fi
	mv "$dir.tmp" "$dir"
fi
# one launch: "wi cycles seconds" of the line of --once
once() {
	"$1" --once "$2" -t "$3" -k "$4" --root "$(pwd)" |
		awk '{ for (i = 2; i <= NF; i++) { if ($i == "wi") w = $(i - 1);
		       if ($i == "cycles") c = $(i - 1); if ($i == "s") s = $(i - 1) } }
		     END { print w, c, s }'
}
med() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "timebench-ab: $base (before) against this build (after), median of $reps rounds, alternating"
printf '  %-11s %-13s %12s %12s %7s %5s\n' kind mode "before M/s" "after M/s" ratio same
for spec in "timing 1" "timing $threads" "functional 1"; do
	set -- $spec
	mode=$1 thr=$2
	for kind in tensor attention memory elementwise fiber; do
		: >"$tmp/b"
		: >"$tmp/a"
		r=0
		while [ "$r" -lt "$reps" ]; do
			once "$dir/build/bench/timebench" "$mode" "$thr" "$kind" >>"$tmp/b"
			once "$new" "$mode" "$thr" "$kind" >>"$tmp/a"
			r=$((r + 1))
		done
		wb=$(awk 'NR == 1 { print $1 }' "$tmp/b")
		same=$(cat "$tmp/b" "$tmp/a" | awk '{ print $1, $2 }' | sort -u | wc -l)
		sb=$(awk '{ print $3 }' "$tmp/b" | med)
		sa=$(awk '{ print $3 }' "$tmp/a" | med)
		awk -v k="$kind" -v m="$mode $thr thr" -v w="$wb" -v b="$sb" -v a="$sa" -v s="$same" \
			'BEGIN { printf "  %-11s %-13s %12.2f %12.2f %6.2fx %5s\n", k, m, w / b * 1e-6,
			         w / a * 1e-6, b / a, s == 1 ? "yes" : "NO" }'
	done
done
