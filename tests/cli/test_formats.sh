# graph --format graphml and json load in Python's standard parsers and say
# exactly what the CSV says: same vertices, same edges, same numbers.
. "$(dirname "$0")/lib.sh" "$@"
. "$SRC/tests/fixtures/tiny-repo.sh"
command -v python3 >/dev/null || skip "python3 is not installed"

# check_formats REPO REV [OPTION]: write the three formats and compare them.
check_formats() {
	local repo=$1 rev=$2
	shift 2
	expect_exit 0 "$MEV" graph --repo "$repo" --rev "$rev" "$@" --out g.csv
	expect_exit 0 "$MEV" graph --repo "$repo" --rev "$rev" "$@" --format graphml --out g.graphml
	expect_exit 0 "$MEV" graph --repo "$repo" --rev "$rev" "$@" --format json --out g.json
	last_cmd="compare g.csv g.graphml g.json"
	python3 - g.csv g.graphml g.json >"$OUT" 2>"$ERR" <<'EOF' || fail "the formats disagree"
import csv, json, sys
import xml.etree.ElementTree as ET

csv_path, graphml_path, json_path = sys.argv[1:]
with open(csv_path, newline="", encoding="utf-8") as f:
    rows = list(csv.reader(f))
assert rows[0] == ["from", "to", "lines", "bytes", "files"], rows[0]
nodes, edges = {}, {}
for a, b, *n in rows[1:]:
    assert a <= b, (a, b)
    (nodes if a == b else edges)[(a, b) if a != b else a] = tuple(map(int, n))

# GraphML: declared keys, one node per section, one edge per pair.
ns = {"g": "http://graphml.graphdrawing.org/xmlns"}
root = ET.parse(graphml_path).getroot()
keys = {k.get("id"): (k.get("for"), k.get("attr.name")) for k in root.findall("g:key", ns)}
names = {f: sorted(n for w, n in keys.values() if w == f) for f in ("node", "edge")}
assert names["node"] == ["bytes", "files", "lines", "maintainers", "name", "status"], names
assert names["edge"] == ["bytes", "files", "lines", "weight"], names
graph = root.find("g:graph", ns)
assert graph.get("edgedefault") == "undirected"

def data(el):
    return {keys[d.get("key")][1]: d.text or "" for d in el.findall("g:data", ns)}

by_id = {}
for n in graph.findall("g:node", ns):
    d = data(n)
    by_id[n.get("id")] = d["name"]
    assert nodes[d["name"]] == (int(d["lines"]), int(d["bytes"]), int(d["files"])), d
assert sorted(by_id.values()) == sorted(nodes), "GraphML nodes differ from the CSV self rows"
seen = set()
for e in graph.findall("g:edge", ns):
    d = data(e)
    pair = tuple(sorted((by_id[e.get("source")], by_id[e.get("target")])))
    assert pair[0] != pair[1], "self loop in GraphML"
    assert edges[pair] == (int(d["lines"]), int(d["bytes"]), int(d["files"])), (pair, d)
    assert float(d["weight"]) == int(d["lines"]), d
    seen.add(pair)
assert seen == set(edges), "GraphML edges differ from the CSV"

# JSON: networkx node-link form.
with open(json_path, encoding="utf-8") as f:
    j = json.load(f)
assert j["directed"] is False and j["multigraph"] is False
jn = {n["id"]: n for n in j["nodes"]}
assert set(jn) == set(nodes), "JSON nodes differ from the CSV"
for name, n in jn.items():
    assert nodes[name] == (n["lines"], n["bytes"], n["files"]), n
jl = {tuple(sorted((l["source"], l["target"]))): l for l in j["links"]}
assert len(jl) == len(j["links"]) == len(edges), "JSON links differ from the CSV"
for pair, l in jl.items():
    assert edges[pair] == (l["lines"], l["bytes"], l["files"]) and l["weight"] == l["lines"], l

# Print what the shell checks next: node and edge counts, then every node.
print(len(nodes), len(edges))
for d in sorted((data(n) for n in graph.findall("g:node", ns)), key=lambda d: d["name"]):
    print("|".join(d[k] for k in ("name", "lines", "bytes", "files", "status", "maintainers")))
EOF
}

make_tiny_repo tiny

step "tiny repository: 7 vertices, 1 edge; attributes as written in MAINTAINERS"
check_formats tiny v1
expect_stdout <<'EOF'
7 1
8250 SERIAL|0|6|1|Maintained|0
ARM DEBUG|1|13|1|Odd Fixes|0
ARM PORT|3|30|2|Maintained|2
EMPTY SECTION|0|0|0|Orphan|0
LINKED DOCS|0|14|1|Supported|0
NETWORKING, "CORE" DRIVERS|3|21|1|Odd Fixes|0
WIRELESS|4|28|1|Maintained|0
EOF

step "tiny repository with --keep-rest: THE REST is a vertex joined to 6 sections"
check_formats tiny v1 --keep-rest
expect_stdout_contains "8 7"
expect_stdout_contains "THE REST|60|744|11|Buried alive in reporters|1"

step "demo repository: at every tag the three formats agree"
"$SRC"/scripts/make-demo-repo.sh demo >/dev/null
for rev in $(git -C demo tag); do
	check_formats demo "$rev"
done
[ "$(head -n 1 "$OUT")" = "36 18" ] || fail "v1.7: expected 36 vertices and 18 edges"

# graph and export graph go through one writer: where their content is the
# same (no clusters), so are their bytes.
step "graph --format dot is export graph --format dot without the cluster attributes"
expect_exit 0 "$MEV" walk --repo demo --store S -q
expect_exit 0 "$MEV" graph --repo demo --rev v1.7 --format dot -o repo.dot
expect_exit 0 "$MEV" graph --store S --release v1.7 --format dot -o graph.dot
expect_exit 0 "$MEV" export graph --store S --release v1.7 --format dot -o export.dot
same_files repo.dot graph.dot
same_files graph.dot export.dot
grep -qF 'graph "v1.7" {' graph.dot || fail "the DOT graph is not named after the release"
if command -v dot >/dev/null; then
	expect_exit 0 dot -Tsvg graph.dot -o graph.svg
fi
expect_exit 0 "$MEV" cluster --store S -q
expect_exit 0 "$MEV" track --store S -q
expect_exit 0 "$MEV" export graph --store S --release v1.7 --format dot -o export.dot
grep -q ', cluster=[0-9]' export.dot || fail "export graph: no cluster attribute"
sed -E 's/, cluster=[0-9]+//; s/, representative="([^"\\]|\\.)*"//; s/, lineage=[0-9]+//;
	s/, lineage_name="([^"\\]|\\.)*"//' export.dot >stripped.dot
same_files graph.dot stripped.dot

step "export graph --format csv is graph's CSV without the self rows, with a weight"
expect_exit 0 "$MEV" graph --store S --release v1.7 -o graph.csv
expect_exit 0 "$MEV" export graph --store S --release v1.7 --format csv -o export.csv
last_cmd="compare graph.csv export.csv"
python3 - graph.csv export.csv >"$OUT" 2>"$ERR" <<'EOF' || fail "the edge lists disagree"
import csv, sys
g, x = (list(csv.reader(open(p, newline="", encoding="utf-8"))) for p in sys.argv[1:])
assert x[0] == g[0] + ["weight"], x[0]
assert [r[:5] for r in x[1:]] == [r for r in g[1:] if r[0] != r[1]]
assert all(r[5] == r[2] for r in x[1:])
EOF
echo "PASS"
