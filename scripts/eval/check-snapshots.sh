#!/usr/bin/env bash
# check-snapshots.sh [--maintevo BIN] [--repo R] [--since DAY] [--until DAY]
#                    [--tags "T1 T2 ..."]: dated snapshots on a real history.
#
# 1. A monthly walk of branch master from --since to --until: every
#    snapshot's commit must be the one git names,
#    'git rev-list -1 --first-parent --before=<day>T23:59:59Z master'.
# 2. For each tag of --tags (on master, with no later commit on its day):
#    the daily snapshot of the tag's day is the tag's commit, walked from
#    the day before (incrementally), and the tag itself walked cold into
#    another store: 'graph' (CSV and GraphML) and 'filemap' must give the
#    same bytes.
#
# Defaults: the U-Boot clone $MEV_REAL_DIR/u-boot+u-boot/repo (the folder
# of real data, docs/testing.md), 2023-01-01..2024-12-31, tags v2017.01
# v2019.10 v2025.04 v2026.07 (U-Boot tags that are master's last commit
# of their day).
# Exit 0 when all agree, 1 on a difference, 77 when the repository is not
# there (ctest counts that as skipped).
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
mev=${MAINTEVO:-$here/build/maintevo}
repo=${MEV_REAL_DIR:+$MEV_REAL_DIR/u-boot+u-boot/repo}
since=2023-01-01 until=2024-12-31 tags="v2017.01 v2019.10 v2025.04 v2026.07"
while [ $# -gt 0 ]; do
	case $1 in
	--maintevo) mev=$2; shift 2 ;;
	--repo) repo=$2; shift 2 ;;
	--since) since=$2; shift 2 ;;
	--until) until=$2; shift 2 ;;
	--tags) tags=$2; shift 2 ;;
	-h | --help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "check-snapshots.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
if [ -z "$repo" ]; then
	echo "SKIP: MEV_REAL_DIR is not set and no --repo: the real-data checks are off (docs/testing.md)"
	exit 77
fi
if ! git -C "$repo" rev-parse -q --verify master >/dev/null 2>&1; then
	echo "SKIP: no repository with a master branch at '$repo'"
	exit 77
fi
[ -x "$mev" ] || { echo "check-snapshots.sh: '$mev' is not an executable" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mev-snapcheck.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
bad=0

echo "# 1. monthly snapshots of master, $since..$until, against git rev-list"
"$mev" walk --repo "$repo" --store "$tmp/m" --branch master --every month --since "$since" --until "$until" -q
n=0
while IFS=, read -r rel commit; do
	day=${rel#master@}
	want=$(git -C "$repo" rev-list -1 --first-parent --before="${day}T23:59:59Z" master)
	if [ "$want" != "$commit" ]; then
		echo "DIFFER: $rel is $commit, git names $want"
		bad=1
	fi
	n=$((n + 1))
done < <("$mev" releases --store "$tmp/m" | tail -n +2 | cut -d, -f1,3)
echo "$n snapshots, $([ $bad = 0 ] && echo "all as git names them" || echo "some differ")"

echo "# 2. a snapshot at a tag's commit gives the same bytes as the tag"
for t in $tags; do
	c=$(git -C "$repo" rev-parse -q --verify "$t^{commit}") || { echo "no tag $t: left out"; continue; }
	day=$(TZ=UTC git -C "$repo" log -1 --format=%cd --date=format-local:%F "$c")
	at=$(git -C "$repo" rev-list -1 --first-parent --before="${day}T23:59:59Z" master)
	if [ "$at" != "$c" ]; then
		echo "$t: master at the end of $day is ${at:0:12}, not the tag: left out"
		continue
	fi
	prev=$(TZ=UTC date -u -d "$day - 1 day" +%F)
	"$mev" walk --repo "$repo" --store "$tmp/s-$t" --branch master --every day --since "$prev" --until "$day" -q
	"$mev" walk --repo "$repo" --store "$tmp/t-$t" --tags "$t" -q
	same=1
	for what in "graph" "graph --format graphml" "filemap"; do
		# shellcheck disable=SC2086
		"$mev" $what --store "$tmp/s-$t" --release "master@$day" -o "$tmp/snap.out"
		# shellcheck disable=SC2086
		"$mev" $what --store "$tmp/t-$t" --release "$t" -o "$tmp/tag.out"
		if ! cmp -s "$tmp/snap.out" "$tmp/tag.out"; then
			echo "DIFFER: $what of master@$day and of $t"
			same=0 bad=1
		fi
	done
	[ $same = 0 ] || echo "$t = master@$day (${c:0:12}): graph, graphml, filemap the same bytes ($(wc -c <"$tmp/snap.out") bytes of filemap)"
done
[ $bad = 0 ] && echo "PASS" || { echo "FAIL"; exit 1; }
