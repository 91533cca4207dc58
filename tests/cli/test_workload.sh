# export workload: a planted history with known people, files and dates gives
# exactly the planted numbers (docs/schemas.md, "workload").
. "$(dirname "$0")/lib.sh" "$@"
command -v python3 >/dev/null || skip "python3 is not installed"

# wl_commit DIR "AUTHOR <a>" "COMMITTER <c>" FILE: add a line to FILE, commit.
wl_commit() {
	local d=$1 author=$2 committer=$3 file=$4
	echo "line by ${author% <*}" >>"$d/$file"
	git -C "$d" add -A
	GIT_AUTHOR_NAME=${author% <*} GIT_AUTHOR_EMAIL=$(echo "$author" | sed 's/.*<\(.*\)>/\1/') \
	GIT_COMMITTER_NAME=${committer% <*} GIT_COMMITTER_EMAIL=$(echo "$committer" | sed 's/.*<\(.*\)>/\1/') \
		git -C "$d" commit -q -m "change $file"
	test_time=$((test_time + 3600))
	export GIT_AUTHOR_DATE="$test_time +0000" GIT_COMMITTER_DATE="$test_time +0000"
}

# MAINTAINERS: CORE (M: Ann, Bob; R: Rae; L: core@), DRV (M: Dan twice, as
# dan@drv.org and dan@old.org, which .mailmap folds into one; L: drv@,
# core@), IDLE (M: Ida), THE REST.  With $1 = nodan, DRV has no M: (an
# S: Orphan instead).
wl_maintainers() {
	sed 's/^\([A-Z]\): /\1:\t/' <<EOF2
CORE
M: Ann Core <ann@core.org>
M: Bob Core <Bob@Core.org>
R: Rae Rev <rae@rev.org>
L: core@lists.org
S: Maintained
F: core/

DRV
$([ "${1:-}" = nodan ] && echo 'S: Orphan' || printf 'M: Dan Drv <dan@drv.org>\nM: Dan Old <dan@old.org>')
L: drv@lists.org
L: core@lists.org
S: Maintained
F: drv/

IDLE
M: Ida Idle <ida@idle.org>
S: Maintained
F: idle/

THE REST
M: Top Dog <top@top.org>
F: *
F: */
EOF2
}

lines() { # lines N: N numbered lines
	local i
	for i in $(seq 1 "$1"); do echo "line $i"; done
}

step "a planted history: v1.0, v2.0, v3.0"
A='Ann Core <ann@core.org>' B='Bob Core <bob@core.org>' C='Carl Contrib <carl@ex.org>'
DO='Dan Old <dan@old.org>' DD='Dan Drv <dan@drv.org>' E='Eve Extra <eve@ex.org>' T='Top Dog <top@top.org>'
mkrepo repo
mkdir -p repo/core repo/drv repo/idle repo/misc
wl_maintainers >repo/MAINTAINERS
printf 'Dan Drv <dan@drv.org> <dan@old.org>\n' >repo/.mailmap
lines 10 >repo/core/a.c
lines 5 >repo/core/b.c
lines 4 >repo/drv/x.c
lines 3 >repo/idle/i.c
lines 2 >repo/misc/m.c
commit_all repo v1.0
wl_commit repo "$A" "$A" core/a.c
wl_commit repo "$C" "$A" core/b.c
wl_commit repo "$C" "$B" core/a.c
wl_commit repo "$DO" "$DO" drv/x.c
wl_commit repo "$E" "$DD" drv/x.c
wl_commit repo "$T" "$T" misc/m.c
commit_all repo v2.0
wl_maintainers nodan >repo/MAINTAINERS
wl_commit repo "$T" "$T" MAINTAINERS
wl_commit repo "$A" "$A" core/b.c
wl_commit repo "$B" "$B" core/b.c
commit_all repo v3.0
expect_exit 0 "$MEV" walk --repo repo --store s -q
expect_exit 0 "$MEV" cluster --store s -q
expect_exit 0 "$MEV" track --store s -q

step "before flow: said, with a hint, nothing written"
expect_exit 1 "$MEV" export workload --store s
expect_stderr_contains "holds no patch flow"
expect_stderr_contains "run 'maintevo flow"
[ ! -s "$OUT" ] || fail "a table was written"

step "bad options: usage errors"
expect_exit 2 "$MEV" export workload --store s --by team
expect_stderr_contains "unknown --by 'team'"
expect_exit 2 "$MEV" export sections --store s --by section
expect_stderr_contains "--by goes with the workload table only"

