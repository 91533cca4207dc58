#!/usr/bin/env bash
# snapshot-outputs.sh MAINTEVO STORE DIR: write every output a store gives
# (every export table in CSV and JSON, the short commands' CSVs, the graphs
# of the newest release in every format, both reports, the chart as page
# and SVG, explain and history of one lineage and one path) into DIR, one file
# each, so that two builds can be compared with 'diff -r'.  Used to check
# that a refactoring changes no byte (docs/design.md).
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: scripts/dev/snapshot-outputs.sh MAINTEVO STORE DIR" >&2; exit 2; }
mev=$1 store=$2 dir=$3
mkdir -p "$dir"
newest=$("$mev" releases --store "$store" | tail -n 1 | cut -d, -f1)
first=$("$mev" releases --store "$store" | sed -n 2p | cut -d, -f1)
run() { local name=$1; shift; "$mev" "$@" >"$dir/$name" 2>"$dir/$name.err" || echo "exit $?" >>"$dir/$name.err"; }
for t in releases sections edges clusters events lineages flows section_changes commits flow people health workload; do
	run "export-$t.csv" export "$t" --store "$store"
	run "export-$t.json" export "$t" --store "$store" --format json
	run "export-$t.jsonl" export "$t" --store "$store" --format jsonl
done
run export-workload-section.csv export workload --store "$store" --by section
run export-workload-cluster.csv export workload --store "$store" --by cluster
run export-files-newest.csv export files --store "$store" --release "$newest"
run export-files-makefile.csv export files --store "$store" --path Makefile
run export-files-maintainers.json export files --store "$store" --path MAINTAINERS --format json
for f in graphml json dot; do
	run "export-graph.$f" export graph --store "$store" --release "$newest" --format "$f"
	run "export-meta.$f" export graph --store "$store" --release "$newest" --format "$f" --meta
done
run releases.csv releases --store "$store"
run clusters.csv clusters --store "$store" --release "$newest"
run events.csv events --store "$store"
run lineages.csv lineages --store "$store"
run section-changes.csv section-changes --store "$store"
run filemap-newest.csv filemap --store "$store" --release "$newest"
run filemap-first.csv filemap --store "$store" --release "$first"
for f in csv graphml json dot; do
	run "graph-newest.$f" graph --store "$store" --release "$newest" --format "$f"
done
run report.md report --store "$store"
run report.html report --store "$store" --format html
run report-all.md report --store "$store" --from "$first" --to "$newest"
run report-all.html report --store "$store" --from "$first" --to "$newest" --format html
run store-info.txt store info --store "$store"
run chart.html chart --store "$store"
run chart.svg chart --store "$store" --format svg
run explain-lineage-1.txt explain --store "$store" --release "$newest" --lineage 1
run explain-makefile.txt explain --store "$store" --release "$newest" Makefile
run history-makefile.txt history --store "$store" Makefile
# the SQLite export, as SQL text (the file's own bytes carry page layout)
if command -v sqlite3 >/dev/null; then
	rm -f "$dir/all.db"
	"$mev" export all --store "$store" --format sqlite -o "$dir/all.db" >/dev/null 2>&1 || echo "exit $?" >"$dir/all.db.err"
	sqlite3 "$dir/all.db" .dump >"$dir/all.sql" 2>&1 || true
	rm -f "$dir/all.db"
fi
