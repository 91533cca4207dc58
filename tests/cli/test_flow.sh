# maintevo flow: every verdict and route of a planted history, checked exactly;
# the export tables, a re-run with nothing new, and what flow refuses.
. "$(dirname "$0")/lib.sh" "$@"
. "$SRC/tests/fixtures/flow-repo.sh"
command -v python3 >/dev/null || skip "python3 is not installed"

step "a history where every verdict is planted"
make_flow_repo repo 2>/dev/null
expect_exit 0 "$MEV" walk --repo repo --store s -q
expect_exit 2 "$MEV" flow --store s --no-such-option

step "export before flow: said, nothing written"
expect_exit 1 "$MEV" export commits --store s
grep -q "holds no patch flow" "$ERR" || fail "no message"
[ ! -s "$OUT" ] || fail "a table was written"

step "flow judges v2.0 and v3.0 (v1.0 is the first release)"
expect_exit 0 "$MEV" cluster --store s -q
expect_exit 0 "$MEV" flow --store s
grep -q "2 releases judged, 0 already stored; 15 commits, 4 merges" "$ERR" || fail "summary"

step "every commit: route, tree, sections, verdicts"
expect_exit 0 "$MEV" export commits --store s -o commits.csv
git -C repo log --all --format='%H %s' >subjects.txt
python3 - commits.csv subjects.txt <<'PY' || fail "verdicts differ"
import csv, sys
subj = {}
for line in open(sys.argv[2], encoding="utf-8", errors="replace"):
    h, s = line.rstrip("\n").split(" ", 1)
    subj[h] = s
# subject: release, route (merge subject or direct), tree, sections,
#          cm, in_subsystem, signoff, reviewed, via, coverage, strange
want = {
 "c01": ("v2.0", "direct", "", "NET-CORE", "1", "1", "1", "0", "0", "covered", "0"),
 "c02": ("v2.0", "direct", "", "USB", "0", "0", "0", "1", "0", "covered", "0"),
 "c03": ("v2.0", "direct", "", "USB", "0", "0", "0", "0", "0", "covered", "1"),
 "c04": ("v2.0", "direct", "", "", "", "", "", "", "", "rest_only", ""),
 "c05": ("v2.0", "Merge tag 'net-2020'", "git.example.org/net", "NET-CORE", "1", "1", "1", "0", "1", "covered", "0"),
 "c06": ("v2.0", "Merge tag 'net-2020'", "git.example.org/net", "NET-DRV", "0", "0", "0", "1", "1", "covered", "0"),
 "c07": ("v2.0", "Merge branch 'usb-next'", "git.example.org/usb", "USB", "1", "1", "1", "0", "1", "covered", "0"),
 "c08": ("v2.0", "Merge branch 'misc'", "elsewhere.org/dora", "USB", "0", "0", "0", "0", "0", "covered", "1"),
 "c09": ("v2.0", "direct", "", "NET-DRV", "0", "1", "0", "0", "0", "covered", "1"),
 "c10": ("v2.0", "direct", "", "NET-CORE", "1", "1", "1", "0", "0", "covered", "0"),
 "c11": ("v2.0", "direct", "", "NET-CORE", "0", "0", "0", "0", "0", "covered", "1"),
 "c12": ("v2.0", "direct", "", "NET-CORE | NET-DRV", "1", "1", "0", "0", "0", "covered", "0"),
 "c13": ("v3.0", "direct", "", "", "", "", "", "", "", "rest_only", ""),
 "c14": ("v3.0", "direct", "", "USB", "1", "1", "1", "0", "0", "covered", "0"),
 "c15": ("v3.0", "Merge branch 'imported'", "", "", "", "", "", "", "", "uncovered", ""),
}
cols = ["release", "route", "tree", "sections", "committer_is_maintainer", "committer_in_subsystem",
        "signoff_by_maintainer", "reviewed_by_listed", "via_listed_tree", "coverage", "strange"]
rows = list(csv.DictReader(open(sys.argv[1], encoding="utf-8")))
bad = 0
assert len(rows) == len(want), len(rows)
for r in rows:
    name = subj[r["commit"]][:3]
    got = [r[c] for c in cols]
    if got[1] != "direct":
        got[1] = subj[got[1]]
    exp = list(want[name])
    if not got[1].startswith(exp[1]) or got[:1] + got[2:] != exp[:1] + exp[2:]:
        print(name, "got", got, "want", exp)
        bad += 1
sys.exit(1 if bad else 0)
PY
grep -q ',alice@ex.org | nick@net.org,' commits.csv || fail "signed_off_by column"
grep -q "J$(printf '\303\266')rg L" commits.csv || fail "a Latin-1 name is not read as such"

step "aggregates and people"
expect_exit 0 "$MEV" export flow --store s
grep -qx 'v2.0,release,,,,,,12,11,1,0,8,0.454545,0.545455,0.363636,0.181818,0.272727,0.363636,4,6,0.166667,0,0' "$OUT" \
	|| fail "release row"
grep -q '^v2.0,subsystem,NET-CORE,,1,' "$OUT" || fail "NET-CORE and NET-DRV are one subsystem"
grep -qx 'v2.0,path,linus@top.org,USB,,,,1,1,0,0,1,0,0,0,0,0,1,1,0,,,0' "$OUT" || fail "strange path"
expect_exit 0 "$MEV" export people --store s --release v2.0
grep -qx 'v2.0,nick@net.org,Nick Net,0,5,4,0,0,0,1,0,4,1' "$OUT" || fail "Nick's workload"
grep -qx 'v2.0,rita@rev.org,Rita Review,0,0,0,0,1,0,0,1,0,0' "$OUT" || fail "Rita's workload"
expect_exit 0 "$MEV" export commits --store s --release v3.0 --format jsonl
[ "$(wc -l <"$OUT")" -eq 3 ] || fail "v3.0 has 3 commits"

step "the three tables in csv, json and jsonl, as docs/schemas.md says"
for t in commits flow people; do
	for f in csv json jsonl; do
		expect_exit 0 "$MEV" export "$t" --store s --format "$f" -o "$t.$f"
	done
	python3 "$HERE/helpers/check_export.py" table "$SRC/docs/schemas.md" "$t" "$t.csv" "$t.json" "$t.jsonl" ||
		fail "table $t"
done

step "the report's Patch flow part"
expect_exit 0 "$MEV" report --store s --from v1.0 --to v2.0
grep -qx '## Patch flow' "$OUT" || fail "no Patch flow part"
grep -qx '| v2.0 | 12 | 11 | 45.5% | 54.5% | 36.4% | 18.2% | 27.3% | 36.4% |' "$OUT" || fail "conformance row"
expect_exit 0 "$MEV" report --store s --from v1.0 --to v2.0 --format html
grep -q '<svg' "$OUT" || fail "no chart"

step "a re-run with nothing new does nothing"
expect_exit 0 "$MEV" flow --store s
grep -q "0 releases judged, 2 already stored" "$ERR" || fail "re-run summary"

step "a new release: only it is judged"
flow_commit repo 'Uma Usb <uma@usb.org>' 'Uma Usb <uma@usb.org>' usb/u.c "c16 next release"
git -C repo tag -a v4.0 -m v4.0
expect_exit 0 "$MEV" walk --repo repo --store s -q
expect_exit 0 "$MEV" flow --store s
grep -q "1 release judged, 2 already stored; 1 commits, 0 merges" "$ERR" || fail "nightly run"

step "flow refuses what it cannot read"
expect_exit 1 "$MEV" flow --store nowhere
expect_exit 1 "$MEV" flow --store s --repo "$TMP/not-a-repo" --rebuild
