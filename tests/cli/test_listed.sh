# export listed, listed_sections, candidates, workload and commits: a planted
# history with dated commits (tests/fixtures/people-repo.sh) where every
# state, every candidate, both CHAOSS factors and the integration distance
# are known in advance, including a maintainer active only before the first
# walked release (docs/people.md).
. "$(dirname "$0")/lib.sh" "$@"
command -v python3 >/dev/null || skip "python3 is not installed"

. "$SRC/tests/fixtures/people-repo.sh"

step "a planted history: pre-history from 2019, v1.0 (2020-12-15), v2.0 (2022-05-15)"
make_people_repo
expect_exit 0 "$MEV" walk --repo repo --store s -q

step "before flow: said, with a hint, nothing written"
expect_exit 1 "$MEV" export listed --store s
expect_stderr_contains "holds no patch flow"
expect_stderr_contains "run 'maintevo flow"
[ ! -s "$OUT" ] || fail "a table was written"

step "the report before flow: its part 'Listed but quiet' says what to run, the glance has no listed rows"
expect_exit 0 "$MEV" report --store s -o noflow.md
grep -q "^## Listed but quiet" noflow.md || fail "no part 'Listed but quiet'"
grep -q "needs the patch flow: run \`maintevo flow\`" noflow.md || fail "no hint to run flow"
grep -q "Sections orphaned in fact" noflow.md && fail "listed counts without a flow"

step "flow reads the history before the first release once"
expect_exit 0 "$MEV" flow --store s
expect_stderr_contains "5 commits before the first release"
expect_exit 0 "$MEV" flow --store s
grep -q "before the first release" "$ERR" && fail "the history before the first release read again"

# release,section,entry,email,role,status,last_active,last_active_anywhere,months_quiet,state
cols='{print $1","$3","$4","$6","$7","$8","$9","$10","$11","$12}'
step "listed: every row, every state as planted"
expect_exit 0 "$MEV" export listed --store s
awk -F, "$cols" "$OUT" >got.csv
cat >want.csv <<'EOF'
release,section,entry,email,role,status,last_active,last_active_anywhere,months_quiet,state
v1.0,CORE,ann@core.org,ann@core.org,M,Maintained,,,,never_seen
v1.0,CORE,pam@pre.org,pam@pre.org,M,Maintained,2020-10-01T00:00:00Z,2020-10-01T00:00:00Z,2,active
v1.0,CORE,rae@rev.org,rae@rev.org,R,Maintained,,,,never_seen
v1.0,DRV,dan@drv.org,dan@drv.org,M,Supported,2019-05-01T00:00:00Z,2019-05-01T00:00:00Z,19,gone
v1.0,DRV,nev@never.org,nev@never.org,M,Supported,,,,never_seen
v1.0,HND,octocat,,M,Maintained,,,,unknown
v1.0,IDLE,ida@idle.org,ida@idle.org,M,Odd Fixes,,2020-12-01T00:00:00Z,,quiet
v2.0,CORE,ann@core.org,ann@core.org,M,Maintained,2022-02-01T00:00:00Z,2022-02-01T00:00:00Z,3,active
v2.0,CORE,pam@pre.org,pam@pre.org,M,Maintained,2020-10-01T00:00:00Z,2020-10-01T00:00:00Z,19,gone
v2.0,CORE,rae@rev.org,rae@rev.org,R,Maintained,2021-03-01T00:00:00Z,2021-03-01T00:00:00Z,14,gone
v2.0,DRV,dan@drv.org,dan@drv.org,M,Supported,2019-05-01T00:00:00Z,2019-05-01T00:00:00Z,36,gone
v2.0,DRV,nev@never.org,nev@never.org,M,Supported,,,,never_seen
v2.0,HND,octocat,,M,Maintained,,,,unknown
v2.0,IDLE,ida@idle.org,ida@idle.org,M,Odd Fixes,,2022-02-01T00:00:00Z,,quiet
EOF
diff want.csv got.csv || fail "export listed differs from the planted states"

step "--quiet-months 24: Rae (14 months) is active, Pam (19) too, Dan (36) gone"
expect_exit 0 "$MEV" export listed --store s --release v2.0 --quiet-months 24
awk -F, '{print $3","$4","$12}' "$OUT" >got.csv
grep -qx 'CORE,rae@rev.org,active' got.csv || fail "Rae is not active at 24 months"
grep -qx 'CORE,pam@pre.org,active' got.csv || fail "Pam is not active at 24 months"
grep -qx 'DRV,dan@drv.org,gone' got.csv || fail "Dan is not gone at 24 months"

