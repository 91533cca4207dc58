# export listed, listed_sections, candidates, workload and commits: a planted
# history with dated commits (tests/fixtures/people-repo.sh) where every
# state, every candidate, both CHAOSS factors and the integration distance
# are known in advance, including a maintainer active only before the first
# walked release (docs/people.md).
. "$(dirname "$0")/lib.sh" "$@"
command -v python3 >/dev/null || skip "python3 is not installed"

. "$SRC/tests/fixtures/people-repo.sh"

# init_commit: the files of repo committed on 2019-01-01 by Init.
init_commit() {
	git -C repo add -A
	GIT_AUTHOR_NAME=Init GIT_AUTHOR_EMAIL=init@x.org GIT_COMMITTER_NAME=Init GIT_COMMITTER_EMAIL=init@x.org \
	GIT_AUTHOR_DATE="2019-01-01T00:00:00 +0000" GIT_COMMITTER_DATE="2019-01-01T00:00:00 +0000" \
		git -C repo commit -q -m "initial"
}
# schema_check STORE TABLE...: each table of STORE in CSV, JSON and JSON
# Lines has the columns and types docs/schemas.md gives.
schema_check() {
	local store=$1 t f
	shift
	for t in "$@"; do
		for f in csv json jsonl; do
			expect_exit 0 "$MEV" export "$t" --store "$store" --format "$f" -o "$store.$t.$f"
		done
		python3 "$HERE/helpers/check_export.py" table "$SRC/docs/schemas.md" "$t" \
			"$store.$t.csv" "$store.$t.json" "$store.$t.jsonl" ||
			fail "$t of store $store does not match docs/schemas.md"
	done
}

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

# headline FILE: release and the listed_* columns of each row of a releases table
headline() {
	python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(",".join(r[k] for k in ("release", "listed_addresses", "listed_never_seen", "listed_quiet",
                                  "listed_gone", "listed_quiet_24", "listed_gone_24")), end=" ")' "$1"
}

# same_as_listed STORE RELEASES_CSV: each release's headline is the count of
# the states export listed gives at 12 and 24 months
same_as_listed() {
	expect_exit 0 "$MEV" export listed --store "$1" -o listed12.csv
	expect_exit 0 "$MEV" export listed --store "$1" --quiet-months 24 -o listed24.csv
	python3 - "$2" listed12.csv listed24.csv <<'PY' || fail "releases' headline is not export listed's"
import collections, csv, sys
rel, l12, l24 = sys.argv[1:]
def states(path):
    c = collections.defaultdict(collections.Counter)
    for r in csv.DictReader(open(path)):
        c[r["release"]][r["state"]] += 1
    return c
a, b = states(l12), states(l24)
for r in csv.DictReader(open(rel)):
    x, y = a[r["release"]], b[r["release"]]
    want = [sum(x.values()) - x["unknown"], x["never_seen"], x["quiet"], x["gone"], y["quiet"], y["gone"]]
    got = [int(r[k]) for k in ("listed_addresses", "listed_never_seen", "listed_quiet", "listed_gone",
                               "listed_quiet_24", "listed_gone_24")]
    if want != got:
        sys.exit("%s: export listed gives %s, releases %s" % (r["release"], want, got))
PY
}

step "releases before flow: the listed headline is empty, not 0"
expect_exit 0 "$MEV" releases --store s
[ "$(headline "$OUT")" = "v1.0,,,,,, v2.0,,,,,, " ] || fail "the listed headline without a flow: $(headline "$OUT")"

step "flow reads the history before the first release once, and counts the listed headline once"
expect_exit 0 "$MEV" flow --store s
expect_stderr_contains "5 commits before the first release"
expect_stderr_contains "the listed people's headline of 2 releases counted (0 kept)"
expect_exit 0 "$MEV" flow --store s
grep -q "before the first release" "$ERR" && fail "the history before the first release read again"
grep -q "headline" "$ERR" && fail "the headline counted again: $(cat "$ERR")"

step "releases names the headline flow stored: the states of export listed at 12 and 24 months"
expect_exit 0 "$MEV" releases --store s
cp "$OUT" releases.csv
# v1.0: Ann, Rae, Nev never seen, Ida quiet, Dan gone (Dan active at 24 months);
# v2.0: Nev never seen, Ida quiet, Pam, Rae, Dan gone (Pam and Rae active at 24)
[ "$(headline releases.csv)" = "v1.0,6,3,1,1,1,0 v2.0,6,1,1,3,1,1 " ] ||
	fail "the listed headline: $(headline releases.csv)"
