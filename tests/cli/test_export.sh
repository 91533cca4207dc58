# maintevo export and report on the demo history: every table agrees with
# docs/schemas.md in CSV, JSON and JSON Lines (read back with Python's csv
# and json modules), graphs parse, reports are stable, self-contained and
# escape every name; usage errors exit 2.
. "$(dirname "$0")/lib.sh" "$@"
command -v python3 >/dev/null || skip "python3 is not installed"
# the interpreter itself, not a version manager's shim (much faster to start)
PY=$(python3 -c 'import sys; print(sys.executable)')
CHECK="$PY $HERE/helpers/check_export.py"
SCHEMAS=$SRC/docs/schemas.md

step "demo history: walk, cluster, track"
bash "$SRC/scripts/make-demo-repo.sh" demo >/dev/null
expect_exit 0 "$MEV" walk --repo demo --store S -q
expect_exit 0 "$MEV" track --store S -q

step "every table in csv, json and jsonl, as docs/schemas.md says"
for t in releases sections edges clusters events lineages flows section_changes health; do
	for f in csv json jsonl; do
		expect_exit 0 "$MEV" export "$t" --store S --format "$f" -o "$t.$f"
	done
	$CHECK table "$SCHEMAS" "$t" "$t.csv" "$t.json" "$t.jsonl" || fail "table $t"
done
for f in csv json jsonl; do
	expect_exit 0 "$MEV" export files --store S --release v1.7 --format "$f" -o "files.$f"
	expect_exit 0 "$MEV" export files --store S --path drivers/net/wireless/ath/ath9k/main.c \
		--format "$f" -o "history.$f"
done
$CHECK table "$SCHEMAS" files files.csv files.json files.jsonl || fail "table files"
$CHECK table "$SCHEMAS" files history.csv history.json history.jsonl || fail "table files --path"

step "the short commands print the export tables, in every format"
for f in csv json jsonl; do
	for t in releases events lineages section-changes; do
		expect_exit 0 "$MEV" "$t" --store S --format "$f" -o "short-$t.$f"
		same_files "${t/-/_}.$f" "short-$t.$f"
	done
	expect_exit 0 "$MEV" clusters --store S --release v1.4 --format "$f" -o short-clusters.$f
	expect_exit 0 "$MEV" export clusters --store S --release v1.4 --format "$f" -o clusters-v1.4.$f
	same_files clusters-v1.4.$f short-clusters.$f
done
$CHECK table "$SCHEMAS" clusters clusters-v1.4.csv clusters-v1.4.json clusters-v1.4.jsonl ||
	fail "table clusters --release"

step "--from and --to: the pairs between two releases, in export and the short commands"
for t in events section_changes; do
	expect_exit 0 "$MEV" export "$t" --store S --from v1.3 --to v1.5 -o "$t-35.csv"
	awk -F, 'NR > 1 && ($1 < "v1.3" || $2 > "v1.5") { exit 1 }' "$t-35.csv" || fail "$t --from/--to"
	awk -F, 'NR > 1 && $1 == "v1.3" { a = 1 } NR > 1 && $2 == "v1.5" { b = 1 } END { exit !(a && b) }' \
		"$t-35.csv" || fail "$t --from/--to lost the pairs at its ends"
	expect_exit 0 "$MEV" "${t/_/-}" --store S --from v1.3 --to v1.5 -o "short-$t-35.csv"
	same_files "$t-35.csv" "short-$t-35.csv"
done
expect_exit 0 "$MEV" export events --store S --from v1.3 --to v1.5 --release v1.4 -o events-4.csv
awk -F, 'NR > 1 && $2 != "v1.4" { exit 1 }' events-4.csv || fail "events --release with --from/--to"
[ "$(wc -l < events-4.csv)" -gt 1 ] || fail "events --release v1.4 kept nothing"

step "the tables hold the planted events"
$CHECK field releases.csv release v1.7 || fail "releases"
[ "$(($(wc -l < releases.csv) - 1))" -eq 8 ] || fail "releases.csv has $(wc -l < releases.csv) lines"
$CHECK field section_changes.csv new_section "DRM DRIVERS AND COMMON INFRASTRUCTURE" || fail "rename"
$CHECK field events.csv event split || fail "no split event"
$CHECK field events.csv event merge || fail "no merge event"
$CHECK field sections.csv section "MEMORY MANAGEMENT, CORE" || fail "quoted title"
# the ath9k file is in every release, covered by the wired and then the
# wireless networking section
for t in v1.0 v1.3 v1.4 v1.7; do grep -q "^$t,drivers/net/wireless/ath/ath9k/main.c," history.csv ||
	fail "history.csv lacks $t"; done