step "--quiet-months 24 at v1.0: Dan, active only before the first release, is active there"
expect_exit 0 "$MEV" export listed --store s --release v1.0 --quiet-months 24
awk -F, '{print $3","$4","$9","$12}' "$OUT" | grep -qx 'DRV,dan@drv.org,2019-05-01T00:00:00Z,active' ||
	fail "the activity before the first release is not counted"

step "--people maps the handle: octocat is Oct, active"
printf '# handles\noctocat  Oct@Ex.org\n' >people.txt
expect_exit 0 "$MEV" export listed --store s --release v2.0 --people people.txt
awk -F, '{print $3","$4","$5","$6","$12}' "$OUT" | grep -qx 'HND,octocat,Oct Cat,oct@ex.org,active' ||
	fail "the handle is not mapped"

step "--people with a bad row: file:line, nothing written"
printf 'octocat oct@ex.org\nbroken\n' >bad.txt
expect_exit 2 "$MEV" export listed --store s --people bad.txt -o out.csv
expect_stderr_contains "bad.txt:2: expected 'HANDLE ADDRESS'"
[ ! -e out.csv ] || fail "a table was written"
printf 'octocat oct@ex.org\nOctocat other@ex.org\n' >twice.txt
expect_exit 2 "$MEV" export listed --store s --people twice.txt
expect_stderr_contains "twice.txt:2: 'octocat' is mapped twice"

step "candidates: the people not listed, by activity in the last 12 months"
expect_exit 0 "$MEV" export candidates --store s
cut -d, -f1,3-12 "$OUT" >got.csv
cat >want.csv <<'EOF'
release,section,rank,name,email,authored,committed,reviewed,acked,activity,last_active
v1.0,CORE,1,Ida Idle,ida@idle.org,1,1,0,0,2,2020-12-01T00:00:00Z
v2.0,CORE,1,Carl Contrib,carl@ex.org,1,1,0,0,2,2022-05-01T00:00:00Z
v2.0,CORE,2,Eve Extra,eve@ex.org,0,0,0,1,1,2022-02-01T00:00:00Z
v2.0,CORE,3,Ida Idle,ida@idle.org,1,0,0,0,1,2022-02-01T00:00:00Z
v2.0,HND,1,Oct Cat,oct@ex.org,1,1,0,0,2,2022-03-01T00:00:00Z
EOF
diff want.csv got.csv || fail "export candidates differs from the planted ranks"
expect_exit 0 "$MEV" export candidates --store s --top 1 --release v2.0 --people people.txt
cut -d, -f3-5 "$OUT" >got.csv
printf 'section,rank,name\nCORE,1,Carl Contrib\n' >want.csv
diff want.csv got.csv || fail "--top 1 with Oct listed through --people"

step "listed_sections: DRV claims support with nobody active (orphaned in fact); IDLE claims none, HND's handle may be active"
expect_exit 0 "$MEV" export listed_sections --store s
cut -d, -f1,3-4,6- "$OUT" >got.csv
cat >want.csv <<'EOF2'
release,section,status,maintainers,maintainers_active,maintainers_quiet,maintainers_gone,maintainers_never_seen,maintainers_unknown,reviewers,reviewers_active,orphaned_in_fact
v1.0,CORE,Maintained,2,1,0,0,1,0,1,0,0
v1.0,DRV,Supported,2,0,0,1,1,0,0,0,1
v1.0,HND,Maintained,1,0,0,0,0,1,0,0,0
v1.0,IDLE,Odd Fixes,1,0,1,0,0,0,0,0,0
v2.0,CORE,Maintained,2,1,0,1,0,0,1,0,0
v2.0,DRV,Supported,2,0,0,1,1,0,0,0,1
v2.0,HND,Maintained,1,0,0,0,0,1,0,0,0
v2.0,IDLE,Odd Fixes,1,0,1,0,0,0,0,0,0
EOF2
diff want.csv got.csv || fail "export listed_sections differs from the planted states"
cut -d, -f1,3,5 "$OUT" | tr '\n' ' ' >got.txt
[ "$(cat got.txt)" = "release,section,lines v1.0,CORE,4 v1.0,DRV,2 v1.0,HND,1 v1.0,IDLE,1 v2.0,CORE,7 v2.0,DRV,2 v2.0,HND,2 v2.0,IDLE,1 " ] ||
	fail "the sections' own lines: $(cat got.txt)"
step "listed_sections --quiet-months 24: Dan is still gone; --people: HND is looked after"
expect_exit 0 "$MEV" export listed_sections --store s --release v2.0 --quiet-months 24 --people people.txt
cut -d, -f3,7,14 "$OUT" >got.csv
printf 'section,maintainers_active,orphaned_in_fact\nCORE,2,0\nDRV,0,1\nHND,1,0\nIDLE,0,0\n' >want.csv
diff want.csv got.csv || fail "listed_sections with --quiet-months 24 and --people"

