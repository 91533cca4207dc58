#!/usr/bin/env bash
# planted-eval.sh: precision and recall of `maintevo track` on planted histories.
#
# usage: scripts/eval/planted-eval.sh [--seeds "1 2 3 4 5"] [--gen "ARGS"] [-- TRACK-ARGS...]
#
# For each seed: scripts/eval/make-planted-repo.py builds a history (extra
# generator arguments in --gen, e.g. "--events 8 --groups 30 --releases 12"),
# `maintevo walk` stores it, `maintevo track TRACK-ARGS` (e.g. --smooth,
# --method leiden, --link 0.2) follows its clusters, and
# scripts/eval/planted-score.py compares events and section changes with the
# planted truth.  Prints one CSV row per seed and measure, then the means.
# MAINTEVO names the binary (default build/maintevo).  Needs git and python3.
set -euo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
mev=${MAINTEVO:-$here/build/maintevo}
seeds="1 2 3 4 5"
gen=""
while [ $# -gt 0 ]; do
	case "$1" in
	--seeds) seeds=$2; shift 2 ;;
	--gen) gen=$2; shift 2 ;;
	--) shift; break ;;
	-h|--help) sed -n '2,14p' "$0"; exit 0 ;;
	*) echo "planted-eval: unknown option '$1' (track options go after --)" >&2; exit 2 ;;
	esac
done
[ -x "$mev" ] || { echo "planted-eval: no maintevo at '$mev' (build it, or set MAINTEVO)" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mev-planted.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# events takes the clustering options and the tracker's thresholds (its
# results are keyed by both), section-changes --rename only, track all
read_args=()
track_only=()
rename=()
while [ $# -gt 0 ]; do
	case "$1" in
	-j|--jobs) track_only+=("$1" "$2"); shift 2 ;;
	--rename) rename=("$1" "$2"); read_args+=("$1" "$2"); shift 2 ;;
	*) read_args+=("$1"); shift ;;
	esac
done
echo "seed,measure,truth,reported,matched,precision,recall"
for s in $seeds; do
	# shellcheck disable=SC2086
	python3 "$here/scripts/eval/make-planted-repo.py" --seed "$s" $gen --truth "$tmp/truth-$s.csv" "$tmp/repo-$s" >/dev/null
	"$mev" walk -q --repo "$tmp/repo-$s" --store "$tmp/store-$s"
	"$mev" track -q --store "$tmp/store-$s" ${track_only[@]+"${track_only[@]}"} ${read_args[@]+"${read_args[@]}"}
	"$mev" events --store "$tmp/store-$s" ${read_args[@]+"${read_args[@]}"} > "$tmp/events-$s.csv"
	"$mev" section-changes --store "$tmp/store-$s" ${rename[@]+"${rename[@]}"} > "$tmp/sections-$s.csv"
	python3 "$here/scripts/eval/planted-score.py" --quiet "$tmp/truth-$s.csv" "$tmp/events-$s.csv" \
		"$tmp/sections-$s.csv" | tail -n +2 | sed "s/^/$s,/"
done | tee "$tmp/all.csv"
awk -F, '{ n[$2]++; p[$2] += $6; r[$2] += $7 }
	END { for (m in n) printf "mean,%s,,,,%.4f,%.4f\n", m, p[m] / n[m], r[m] / n[m] }' "$tmp/all.csv" | sort