grep -q '^v1.4,drivers/net/wireless/ath/ath9k/main.c,file,[0-9]*,[0-9]*,NETWORKING DRIVERS (WIRELESS),' \
	history.csv || fail "history.csv: ath9k not in NETWORKING DRIVERS (WIRELESS) at v1.4"
# every section of a clustered, tracked release has a cluster and a lineage
awk -F, 'NR > 1 && $1 == "v1.7" && ($(NF) == "" || $(NF-2) == "") { bad++ } END { exit bad > 0 }' \
	sections.csv || fail "sections.csv: a v1.7 section without cluster or lineage"

step "same bytes twice"
for t in releases sections clusters events; do
	"$MEV" export "$t" --store S --format json > again.json
	same_files "$t.json" again.json
done

step "graphs: GraphML, node-link JSON and DOT, sections and clusters"
expect_exit 0 "$MEV" export graph --store S --release v1.4 -o g.graphml
$CHECK graphml g.graphml "name=NETWORKING DRIVERS (WIRELESS)" "representative=NETWORKING DRIVERS (WIRELESS)" \
	|| fail "graphml"
expect_exit 0 "$MEV" export graph --store S --release v1.4 --format json -o g.json
$CHECK nodelink g.json || fail "node-link json"
expect_exit 0 "$MEV" export graph --store S --release v1.4 --format dot -o g.dot
grep -q '^graph "v1.4" {$' g.dot || fail "dot header"
grep -q 'label="MEMORY MANAGEMENT, CORE".*cluster=[0-9]*.*lineage=[0-9]*' g.dot || fail "dot attributes"
expect_exit 0 "$MEV" export graph --meta --store S --release v1.4 -o m.graphml
$CHECK graphml m.graphml "name=NETWORKING DRIVERS (WIRELESS)" || fail "meta graphml"
expect_exit 0 "$MEV" export graph --meta --store S --release v1.4 --format json -o m.json
$CHECK nodelink m.json || fail "meta node-link json"

step "report: Markdown and HTML, stable, self-contained"
expect_exit 0 "$MEV" report --store S -o r.md
# the default pair: the newest with events (v1.7 changes code only)
grep -q '^# Linux: v1.4 → v1.5$' r.md || fail "report title"
expect_exit 0 "$MEV" report --store S --from v1.3 --to v1.5 -o r35.md
for want in '### Splits' '### Merges' '### Died' 'NETWORKING DRIVERS (WIRELESS)' 'USB SUBSYSTEM' \
	'ISDN SUBSYSTEM' '| Orphaned sections (S: Orphan) |'; do
	grep -qF -- "$want" r35.md || fail "r35.md lacks '$want'"
done
expect_exit 0 "$MEV" report --store S --from v1.3 --to v1.5 --format html -o r35.html
$CHECK html r35.html > html.out || fail "r35.html"
grep -q '^5 charts' html.out || fail "r35.html: $(cat html.out), expected 5 charts (the fourth: MAINTAINERS health; the fifth: the lineage chart)"
# the lineage chart: one band per lineage drawn, the compared pair shaded
grep -q '<figure class="chart lineages">' r35.html || fail "r35.html: no lineage chart"
grep -q 'class="mark"' r35.html || fail "r35.html: the lineage chart shades no pair"
grep -qF 'shaded: v1.3 &#8594; v1.5' r35.html || grep -qF 'shaded: v1.3 → v1.5' r35.html ||
	fail "r35.html: the lineage chart does not name the pair it shades"
"$MEV" report --store S --from v1.3 --to v1.5 --format html > again.html
same_files r35.html again.html

step "names are escaped everywhere (<script>, quotes, &)"
evil='<script>alert("x")</script> & "QUOTED" DRIVER'
mkrepo e
mkdir -p e/drivers/evil e/net
printf 'int x;\n' > e/drivers/evil/a.c
printf 'int y;\nint z;\n' > e/net/core.c
cat > e/MAINTAINERS <<EOF
Maintainers list