same_as_listed s releases.csv

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
# the report's counts are releases' headline: addresses, never seen, quiet or gone
python3 - releases.csv part.md <<'PY' || fail "the report's headline is not releases'"
import csv, sys
r = {x["release"]: x for x in csv.DictReader(open(sys.argv[1]))}
part = open(sys.argv[2]).read()
for label, cols in (("Listed M:/R: addresses (per section)", ["listed_addresses"]),
                    ("... never seen in the history", ["listed_never_seen"]),
                    ("... quiet or gone (nothing in the section for 12 months)", ["listed_quiet", "listed_gone"])):
    a, b = (sum(int(r[t][c]) for c in cols) for t in ("v1.0", "v2.0"))
    if "| %s | %d | %d |" % (label, a, b) not in part:
        sys.exit("no row '%s' with %d and %d" % (label, a, b))
PY

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

step "the columns and types docs/schemas.md gives, in CSV, JSON and JSON Lines (releases with its headline)"
schema_check s listed listed_sections candidates releases

step "export all: both tables in SQLite"
expect_exit 0 "$MEV" export all --store s -o all.db
if command -v sqlite3 >/dev/null; then
	[ "$(sqlite3 all.db "select count(*) from listed where state='never_seen'")" = 4 ] ||
		fail "listed in SQLite"
	[ "$(sqlite3 all.db "select count(*) from candidates")" = 5 ] || fail "candidates in SQLite"
	[ "$(sqlite3 all.db "select group_concat(section) from listed_sections where orphaned_in_fact")" = DRV,DRV ] ||
		fail "listed_sections in SQLite"
fi

step "the headline in SQLite's releases table"
if command -v sqlite3 >/dev/null; then
	[ "$(sqlite3 all.db "select group_concat(listed_gone) from releases")" = 1,3 ] ||
		fail "the headline in SQLite"
fi

step "a store whose flow predates the headline: unknown (empty), not 0; the next flow counts it"
if command -v mdb_dump >/dev/null && command -v mdb_load >/dev/null; then
	# the store as a flow before the headline left it: every table but "headline"
	mdb_dump -a s >all.txt
	python3 - all.txt old.txt <<'PY'
import sys
blocks = open(sys.argv[1]).read().split("VERSION=3\n")[1:]
keep = [b for b in blocks if "database=headline\n" not in b.split("HEADER=END")[0]]
assert len(keep) == len(blocks) - 1
open(sys.argv[2], "w").write("".join("VERSION=3\n" + b for b in keep))
PY
	mkdir old && mdb_load -f old.txt old 2>/dev/null || fail "mdb_load"
	expect_exit 0 "$MEV" releases --store old
	[ "$(headline "$OUT")" = "v1.0,,,,,, v2.0,,,,,, " ] || fail "an old flow's headline: $(headline "$OUT")"
	expect_exit 0 "$MEV" flow --store old --repo repo
	expect_stderr_contains "headline of 2 releases counted (0 kept)"
	expect_exit 0 "$MEV" releases --store old
	[ "$(headline "$OUT")" = "$(headline releases.csv)" ] || fail "the headline counted after an old flow"

	step "a damaged headline record: store check names it, repair drops it, the next flow counts it"
	mdb_dump -s headline old >h.txt
	python3 - h.txt <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
