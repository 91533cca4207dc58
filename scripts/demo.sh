#!/usr/bin/env bash
# demo.sh: install the dependencies, build maintevo in ./build, generate the
# demo history in ./demo/repo (once) and run the whole pipeline on it with
# scripts/nightly.sh: walk every release into ./demo/store, cluster, track,
# export every table (CSV) and the graphs, and write the report of the newest
# release against the previous one (HTML and Markdown), in ./demo/out/; then
# the first picture (scripts/demo-story.sh): the report of the newest pair
# with events and the chart with that pair shaded, in ./demo/story/.
set -euo pipefail
case ${1:-} in
"") ;;
-h | --help) sed -n '2,8p' "$0" | sed 's/^# //'; exit 0 ;;
*) echo "usage: scripts/demo.sh" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.."
root=$PWD

scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)" --target maintevo

if ! git -C demo/repo rev-parse --verify -q v1.7 >/dev/null 2>&1; then
	rm -rf demo/repo
	scripts/make-demo-repo.sh demo/repo
fi

out=$root/demo/out
scripts/nightly.sh --repo demo/repo --store demo/store --out "$out" --title "maintevo demo" \
	--maintevo build/maintevo --no-fetch -q
rev=$(readlink "$out/latest")
# the newest pair of the demo changes code only: the story is further back
story=$(scripts/demo-story.sh --store demo/store --out "$root/demo/story" --maintevo build/maintevo)

cat <<MSG

maintevo demo: every release of the demo history in $root/demo/repo,
walked, clustered and tracked in $root/demo/store
  the story: $story
  report (open it in a browser): $root/demo/story/report.html
  lineage chart, pair shaded:    $root/demo/story/chart.html
the nightly job's outputs ($rev against the release before, events or not):
  report:                        $out/latest/report.html
  lineage chart (interactive):   $out/latest/chart.html
  the same as Markdown:          $out/latest/report.md
  tables (CSV, docs/schemas.md): $out/latest/csv/
  graphs of $rev (GraphML):      $out/latest/graph.graphml, clusters.graphml
MSG
