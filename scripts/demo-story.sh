#!/usr/bin/env bash
# demo-story.sh --store S --out DIR [--maintevo BIN]: the first picture of
# scripts/demo.sh.  Write into DIR the report (report.html, report.md) of
# the pair 'maintevo report' compares without --from and --to (the newest
# pair of releases with subsystems born, died, split or merged) and the
# lineage chart of the whole history with that pair shaded (chart.html);
# print one line that names the pair and what happened in it.  The nightly
# job reports the newest pair instead, events or not: that is its news.
set -euo pipefail
me=demo-story.sh
usage() { echo "usage: scripts/$me --store S --out DIR [--maintevo BIN]"; }
store='' out='' mev=${MAINTEVO:-}
while [ $# -gt 0 ]; do
	case $1 in
	--store | --out | --maintevo)
		[ $# -ge 2 ] || { echo "$me: error: $1 needs a value" >&2; exit 2; }
		case $1 in --store) store=$2 ;; --out) out=$2 ;; *) mev=$2 ;; esac
		shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) echo "$me: error: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
	esac
done
if [ -z "$store" ] || [ -z "$out" ]; then usage >&2; exit 2; fi
[ -n "$mev" ] || mev=$(cd "$(dirname "$0")/.." && pwd)/build/maintevo
mkdir -p "$out"

# the report says on stderr which pair it picked when that is not the newest
note=$("$mev" report --store "$store" -o "$out/report.md" 2>&1) ||
	{ echo "$me: error: $note" >&2; exit 1; }
"$mev" report --store "$store" --format html -o "$out/report.html" 2>/dev/null ||
	{ echo "$me: error: the HTML report failed" >&2; exit 1; }
# the pair from the report's own heading: "... from release A (DATE) to B (DATE)"
pair=$(sed -n 's/.* from release \([^ ]*\) ([^)]*) to \([^ ]*\) (.*/\1 \2/p' "$out/report.md" | head -n 1)
from=${pair% *} to=${pair#* }
if [ -z "$pair" ]; then echo "$me: error: no pair in the report's heading" >&2; exit 1; fi
"$mev" chart --store "$store" --mark "$from..$to" -o "$out/chart.html"
counts=$(grep -m1 -o '^[0-9]* born, [0-9]* died, [0-9]* split, [0-9]* merged' "$out/report.md" || true)
case $note in
*"the newest pair with events"*) why="the newest pair with events" ;;
*) why="the newest pair" ;;
esac
echo "$from -> $to, $why (${counts:-no subsystems tracked})"