i = lines.index("HEADER=END") + 2  # the value of the first key, v1.0
v = bytearray.fromhex(lines[i].strip())
v[len(v) // 2] ^= 0x10
lines[i] = " " + v.hex()
open(sys.argv[1], "w").write("\n".join(lines))
PY
	mdb_load -s headline old <h.txt 2>/dev/null || fail "mdb_load"
	expect_exit 1 "$MEV" store check --store old
	expect_stdout_contains "damaged: headline v1.0"
	expect_exit 0 "$MEV" store repair --store old
	expect_exit 0 "$MEV" releases --store old
	[ "$(headline "$OUT")" = "v1.0,,,,,, v2.0,6,1,1,3,1,1 " ] || fail "after the repair: $(headline "$OUT")"
	expect_exit 0 "$MEV" flow --store old --repo repo
	expect_stderr_contains "headline of 1 release counted (1 kept)"
fi

step "a new release: flow counts its headline only, the others' kept"
pc 2022-08-01T00:00:00 "$ANN" "$ANN" core/a.c
tag_at 2022-09-01T00:00:00 v3.0
expect_exit 0 "$MEV" walk --repo repo --store s -q
expect_exit 0 "$MEV" releases --store s
[ "$(headline "$OUT")" = "$(headline releases.csv)v3.0,,,,,, " ] || fail "the new release before flow: $(headline "$OUT")"
expect_exit 0 "$MEV" flow --store s
expect_stderr_contains "headline of 1 release counted (2 kept)"
expect_exit 0 "$MEV" releases --store s
# v3.0: Ann active; Ida quiet; Pam, Rae, Dan gone at 12 months (Pam, Rae active at 24)
[ "$(headline "$OUT")" = "$(headline releases.csv)v3.0,6,1,1,3,1,1 " ] || fail "the new release's headline: $(headline "$OUT")"

step "a release walked between two others: the later headlines unknown until flow counts them again"
GIT_COMMITTER_DATE="2021-03-02T00:00:00 +0000" git -C repo tag -a v1.5 -m "release v1.5" \
	"$(git -C repo log --format=%H -1 --before=2021-03-02T00:00:00 --after=2021-02-28T00:00:00)"
expect_exit 0 "$MEV" walk --repo repo --store s -q
expect_exit 0 "$MEV" releases --store s
before=$(headline "$OUT")
case $before in
"v1.0,6,3,1,1,1,0 v1.5,,,,,, v2.0,,,,,, v3.0,,,,,, ") ;;
*) fail "the headlines after v1.5 walked: $before" ;;
esac
expect_exit 0 "$MEV" flow --store s
expect_stderr_contains "headline of 3 releases counted (1 kept)"
expect_exit 0 "$MEV" releases --store s
case $(headline "$OUT") in
"v1.0,6,3,1,1,1,0 v1.5,6,1,1,1,1,0 v2.0,6,1,1,3,1,1 v3.0,6,1,1,3,1,1 ") ;;
*) fail "the headlines counted again: $(headline "$OUT")" ;;
esac
cp "$OUT" releases4.csv
same_as_listed s releases4.csv

# --- one person, many addresses (--fold) ---------------------------------------
# Mark is listed for USB as mark@denx.org and SOC as mark+soc@mail.org (never
# used), and commits since v1.0 as mark@mail.org and mark+usb@mail.org; Fay is
# listed as fay@gmail.org (and for PHY as fay@old.org, never used) and commits
# as fay@nabla.org; Zed, listed nowhere, has two addresses; "tom" (one word)
# is two people who must stay two, and a third listed for WIFI, never seen.
step "one person, many addresses: a second planted history"
mv repo repo1
mkrepo repo
mkdir -p repo/usb repo/imx repo/net repo/soc
sed 's/^\([A-Z]\): /\1:\t/' >repo/MAINTAINERS <<'EOF2'
IMX
M: Fay Est <fay@gmail.org>
S: Maintained
F: imx/

NET
M: tom <tom@one.org>
S: Maintained
F: net/

SOC
M: Mark Vas <mark+soc@mail.org>
S: Maintained
F: soc/

PHY
M: Fay Est <fay@old.org>
S: Maintained
F: imx/

USB
M: Mark Vas <mark@denx.org>
S: Maintained
F: usb/

WIFI
M: tom <tom@three.org>
S: Maintained
F: net/
EOF2
for f in usb/u.c imx/i.c net/n.c soc/s.c; do echo start >"repo/$f"; done
init_commit
TOM1='tom <tom@one.org>' TOM2='tom <tom@two.org>' MARKD='Mark Vas <mark@denx.org>'
FAYG='Fay Est <fay@gmail.org>' ZEDA='Zed Helper <zed@a.org>'
pc 2020-05-01T00:00:00 "$TOM1" "$TOM1" net/n.c
pc 2020-06-01T00:00:00 "$MARKD" "$MARKD" usb/u.c
pc 2020-07-01T00:00:00 "$FAYG" "$FAYG" imx/i.c
tag_at 2020-12-15T00:00:00 v1.0
pc 2021-08-01T00:00:00 "$ZEDA" "$ZEDA" imx/i.c
pc 2022-01-01T00:00:00 'Mark Vas <mark@mail.org>' 'Mark Vas <mark@mail.org>' soc/s.c
pc 2022-01-15T00:00:00 'Fay Est <fay@nabla.org>' 'Fay Est <fay@nabla.org>' imx/i.c \
	'Reviewed-by: Zed  helper <zed@b.org>'
