# maintevo history (a path or a section over the releases) and export files
# --path with directories, on the demo history (scripts/make-demo-repo.sh):
# the tables as docs/schemas.md says, the releases where things changed,
# renames followed, did-you-mean for what names nothing, usage errors.
. "$(dirname "$0")/lib.sh" "$@"
command -v python3 >/dev/null || skip "python3 is not installed"
PY=$(python3 -c 'import sys; print(sys.executable)')
CHECK="$PY $HERE/helpers/check_export.py"
SCHEMAS=$SRC/docs/schemas.md

step "demo history: walk, track"
bash "$SRC/scripts/make-demo-repo.sh" demo >/dev/null
expect_exit 0 "$MEV" walk --repo demo --store S -q
expect_exit 0 "$MEV" track --store S -q

step "history of a directory: the tables as docs/schemas.md says"
for f in csv json jsonl; do
	expect_exit 0 "$MEV" history --store S drivers/net/wireless --format "$f" -o "dir.$f"
	expect_exit 0 "$MEV" history --store S --section "USB HOST SUBSYSTEM" --format "$f" -o "sec.$f"
done
$CHECK table "$SCHEMAS" history dir.csv dir.json dir.jsonl || fail "table history"
$CHECK table "$SCHEMAS" section_history sec.csv sec.json sec.jsonl || fail "table section_history"

step "history of a directory: shares, and the release where its sections changed"
# v1.4 adds NETWORKING DRIVERS (WIRELESS), which takes the whole directory
python3 - dir.csv <<'PY' || fail "history of drivers/net/wireless/"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert {r["path"] for r in rows} == {"drivers/net/wireless/"}, "path"
assert all(r["kind"] == "directory" for r in rows), "kind"
by = {}
for r in rows:
    by.setdefault(r["release"], []).append(r)
assert list(by) == [f"v1.{i}" for i in range(8)], list(by)
for rel, rs in by.items():
    for r in rs:
        assert abs(float(r["share"]) - int(r["section_lines"]) / int(r["lines"])) < 1e-5, r
    shares = [float(r["share"]) for r in rs]
    assert shares == sorted(shares, reverse=True), (rel, shares)
changed = [rel for rel, rs in by.items() if rs[0]["sections_changed"] == "1"]
assert changed == ["v1.4"], changed
assert by["v1.0"][0]["new"] == "1" and by["v1.1"][0]["new"] == "0"
assert "NETWORKING DRIVERS (WIRELESS)" in {r["section"] for r in by["v1.4"]}
assert "NETWORKING DRIVERS (WIRELESS)" not in {r["section"] for r in by["v1.3"]}
assert by["v1.7"][0]["lineage_name"], "no lineage"
PY
expect_exit 0 "$MEV" history --store S drivers/net/wireless/
expect_stdout_contains "drivers/net/wireless/: a directory in 8 of 8 releases, changed in 1"
grep -q '^v1.4 *sections ' "$OUT" || fail "v1.4 is not marked"
expect_stdout_contains "    sections: NETWORKING DRIVERS (WIRELESS) 100.0%"
# the same trailing '/' or not, and './' and '//' are dropped
expect_exit 0 "$MEV" history --store S ./drivers//net/wireless
cp "$OUT" again.txt
expect_exit 0 "$MEV" history --store S drivers/net/wireless/
same_files "$OUT" again.txt

step "history of a file, one release"
expect_exit 0 "$MEV" history --store S drivers/net/wireless/ath/ath9k/main.c --release v1.7 --format csv
expect_stdout <<'EOF'
release,path,kind,files,lines,uncovered_lines,section,section_files,section_lines,share,cluster,representative,lineage,lineage_name,display_name,new,sections_changed,lineage_changed
v1.7,drivers/net/wireless/ath/ath9k/main.c,file,1,55,0,NETWORKING DRIVERS (WIRELESS),1,55,1,5,NETWORKING DRIVERS (WIRELESS),1,NETWORKING DRIVERS,NETWORKING DRIVERS (WIRELESS),0,0,0
v1.7,drivers/net/wireless/ath/ath9k/main.c,file,1,55,0,QUALCOMM ATHEROS ATH9K WIRELESS DRIVER,1,55,1,5,NETWORKING DRIVERS (WIRELESS),1,NETWORKING DRIVERS,QUALCOMM ATHEROS ATH9K WIRELESS DRIVER,0,0,0
EOF

step "history --section: cluster and lineage per release, the rename followed"
python3 - sec.csv <<'PY' || fail "history of USB HOST SUBSYSTEM"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["release"] for r in rows] == [f"v1.{i}" for i in range(8)]
assert all(r["present"] == "1" for r in rows)
ren = [r["release"] for r in rows if r["renamed"] == "1"]
assert ren == ["v1.5"], ren
assert rows[4]["title"] == "USB HOST SUBSYSTEM" and rows[5]["title"] == "USB SUBSYSTEM", rows[5]
assert len({r["lineage"] for r in rows}) == 1, "one lineage throughout"
assert rows[0]["new"] == "1" and sum(r["new"] == "1" for r in rows) == 1
PY
expect_exit 0 "$MEV" history --store S --section "usb host subsystem"
expect_stdout_contains "section USB HOST SUBSYSTEM: in 8 of 8 releases"
expect_stdout_contains "now USB SUBSYSTEM"

step "export files --path: a directory, in one release or all"
expect_exit 0 "$MEV" export files --store S --path drivers/net/wireless/ --release v1.7
awk -F, 'NR > 1 { n++; if ($1 != "v1.7" || index($2, "drivers/net/wireless/") != 1) bad = 1 } END { exit bad || n != 20 }' "$OUT" ||
	fail "export files --path DIR --release"
expect_exit 0 "$MEV" export files --store S --path drivers/net/wireless
cp "$OUT" all.csv
expect_exit 0 "$MEV" export files --store S --path drivers/net/wireless/
same_files "$OUT" all.csv
[ "$(cut -d, -f1 all.csv | sort -u | wc -l)" -eq 9 ] || fail "not every release (and the header)"

step "what names nothing: an error with a did-you-mean, nothing written"
expect_exit 1 "$MEV" export files --store S --path drivers/net/wireles
expect_error "no stored release of 'S' has a file or directory 'drivers/net/wireles'"
expect_stderr_contains "hint: did you mean 'drivers/net/wireless/'"
[ ! -s "$OUT" ] || fail "a header was written"
expect_exit 1 "$MEV" export files --store S --path drivers/net/wireless/nope.c --release v1.0 -o out.csv
expect_error "release 'v1.0' has no file or directory 'drivers/net/wireless/nope.c'"
[ ! -e out.csv ] || fail "out.csv written"
expect_exit 1 "$MEV" history --store S drivers/net/wirless/
expect_stderr_contains "did you mean 'drivers/net/wireless/'"
expect_exit 1 "$MEV" history --store S --section "USB HOST SUBSYSTM"
expect_stderr_contains "did you mean 'USB HOST SUBSYSTEM'?"

step "usage"
expect_exit 2 "$MEV" history --store S
expect_stderr_contains "give either a PATH or --section TITLE"
expect_exit 2 "$MEV" history --store S --section X drivers
expect_exit 2 "$MEV" history --store S --section X --release v1.0
expect_exit 2 "$MEV" history --store S drivers --format xml
expect_stderr_contains "unknown format 'xml'"
expect_exit 0 "$MEV" help history
expect_stdout_contains "usage: maintevo history"
echo "PASS"