step "the report v1.0 -> v2.0: counts, DRV the orphaned section, Pam the one who went quiet"
expect_exit 0 "$MEV" report --store s --from v1.0 --to v2.0 -o report.md
sed -n '/^## Listed but quiet/,/^---/p' report.md >part.md
for row in '| Listed M:/R: addresses (per section) | 6 | 6 | 0 |' \
	'| ... never seen in the history | 3 | 1 | -2 |' \
	'| ... quiet or gone (nothing in the section for 12 months) | 2 | 4 | +2 |' \
	'| Sections orphaned in fact (S: Maintained or Supported, no M: active) | 1 | 1 | 0 |' \
	'| DRV | Supported | 2 | 2 | 1 | 1 |' \
	'| Pam Pre | CORE | M | 2020-10-01 | gone |'; do
	grep -qxF "$row" part.md || fail "the part has no row '$row'"
done
[ "$(grep -c '^| [A-Z][a-z]* [A-Z][a-z]* | ' part.md)" = 1 ] || fail "someone else went quiet"
grep -qxF '| Sections orphaned in fact | 1 | 1 | 0 |' report.md || fail "the glance table lacks the count"

step "workload v2.0 by section: review coverage, cross-organisation review, both CHAOSS factors as planted"
# CORE: Carl (ex.org) 2 commits, Ida (idle.org) 1; Carl's first reviewed by
# Rae (rev.org), Ida's acked by Eve (ex.org), Carl's second neither.
expect_exit 0 "$MEV" cluster --store s -q
expect_exit 0 "$MEV" track --store s -q
wcols='section,commits,authors,review_coverage,cross_org_review,absence_factor,elephant_factor'
workload_cols() {
	python3 -c 'import csv,sys
cols = sys.argv[1].split(",")
print(",".join(cols))
for r in csv.DictReader(open(sys.argv[2])): print(",".join(r[c] for c in cols))' "$wcols" "$OUT"
}
expect_exit 0 "$MEV" export workload --store s --by section --release v2.0
workload_cols >got.csv
cat >want.csv <<'EOF'
section,commits,authors,review_coverage,cross_org_review,absence_factor,elephant_factor
CORE,3,2,0.666667,1,1,1
DRV,0,0,,,,
HND,1,1,0,,1,1
IDLE,0,0,,,,
EOF
diff want.csv got.csv || fail "the workload's review and factors differ from the planted numbers"
step "--orgs puts idle.org in ex.org: Ida and Eve are one organisation, half the reviews cross"
printf 'idle.org ex.org\n' >orgs.txt
expect_exit 0 "$MEV" export workload --store s --by section --release v2.0 --orgs orgs.txt
workload_cols >got.csv
grep -qx 'CORE,3,2,0.666667,0.5,1,1' got.csv || fail "--orgs: $(grep CORE got.csv)"

step "integration distance as planted: 0 where Ann (CORE's M:) commits to CORE, empty for committers who maintain nothing"
expect_exit 0 "$MEV" export commits --store s --release v2.0
python3 - "$OUT" <<'PY' || fail "the integration distances differ from the planted ones"
import csv, sys
got = sorted((r["committer"], r["integration_distance"]) for r in csv.DictReader(open(sys.argv[1])))
want = sorted([("ann@core.org", "0"), ("ann@core.org", "0"), ("oct@ex.org", ""), ("carl@ex.org", ""),
               ("committer@example.org", "")])
assert got == want, got
PY

step "the columns and types docs/schemas.md gives, in CSV, JSON and JSON Lines"
for t in listed listed_sections candidates; do
	for f in csv json jsonl; do
		expect_exit 0 "$MEV" export "$t" --store s --format "$f" -o "$t.$f"
	done
	python3 "$HERE/helpers/check_export.py" table "$SRC/docs/schemas.md" "$t" "$t.csv" "$t.json" "$t.jsonl" ||
		fail "$t does not match docs/schemas.md"
done

step "export all: both tables in SQLite"
expect_exit 0 "$MEV" export all --store s -o all.db
if command -v sqlite3 >/dev/null; then
	[ "$(sqlite3 all.db "select count(*) from listed where state='never_seen'")" = 4 ] ||
		fail "listed in SQLite"
	[ "$(sqlite3 all.db "select count(*) from candidates")" = 5 ] || fail "candidates in SQLite"
	[ "$(sqlite3 all.db "select group_concat(section) from listed_sections where orphaned_in_fact")" = DRV,DRV ] ||
		fail "listed_sections in SQLite"
fi
