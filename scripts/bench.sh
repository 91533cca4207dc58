#!/usr/bin/env bash
# maintevo benchmarks: medians of repeated runs, as ratios against the floor
# measured in the same run.
#
# usage: scripts/bench.sh [--runs N] [--linux REPO] [--rev REV] [BENCH...]
#
# BENCH (default: all that have their input):
#   graph   `maintevo graph` of one Linux release (default v6.12 of the
#           repository built by shared/scripts/linux-two-releases.sh),
#           against the floor: every blob of that tree read once with
#           `git ls-tree -r | git cat-file --batch`, newlines counted
#   match   the matching step alone on that release (from --stats)
#
# Inputs: --linux (default $MEV_LINUX_REPO or /work/data/linux).
# Timings are wall-clock medians; the page cache is warmed first.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
runs=5
linux=${MEV_LINUX_REPO:-/work/data/linux}
rev=v6.12
benches=()
while [ $# -gt 0 ]; do
	case "$1" in
	--runs) runs=$2; shift 2 ;;
	--linux) linux=$2; shift 2 ;;
	--rev) rev=$2; shift 2 ;;
	-h|--help) sed -n '2,17p' "$0"; exit 0 ;;
	-*) echo "bench: unknown option '$1'" >&2; exit 2 ;;
	*) benches+=("$1"); shift ;;
	esac
done
[ ${#benches[@]} -gt 0 ] || benches=(graph match)

mev=${MAINTEVO:-$here/build/maintevo}
if [ ! -x "$mev" ]; then
	cmake -S "$here" -B "$here/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
	make -C "$here/build" -j"$(nproc)" maintevo >/dev/null
fi

# median of the wall-clock seconds of `runs` runs of "$@"
median() {
	local i t0 t1 ts=()
	for ((i = 0; i < runs; i++)); do
		t0=$(date +%s.%N)
		"$@" >/dev/null 2>&1
		t1=$(date +%s.%N)
		ts+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')")
	done
	printf '%s\n' "${ts[@]}" | sort -g | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.3f\n", m}'
}

floor_tree() { # every distinct blob of the tree once, newlines counted
	git -C "$1" ls-tree -r "$2" | awk '$2 == "blob" && !seen[$3]++ { print $3 }' |
		git -C "$1" cat-file --batch | wc -l
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

for b in "${benches[@]}"; do
	case "$b" in
	graph)
		if ! git -C "$linux" rev-parse -q --verify "$rev^{commit}" >/dev/null 2>&1; then
			echo "graph: skipped, no $rev in '$linux' (build it with shared/scripts/linux-two-releases.sh)"
			continue
		fi
		floor_tree "$linux" "$rev" >/dev/null; "$mev" graph --repo "$linux" --rev "$rev" >/dev/null 2>&1
		f=$(median floor_tree "$linux" "$rev")
		g=$(median "$mev" graph --repo "$linux" --rev "$rev" -o /dev/null)
		echo "graph $rev: maintevo ${g}s, floor (ls-tree | cat-file --batch) ${f}s, ratio $(ratio "$g" "$f") (target <= 1.3; median of $runs, $(nproc) cores)"
		;;
	match)
		if ! git -C "$linux" rev-parse -q --verify "$rev^{commit}" >/dev/null 2>&1; then
			echo "match: skipped, no $rev in '$linux'"
			continue
		fi
		ms=()
		for ((i = 0; i < runs; i++)); do
			ms+=("$("$mev" filemap --repo "$linux" --rev "$rev" --jobs 1 --stats -o /dev/null 2>&1 |
				sed -n 's/.*match \([0-9.]*\) s (\([0-9]*\) paths).*/\1 \2/p')")
		done
		printf '%s\n' "${ms[@]}" | sort -g | awk -v rev="$rev" -v n="$runs" \
			'{a[NR]=$1; p=$2} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2;
			printf "match %s: %.3f s for %d paths on one core (compile + match, median of %d)\n", rev, m, p, n}'
		;;
	*) echo "bench: unknown benchmark '$b'" >&2; exit 2 ;;
	esac
done