pc 2022-03-01T00:00:00 "$TOM2" "$TOM2" net/n.c
pc 2022-04-15T00:00:00 "$CARL" 'Mark Vas <mark+usb@mail.org>' usb/u.c
tag_at 2022-05-15T00:00:00 v2.0
expect_exit 0 "$MEV" walk --repo repo --store f -q
expect_exit 0 "$MEV" flow --store f

# section,entry,email,last_active,last_active_anywhere,months_quiet,state,matched_by,other_addresses
fcols='{print $3","$4","$6","$9","$10","$11","$12","$13","$14}'
step "listed (--fold names, the default): Mark and Fay active under their other addresses, the two toms apart"
expect_exit 0 "$MEV" export listed --store f
awk -F, "$fcols" "$OUT" >got.csv
cat >want.csv <<'EOF2'
section,entry,email,last_active,last_active_anywhere,months_quiet,state,matched_by,other_addresses
IMX,fay@gmail.org,fay@gmail.org,2020-07-01T00:00:00Z,2020-07-01T00:00:00Z,5,active,address,
NET,tom@one.org,tom@one.org,2020-05-01T00:00:00Z,2020-05-01T00:00:00Z,7,active,address,
PHY,fay@old.org,fay@old.org,2020-07-01T00:00:00Z,2020-07-01T00:00:00Z,5,active,name,fay@gmail.org
SOC,mark+soc@mail.org,mark+soc@mail.org,,2020-06-01T00:00:00Z,,quiet,name,mark@denx.org
USB,mark@denx.org,mark@denx.org,2020-06-01T00:00:00Z,2020-06-01T00:00:00Z,6,active,address,
WIFI,tom@three.org,tom@three.org,,,,never_seen,,
IMX,fay@gmail.org,fay@gmail.org,2022-01-15T00:00:00Z,2022-01-15T00:00:00Z,4,active,name,fay@nabla.org
NET,tom@one.org,tom@one.org,2020-05-01T00:00:00Z,2020-05-01T00:00:00Z,24,gone,address,
PHY,fay@old.org,fay@old.org,2022-01-15T00:00:00Z,2022-01-15T00:00:00Z,4,active,name,fay@gmail.org | fay@nabla.org
SOC,mark+soc@mail.org,mark+soc@mail.org,2022-01-01T00:00:00Z,2022-04-15T00:00:00Z,4,active,plus,mark+usb@mail.org | mark@denx.org | mark@mail.org
USB,mark@denx.org,mark@denx.org,2022-04-15T00:00:00Z,2022-04-15T00:00:00Z,1,active,name,mark+usb@mail.org | mark@mail.org
WIFI,tom@three.org,tom@three.org,,,,never_seen,,
EOF2
diff want.csv got.csv || fail "export listed with the identity fold differs from the planted states"

step "candidates: Mark is never his own candidate, Zed is one person, the second tom is not the first"
expect_exit 0 "$MEV" export candidates --store f
cut -d, -f1,3-12 "$OUT" >got.csv
cat >want.csv <<'EOF2'
release,section,rank,name,email,authored,committed,reviewed,acked,activity,last_active
v1.0,WIFI,1,tom,tom@one.org,1,1,0,0,2,2020-05-01T00:00:00Z
v2.0,IMX,1,Zed  helper,zed@b.org,1,1,1,0,3,2022-01-15T00:00:00Z
v2.0,NET,1,tom,tom@two.org,1,1,0,0,2,2022-03-01T00:00:00Z
v2.0,PHY,1,Zed  helper,zed@b.org,1,1,1,0,3,2022-01-15T00:00:00Z
v2.0,USB,1,Carl Contrib,carl@ex.org,1,0,0,0,1,2022-04-15T00:00:00Z
v2.0,WIFI,1,tom,tom@two.org,1,1,0,0,2,2022-03-01T00:00:00Z
EOF2
diff want.csv got.csv || fail "export candidates with the identity fold"