step "--by section: every column of every row, as planted"
expect_exit 0 "$MEV" flow --store s -q
expect_exit 0 "$MEV" export workload --store s --by section -o ws.csv
for t in v1.0 v2.0 v3.0; do echo "$t $(git -C repo log -1 --format=%ct "$t")"; done >dates.txt
python3 - ws.csv dates.txt <<'PY' || fail "workload differs from the planted numbers"
import csv, sys, datetime
dates = {}
for l in open(sys.argv[2]):
    t, s = l.split()
    dates[t] = datetime.datetime.fromtimestamp(int(s), datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
rows = list(csv.DictReader(open(sys.argv[1])))
assert list(rows[0].keys()) == ("release,date,section,lineage,sections,files,lines,maintainers,reviewers,"
    "lists,commits,authors,committers,top_committer,top_committer_share,top_author_share,"
    "bus_factor,lines_per_maintainer,review_coverage,cross_org_review,absence_factor,"
    "elephant_factor").split(","), list(rows[0].keys())
cols = ["sections", "files", "lines", "maintainers", "reviewers", "lists", "commits", "authors",
        "committers", "top_committer", "top_committer_share", "top_author_share", "bus_factor",
        "lines_per_maintainer"]
want = {
 # v1.0: the first release has no flow: commit columns empty
 ("v1.0", "CORE"): "1 2 15 2 1 1 - - - - - - - 7.5",
 ("v1.0", "DRV"):  "1 1 4 1 0 2 - - - - - - - 4",
 ("v1.0", "IDLE"): "1 1 3 1 0 0 - - - - - - - 3",
 # CORE: 3 commits, committed by ann 2, bob 1 (bus factor 1), authored by carl 2, ann 1
 ("v2.0", "CORE"): "1 2 18 2 1 1 3 2 2 ann@core.org 0.666667 0.666667 1 9",
 # DRV: dan@old.org folded into dan@drv.org, as M: and as author/committer
 ("v2.0", "DRV"):  "1 1 6 1 0 2 2 2 1 dan@drv.org 1 0.5 1 6",
 # IDLE: no commits: 0 counts, empty shares and bus factor
 ("v2.0", "IDLE"): "1 1 3 1 0 0 0 0 0 - - - - 3",
 # CORE: ann 1, bob 1: bus factor 2, the tie's top committer bytewise first
 ("v3.0", "CORE"): "1 2 20 2 1 1 2 2 2 ann@core.org 0.5 0.5 2 10",
 # DRV: no maintainer left: lines per maintainer empty
 ("v3.0", "DRV"):  "1 1 6 0 0 2 0 0 0 - - - - -",
 ("v3.0", "IDLE"): "1 1 3 1 0 0 0 0 0 - - - - 3",
}
got = {(r["release"], r["section"]): r for r in rows}
assert sorted(got) == sorted(want), sorted(got)
bad = 0
for k, w in want.items():
    r = got[k]
    g = " ".join(r[c] if r[c] != "" else "-" for c in cols)
    if g != w or r["date"] != dates[k[0]] or r["lineage"] == "":
        print("%s %s: got %s (%s, lineage %s), want %s" % (k[0], k[1], g, r["date"], r["lineage"], w))
        bad += 1
sys.exit(bad > 0)
PY

step "by lineage and by cluster: the same numbers, one group per section here"
expect_exit 0 "$MEV" export workload --store s -o wl.csv
expect_exit 0 "$MEV" export workload --store s --by cluster -o wc.csv
python3 - ws.csv wl.csv wc.csv <<'PY' || fail "lineage or cluster rows differ"
import csv, sys
s, l, c = (list(csv.DictReader(open(f))) for f in sys.argv[1:4])
assert list(l[0].keys())[2] == "lineage" and list(c[0].keys())[2] == "cluster"
tail = lambda r: [r[k] for k in list(r.keys())[list(r.keys()).index("sections"):]]
key = lambda r: (r["release"], r["lineage"])
bys = {key(r): tail(r) for r in s}
for rows in (l, c):
    assert len(rows) == len(s), len(rows)
    for r in rows:
        assert bys[key(r)] == tail(r), (r, bys[key(r)])
PY

step "JSON: an empty share is null, not 0"
expect_exit 0 "$MEV" export workload --store s --by section --release v2.0 -f json -o w.json
python3 - w.json <<'PY' || fail "json"
import json, sys
rows = {r["section"]: r for r in json.load(open(sys.argv[1]))}
assert rows["IDLE"]["commits"] == 0 and rows["IDLE"]["top_committer_share"] is None
assert rows["IDLE"]["bus_factor"] is None and rows["IDLE"]["top_committer"] is None
assert rows["CORE"]["bus_factor"] == 1
PY

step "--from/--to keep the releases between them"
expect_exit 0 "$MEV" export workload --store s --by section --from v2.0 --to v2.0
[ "$(cut -d, -f1 "$OUT" | sort -u | tr '\n' ' ')" = "release v2.0 " ] || fail "--from/--to"

step "export all: the workload table with its key"
expect_exit 0 "$MEV" export all --store s -o s.db
python3 - s.db <<'PY' || fail "sqlite"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
n = db.execute("select count(*) from workload where release = 'v2.0'").fetchone()[0]
assert n == 3, n
assert db.execute("select bus_factor from workload where release = 'v3.0' and lineage = "
                  "(select lineage from sections where release = 'v3.0' and section = 'CORE')").fetchone()[0] == 2
PY

step "report: the People part names DRV, whose maintainer left"
expect_exit 0 "$MEV" report --store s --from v2.0 --to v3.0
grep -q '^## People' "$OUT" || fail "no People part"
grep -q '^| DRV | [0-9]* | maintainers all left | 1 | 0 |$' "$OUT" || fail "DRV not listed"
[ "$(sed -n '/^## People/,/^## /p' "$OUT" | grep -c '^| [^S:]')" = 1 ] || fail "other rows listed"

# fx_commit DIR "AUTHOR <a>" DAY FILE [TRAILER...]: a commit by AUTHOR (also its
# committer) dated DAY 12:00 UTC, adding a line to FILE, with the trailers.
fx_commit() {
	local d=$1 author=$2 day=$3 file=$4 msg
	shift 4
	msg=$(printf 'change %s\n\n' "$file"; printf '%s\n' "$@" "Signed-off-by: $author")
	echo "line on $day" >>"$d/$file"
	git -C "$d" add -A
	GIT_AUTHOR_NAME=${author% <*} GIT_AUTHOR_EMAIL=$(echo "$author" | sed 's/.*<\(.*\)>/\1/') \
	GIT_COMMITTER_NAME=${author% <*} GIT_COMMITTER_EMAIL=$(echo "$author" | sed 's/.*<\(.*\)>/\1/') \
	GIT_AUTHOR_DATE="${day}T12:00:00 +0000" GIT_COMMITTER_DATE="${day}T12:00:00 +0000" \
		git -C "$d" commit -q -m "$msg"
}

step "review and concentration: a planted history with trailers, three domains and --orgs"
mkrepo fx
mkdir -p fx/net fx/disk
printf 'NET\nM:\tAnn Acme <ann@acme.com>\nS:\tMaintained\nF:\tnet/\n\nDISK\nM:\tEve Small <eve@small.io>\nS:\tMaintained\nF:\tdisk/\n' >fx/MAINTAINERS
printf 'Cy Other <cy@other.org> <cy@alt.org>\n' >fx/.mailmap
echo start >fx/net/n.c
echo start >fx/disk/d.c
commit_all fx v1.0
An='Ann Acme <ann@acme.com>' Bo='Bob Acme <bob@acme.com>' Cy='Cy Other <cy@other.org>'
Ev='Eve Small <eve@small.io>' Fa='Fay Dev <fay@fay.dev>' Gu='Gus Dev <gus@gus.dev>'
# NET: 6 commits; reviewed by another: n1, n2, n4 (n3 by its author, n5 by
# its author under an address .mailmap folds, n6 not at all)
fx_commit fx "$An" 2020-03-01 net/n.c "Reviewed-by: $Bo"                        # n1 acme.com
fx_commit fx "$An" 2020-03-02 net/n.c "Acked-by: $Cy"                           # n2 other.org
fx_commit fx "$An" 2020-03-03 net/n.c "Reviewed-by: $An"                        # n3 self
fx_commit fx "$Bo" 2020-03-04 net/n.c "Reviewed-by: $An" "Acked-by: Dee <dee@mail.net>" # n4
fx_commit fx "$Cy" 2020-03-05 net/n.c "Reviewed-by: Cy Alt <cy@alt.org>"        # n5 self
fx_commit fx "$Ev" 2020-03-06 net/n.c                                           # n6
# DISK: 6 commits; reviewed d2 (eve at Acme then, by --orgs) and d5 (eve at Small Co)
fx_commit fx "$Ev" 2020-03-01 disk/d.c                                          # d1
fx_commit fx "$Ev" 2020-03-02 disk/d.c "Reviewed-by: $An"                       # d2
fx_commit fx "$Fa" 2020-03-03 disk/d.c                                          # d3
fx_commit fx "$Gu" 2020-03-04 disk/d.c                                          # d4
fx_commit fx "$Ev" 2020-03-07 disk/d.c "Reviewed-by: $An"                       # d5
fx_commit fx "$Fa" 2020-03-08 disk/d.c                                          # d6
commit_all fx v2.0
expect_exit 0 "$MEV" walk --repo fx --store fxs -q
expect_exit 0 "$MEV" cluster --store fxs -q
expect_exit 0 "$MEV" track --store fxs -q
expect_exit 0 "$MEV" flow --store fxs -q
cat >orgs.txt <<'EOF2'
# gitdm's email-map format: Dee and Acme's domain are Acme Inc; Eve was
# at Acme until 2020-03-06, then at Small Co
acme.com        Acme Inc
dee@mail.net    Acme Inc   # a consultant
eve@small.io    Acme Inc < 2020-03-06
eve@small.io    Small Co
EOF2
expect_exit 0 "$MEV" export workload --store fxs --by section --release v2.0 -o fx.csv
expect_exit 0 "$MEV" export workload --store fxs --by section --release v2.0 --orgs orgs.txt -o fxo.csv
python3 - fx.csv fxo.csv <<'PY' || fail "review and factors differ from the planted numbers"
import csv, sys
cols = ["commits", "authors", "bus_factor", "review_coverage", "cross_org_review", "absence_factor",
        "elephant_factor"]
want = {
 # NET: reviewed 3 of 6; across domains n2 (other.org) and n4 (dee at mail.net):
 # 2 of 3; authors ann 3, bob, cy, eve 1: absence 1 (3 is half), bus 2 (more
 # than half); domains acme.com 4: elephant 1
 ("fx.csv", "NET"):   "6 4 2 0.5 0.666667 1 1",
 # DISK: reviewed d2, d5: 2 of 6, both by acme.com for small.io: 2 of 2;
 # authors eve 3, fay 2, gus 1: absence 1, bus 2; domains small.io 3: elephant 1
 ("fx.csv", "DISK"):  "6 3 2 0.333333 1 1 1",
 # --orgs: dee is Acme Inc: only n2 crosses
 ("fxo.csv", "NET"):  "6 4 2 0.5 0.333333 1 1",
 # --orgs: eve is Acme Inc on d1, d2 (before 2020-03-06), Small Co on d5:
 # only d5 crosses; organisations Acme Inc 2, fay.dev 2, Small Co 1, gus.dev 1: 2
 ("fxo.csv", "DISK"): "6 3 2 0.333333 0.5 1 2",
}
bad = 0
for f in sys.argv[1:3]:
    for r in csv.DictReader(open(f)):
        got = " ".join(r[c] for c in cols)
        if got != want[(f, r["section"])]:
            print("%s %s: got %s, want %s" % (f, r["section"], got, want[(f, r["section"])]))
            bad += 1
sys.exit(bad > 0)
PY

step "--orgs: the same in export all"
expect_exit 0 "$MEV" export all --store fxs --orgs orgs.txt -o fx.db
python3 - fx.db <<'PY' || fail "sqlite"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
got = db.execute("select review_coverage, cross_org_review, absence_factor, elephant_factor from "
                 "workload where release = 'v2.0' and lineage = (select lineage from sections "
                 "where release = 'v2.0' and section = 'DISK')").fetchone()
assert got == (1 / 3, 0.5, 1, 2), got
PY

step "--orgs: a missing file or a bad line is a usage error; nothing is written"
expect_exit 2 "$MEV" export workload --store fxs --orgs no-such.txt -o none.csv
expect_stderr_contains "cannot read the --orgs file 'no-such.txt'"
expect_stderr_contains "hint: each line is"
[ ! -e none.csv ] || fail "none.csv written"
printf 'acme.com Acme\n\n# fine so far\neve@small.io Small < 2020-02-30\n' >bad-orgs.txt
expect_exit 2 "$MEV" export workload --store fxs --orgs bad-orgs.txt -o none.csv
expect_stderr_contains "bad-orgs.txt:4: the date after '<' is not a day YYYY-MM-DD"
[ ! -e none.csv ] || fail "none.csv written"
printf 'acme.com\n' >bad-orgs.txt
expect_exit 2 "$MEV" export all --store fxs --orgs bad-orgs.txt -o none.db
expect_stderr_contains "bad-orgs.txt:1: an address or domain without an organisation"
[ ! -e none.db ] || fail "none.db written"
if [ "$(id -u)" != 0 ]; then
	cp orgs.txt locked.txt
	chmod 000 locked.txt
	expect_exit 2 "$MEV" export workload --store fxs --orgs locked.txt -o none.csv
	expect_stderr_contains "cannot read the --orgs file 'locked.txt'"
	[ ! -e none.csv ] || fail "none.csv written"
fi
expect_exit 2 "$MEV" export sections --store fxs --orgs orgs.txt
expect_stderr_contains "--orgs goes with the workload table only"
expect_exit 2 "$MEV" export graph --store fxs --release v2.0 --orgs orgs.txt
expect_stderr_contains "--orgs goes with the workload table only"
echo "an older table" >kept.csv
printf 'acme.com Acme\nbob@ Bob\n' >bad-orgs.txt
expect_exit 2 "$MEV" export workload --store fxs --orgs bad-orgs.txt -o kept.csv
expect_stderr_contains "bad-orgs.txt:2: an address needs a name and a domain around its '@'"
[ "$(cat kept.csv)" = "an older table" ] || fail "kept.csv was touched"