$evil
M:	A <a@example.org>
S:	Maintained
F:	drivers/evil/

NET, "FAST" & <SLOW> | [x] *y* \`z\`
M:	B <b@example.org>
S:	Orphan
F:	net/
F:	drivers/evil/a.c

THE REST
M:	C <c@example.org>
F:	*
F:	*/
EOF
commit_all e v1.0
printf 'int x;\nint w;\n' > e/drivers/evil/a.c
printf 'int q;\n' > e/drivers/evil/b.c
commit_all e v1.1
expect_exit 0 "$MEV" walk --repo e --store E -q
expect_exit 0 "$MEV" track --store E -q
expect_exit 0 "$MEV" report --store E --format html -o e.html
$CHECK html e.html > /dev/null || fail "e.html"
grep -qF '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;QUOTED&quot; DRIVER' e.html ||
	fail "e.html: the title is not escaped as expected"
expect_exit 0 "$MEV" report --store E -o e.md
grep -qF '\<script\>alert("x")\</script\> & "QUOTED" DRIVER' e.md || fail "e.md: title not escaped"
grep -qF 'NET, "FAST" & \<SLOW\> \| \[x\] \*y\* \`z\`' e.md || fail "e.md: markup not escaped"
for f in csv json jsonl; do expect_exit 0 "$MEV" export sections --store E --format "$f" -o "e.$f"; done
$CHECK table "$SCHEMAS" sections e.csv e.json e.jsonl > /dev/null || fail "e sections"
$CHECK field e.csv section "$evil" || fail "e.csv: the title does not read back"
expect_exit 0 "$MEV" export graph --store E --release v1.1 -o e.graphml
$CHECK graphml e.graphml "name=$evil" > /dev/null || fail "e.graphml: the title does not read back"
expect_exit 0 "$MEV" export graph --store E --release v1.1 --format dot -o e.dot
grep -qF 'label="<script>alert(\"x\")</script> &amp; \"QUOTED\" DRIVER"' e.dot || fail "e.dot: quotes"

step "usage errors: exit 2 with a hint; failures: exit 1"
expect_exit 2 "$MEV" export
expect_error "say which table"
expect_exit 2 "$MEV" export tables --store S
expect_error "unknown table 'tables'"
expect_exit 2 "$MEV" export files --store S
expect_error "needs --release TAG"
expect_exit 2 "$MEV" export sections --store S --path x
expect_error "--path goes with the files table only"
expect_exit 2 "$MEV" export sections --store S --from v1.3
expect_error "--from and --to go with the events, flows, section_changes and workload tables only"
expect_exit 1 "$MEV" export events --store S --to v9.9
expect_error "release 'v9.9' is not in store"
expect_exit 2 "$MEV" events --store S --format xml
expect_error "unknown format 'xml' (use csv, json or jsonl)"
expect_exit 2 "$MEV" export graph --store S
expect_error "needs --release"
expect_exit 2 "$MEV" export releases --store S --format xml
expect_error "unknown format 'xml'"
expect_exit 2 "$MEV" export releases --store S --steps 5 --method louvain
expect_error "--steps is for walktrap"
expect_exit 1 "$MEV" export sections --store S --release v9.9
expect_error "release 'v9.9' is not in store"
expect_exit 1 "$MEV" export events --store S --method louvain
expect_error "not tracked with louvain"
[ ! -s "$OUT" ] || fail "a failed export wrote a header"
[ ! -e nothing.csv ] || fail "a failed export left a file"
expect_exit 1 "$MEV" export events --store S --method louvain -o nothing.csv
[ ! -e nothing.csv ] || fail "a failed export left its output file"
expect_exit 2 "$MEV" report --store S --format pdf
expect_error "unknown format 'pdf'"
expect_exit 1 "$MEV" report --store S --from v1.5 --to v1.3
expect_error "--from 'v1.5' comes after --to 'v1.3': the range is reversed"
expect_exit 1 "$MEV" report --store S --to v1.0
expect_error "the oldest stored"
expect_exit 1 "$MEV" report --store missing
expect_error "no maintevo store at 'missing'"
echo "PASS"