step "--fold addresses: only the +tag folds; Mark (denx) and Fay (gmail) are gone, Mark a USB candidate"
expect_exit 0 "$MEV" export listed --store f --release v2.0 --fold addresses
awk -F, "$fcols" "$OUT" | cut -d, -f1,7,8 >got.csv
printf 'section,state,matched_by\nIMX,gone,address\nNET,gone,address\nPHY,never_seen,\nSOC,active,plus\nUSB,gone,address\nWIFI,never_seen,\n' >want.csv
diff want.csv got.csv || fail "listed --fold addresses"
expect_exit 0 "$MEV" export candidates --store f --release v2.0 --fold addresses
cut -d, -f3-5 "$OUT" >got.csv
printf 'section,rank,name\nIMX,1,Fay Est\nIMX,2,Zed Helper\nIMX,3,Zed  helper\nNET,1,tom\n' >want.csv
printf 'PHY,1,Fay Est\nPHY,2,Zed Helper\nPHY,3,Zed  helper\nUSB,1,Carl Contrib\nUSB,2,Mark Vas\nWIFI,1,tom\n' >>want.csv
diff want.csv got.csv || fail "candidates --fold addresses"

step "--fold none: flow's keys; the +soc and Fay's old address were never seen"
expect_exit 0 "$MEV" export listed_sections --store f --release v2.0 --fold none
cut -d, -f3,7,10,14 "$OUT" >got.csv
printf 'section,maintainers_active,maintainers_never_seen,orphaned_in_fact\nIMX,0,0,1\nNET,0,0,1\nPHY,0,1,1\nSOC,0,1,1\nUSB,0,0,1\nWIFI,0,1,1\n' >want.csv
diff want.csv got.csv || fail "listed_sections --fold none"
expect_exit 0 "$MEV" export listed_sections --store f --release v2.0
cut -d, -f3,7,10,14 "$OUT" >got.csv
printf 'section,maintainers_active,maintainers_never_seen,orphaned_in_fact\nIMX,1,0,0\nNET,0,0,1\nPHY,1,0,0\nSOC,1,0,0\nUSB,1,0,0\nWIFI,0,1,1\n' >want.csv
diff want.csv got.csv || fail "listed_sections with the default fold"

step "--fold: a bad value and a table it does not go with are usage errors"
expect_exit 2 "$MEV" export listed --store f --fold people
expect_stderr_contains "unknown --fold 'people' (use names, addresses or none)"
expect_exit 2 "$MEV" export sections --store f --fold none
expect_stderr_contains "--fold goes with the listed, listed_sections and candidates tables only"
step "the folded tables as docs/schemas.md says"
schema_check f listed candidates

# --- bots are not candidates ------------------------------------------------------
step "candidates leave out bots: mergify[bot] commits everything, GitHub merges, Carl authors"
mv repo repo2
mkrepo repo
mkdir -p repo/core
sed 's/^\([A-Z]\): /\1:\t/' >repo/MAINTAINERS <<'EOF2'
CORE
M: Ann Core <ann@core.org>
S: Maintained
F: core/
EOF2
echo start >repo/core/a.c
init_commit
BOT='mergify[bot] <37929162+mergify[bot]@users.noreply.github.com>'
tag_at 2020-02-01T00:00:00 v1.0
pc 2020-03-01T00:00:00 "$CARL" "$BOT" core/a.c
pc 2020-04-01T00:00:00 "$CARL" "$BOT" core/a.c
pc 2020-05-01T00:00:00 "$ANN" 'GitHub <noreply@github.com>' core/a.c
tag_at 2020-06-01T00:00:00 v2.0
expect_exit 0 "$MEV" walk --repo repo --store b -q
expect_exit 0 "$MEV" flow --store b
expect_exit 0 "$MEV" export candidates --store b --release v2.0
cut -d, -f3-6 "$OUT" >got.csv
printf 'section,rank,name,email\nCORE,1,Carl Contrib,carl@ex.org\n' >want.csv
diff want.csv got.csv || fail "a bot or GitHub's merges ranked as candidates"
