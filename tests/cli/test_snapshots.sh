# walk --branch B --every P (issue 28): dated snapshots of a branch on a
# planted history whose committer dates go backwards and forwards, with a
# merge and two tags; each snapshot must be the commit git itself names
# ('git rev-list -1 --first-parent --before=END'), share one store with the
# tags in date order, go through cluster, track, chart, report and export,
# survive kill -9, and refuse bad input with a hint.
. "$(dirname "$0")/lib.sh" "$@"

# at DAY: the next commit's dates (noon UTC of DAY)
at() {
	export GIT_AUTHOR_DATE="$1T12:00:00Z" GIT_COMMITTER_DATE="$1T12:00:00Z"
}

step "a planted history: c1 (v1.0), c2, a merge, c3, c4 dated back in February, c5 dated ahead in June, c6 (v2.0)"
mkrepo repo
mkdir -p repo/core repo/drv
sed 's/^\([A-Z]\): /\1:\t/' >repo/MAINTAINERS <<'EOF'
CORE
M: Ann Core <ann@core.org>
S: Maintained
F: core/

DRV
M: Dan Drv <dan@drv.org>
S: Maintained
F: drv/
F: core/shared.c

THE REST
M: Top Dog <top@top.org>
F: *
F: */
EOF
printf 'a\nb\nc\n' >repo/core/a.c
printf 's\n' >repo/core/shared.c
at 2024-01-10; git -C repo add -A; git -C repo commit -q -m c1; git -C repo tag -a v1.0 -m v1.0
printf 'x\n' >repo/drv/x.c
at 2024-01-20; git -C repo add -A; git -C repo commit -q -m c2
git -C repo checkout -q -b side
printf 'y\ny\n' >repo/drv/y.c
at 2024-01-25; git -C repo add -A; git -C repo commit -q -m s1
git -C repo checkout -q master
at 2024-03-01; git -C repo merge -q --no-ff -m merge side
printf 'd\n' >>repo/core/a.c
at 2024-03-05; git -C repo commit -q -am c3
printf 'b\n' >repo/core/b.c
at 2024-02-10; git -C repo add -A; git -C repo commit -q -m c4
printf 'z\n' >repo/drv/z.c
at 2024-06-01; git -C repo add -A; git -C repo commit -q -m c5
printf 'e\n' >>repo/core/a.c
at 2024-04-20; git -C repo commit -q -am c6; git -C repo tag -a v2.0 -m v2.0
c() { git -C repo rev-parse "$1^{commit}"; }
# git's own answer for the period ending on DAY
git_at() { git -C repo rev-list -1 --first-parent --before="$1T23:59:59Z" master; }

step "monthly snapshots, January to June 2024"
expect_exit 0 "$MEV" walk --repo repo --store S --branch master --every month --until 2024-06-30
expect_stderr_contains "6 snapshots and 0 release tags in all"
expect_exit 0 "$MEV" releases --store S
cut -d, -f1,3 "$OUT" | tail -n +2 >got.txt
for d in 2024-01-31 2024-02-29 2024-03-31 2024-04-30 2024-05-31 2024-06-30; do
	echo "master@$d,$(git_at $d)"
done >want.txt
same_files want.txt got.txt
# the commit dated back in February brings the merge and c3 in with it (as
# git's --before does); the one dated ahead in June comes in with c6 in April
grep -q "^master@2024-02-29,$(c master~2)\$" got.txt || fail "February is not c4"
grep -q "^master@2024-04-30,$(c v2.0)\$" got.txt || fail "April is not c6"

step "releases: kind, date (the period's end), commit_date, same_as for periods without a new commit"
python3 - "$OUT" <<'EOF' || fail "releases columns"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["kind"] for r in rows] == ["snapshot"] * 6, [r["kind"] for r in rows]
assert rows[0]["date"] == "2024-01-31T23:59:59Z", rows[0]["date"]
assert rows[0]["commit_date"] == "2024-01-20T12:00:00Z", rows[0]["commit_date"]
same = [r["same_as"] for r in rows]
assert same == ["", "", "master@2024-02-29", "", "master@2024-04-30", "master@2024-04-30"], same
assert rows[2]["lines"] == rows[1]["lines"] and rows[2]["edges"] == rows[1]["edges"]
EOF

step "a period with no new commit stores only its name: March repeats February, May and June April"
expect_exit 0 "$MEV" store info --store S
grep -qE '^aliases +3 ' "$OUT" || fail "store info: $(grep -E '^(aliases|releases|tables) ' "$OUT" | tr '\n' ';')"
grep -qE '^tables +3 ' "$OUT" || fail "a repeat has a file table: $(grep -E '^tables ' "$OUT")"
expect_exit 0 "$MEV" store check --store S
expect_stdout_contains "6 releases"

step "the tags too, in one store ordered by date; a snapshot at a tag's commit is the tag, byte for byte"
expect_exit 0 "$MEV" walk --repo repo --store S --branch master --every month --until 2024-06-30 --tags-too
expect_stderr_contains "2 releases walked, 6 already stored, 6 snapshots and 2 release tags in all"
expect_exit 0 "$MEV" releases --store S
cut -d, -f1 "$OUT" | tail -n +2 | tr '\n' ' ' >order.txt
[ "$(cat order.txt)" = "v1.0 master@2024-01-31 master@2024-02-29 master@2024-03-31 v2.0 master@2024-04-30 master@2024-05-31 master@2024-06-30 " ] ||
	fail "order: $(cat order.txt)"
for cmd in graph filemap; do
	expect_exit 0 "$MEV" $cmd --store S --release v2.0 -o tag.out
	expect_exit 0 "$MEV" $cmd --store S --release master@2024-04-30 -o snap.out
	same_files tag.out snap.out
done
expect_exit 0 "$MEV" graph --store S --release v2.0 --format graphml -o tag.out
expect_exit 0 "$MEV" graph --store S --release master@2024-04-30 --format graphml -o snap.out
same_files tag.out snap.out

# v2.0 is stored before April, which stays as it was (May and June repeat it)
expect_exit 0 "$MEV" store info --store S
grep -qE '^aliases +3 ' "$OUT" || fail "store info with tags: $(grep -E '^aliases ' "$OUT")"

step "cluster, track, events and report between snapshots, the chart, export workload"
expect_exit 0 "$MEV" cluster --store S -q
expect_exit 0 "$MEV" track --store S -q
expect_exit 0 "$MEV" events --store S --from master@2024-01-31 --to master@2024-03-31
[ "$(cut -d, -f1 "$OUT" | tail -n +2 | sort -u | tr '\n' ' ')" = "master@2024-01-31 master@2024-02-29 " ] ||
	fail "events --from/--to a snapshot: $(cut -d, -f1,2 "$OUT" | sort -u | tr '\n' ' ')"
expect_exit 0 "$MEV" events --store S --from master@2024-03-31 --to master@2024-04-30
[ "$(cut -d, -f1,2 "$OUT" | tail -n +2 | sort -u | tr '\n' ' ')" = "master@2024-03-31,v2.0 v2.0,master@2024-04-30 " ] ||
	fail "events across a tag: $(cut -d, -f1,2 "$OUT" | sort -u | tr '\n' ' ')"
expect_exit 0 "$MEV" report --store S --from master@2024-05-31 --to master@2024-06-30 -o report.md
grep -q "master@2024-05-31 (2024-05-31)" report.md || fail "report: the snapshot's day"
expect_exit 0 "$MEV" chart --store S --x date -o chart.html
grep -q "master@2024-06-30" chart.html || fail "chart: no snapshot"
expect_exit 0 "$MEV" flow --repo repo --store S -q
expect_exit 0 "$MEV" export workload --store S --by section -o workload.csv
python3 - workload.csv <<'EOF' || fail "workload of snapshots"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1]))]
# DRV in March: the merge brought s1 (drv/y.c) in February's snapshot; in
# March (the same commit as February) no commit at all: empty shares
feb = [r for r in rows if r["release"] == "master@2024-02-29" and r["section"] == "DRV"]
mar = [r for r in rows if r["release"] == "master@2024-03-31" and r["section"] == "DRV"]
assert feb and mar, (feb, mar)
assert mar[0]["commits"] == "0" and mar[0]["top_committer_share"] == "" and mar[0]["bus_factor"] == "", mar[0]
assert int(feb[0]["commits"]) >= 1, feb[0]
EOF

step "the branch moves: a commit in June walks June again, nothing else"
printf 'w\n' >repo/drv/w.c
at 2024-06-15; git -C repo add -A; git -C repo commit -q -m c7
expect_exit 0 "$MEV" walk --repo repo --store S --until 2024-06-30
expect_stderr_contains "snapshot master@2024-06-30: the branch has commits in its period since it was stored; walking it again"
expect_stderr_contains "1 release walked"
expect_exit 0 "$MEV" releases --store S
grep -q "^master@2024-06-30,[0-9]*,$(c master)," "$OUT" || fail "June is not c7"
expect_exit 0 "$MEV" walk --repo repo --store S --until 2024-06-30
expect_stderr_contains "0 releases walked"
# June is a release of its own now: the repeats are March's and May's
expect_exit 0 "$MEV" store info --store S
grep -qE '^aliases +2 ' "$OUT" || fail "store info after June moved: $(grep -E '^aliases ' "$OUT")"
expect_exit 0 "$MEV" store check --store S
expect_exit 0 "$MEV" graph --store S --release master@2024-05-31 -o may.csv
expect_exit 0 "$MEV" graph --store S --release v2.0 -o v20.csv
same_files may.csv v20.csv

step "weekly and daily: periods end on Sundays and on each day"
expect_exit 0 "$MEV" walk --repo repo --store W --branch master --every week --since 2024-01-01 --until 2024-01-31
expect_exit 0 "$MEV" releases --store W
[ "$(cut -d, -f1 "$OUT" | tail -n +2 | tr '\n' ' ')" = "master@2024-01-14 master@2024-01-21 master@2024-01-28 master@2024-02-04 " ] ||
	fail "weeks: $(cut -d, -f1 "$OUT" | tr '\n' ' ')"
expect_exit 0 "$MEV" walk --repo repo --store D --branch master --every day --since 2024-01-19 --until 2024-01-21
expect_exit 0 "$MEV" releases --store D
[ "$(cut -d, -f1,3 "$OUT" | tail -n +2 | tr '\n' ' ')" = "master@2024-01-19,$(c v1.0) master@2024-01-20,$(c master~6) master@2024-01-21,$(c master~6) " ] ||
	fail "days: $(cut -d, -f1,3 "$OUT" | tr '\n' ' ')"

step "kill -9 at random moments of a daily walk: the store stays whole, the next run finishes it"
expect_exit 0 "$MEV" walk --repo repo --store REF --branch master --every day --until 2024-06-30 -q
"$MEV" releases --store REF >ref.txt
RANDOM=28
for i in 1 2 3 4 5 6; do
	"$MEV" walk --repo repo --store K --branch master --every day --until 2024-06-30 -q >/dev/null 2>&1 &
	pid=$!
	sleep "0.$((RANDOM % 4))$((RANDOM % 10))"
	kill -9 $pid 2>/dev/null || true
	wait $pid 2>/dev/null || true
	[ ! -e K/data.mdb ] || expect_exit 0 "$MEV" store check --store K
done
expect_exit 0 "$MEV" walk --repo repo --store K --branch master --every day --until 2024-06-30 -q
"$MEV" releases --store K >k.txt
same_files ref.txt k.txt

step "bad input: each refused with a hint, and no store made for it"
expect_exit 2 "$MEV" walk --repo repo --store N --every month
expect_stderr_contains "--every, --since, --until and --tags-too go with --branch"
expect_exit 2 "$MEV" walk --repo repo --store N --branch master
expect_stderr_contains "--branch needs --every"
expect_exit 2 "$MEV" walk --repo repo --store N --branch master --every fortnight
expect_stderr_contains "--every takes day, week, month or quarter"
expect_exit 1 "$MEV" walk --repo repo --store N --branch master --every month --since 2024-02-30
expect_error "date '2024-02-30' does not parse"
expect_exit 1 "$MEV" walk --repo repo --store N --branch mastre --every month
expect_error "no branch 'mastre'"
expect_stderr_contains "did you mean 'master'"
expect_exit 1 "$MEV" walk --repo repo --store N --branch master --every month --since 2024-05-01 --until 2024-01-01
expect_error "--since 2024-05-01 is after --until 2024-01-01"
[ ! -e N ] || fail "a refused walk left a store behind"
expect_exit 1 "$MEV" walk --repo repo --store S --branch side --every month
expect_error "follows branch 'master'"
expect_exit 1 "$MEV" walk --repo repo --store S --every week
expect_error "holds snapshots every month"

step "the calendar's edges (issue 38, point 2): a commit dated 1970, --until a century ahead, year 9999"
mkrepo skew
printf 'CORE\nM:\tA <a@b.c>\nS:\tMaintained\nF:\tcore/\n' >skew/MAINTAINERS
mkdir skew/core
for d in 2015-02-10 2015-09-10 2016-04-10 1970-01-02 2017-03-10 2018-06-10; do
	echo "$d" >>skew/core/a.c
	at "$d"; git -C skew add -A; git -C skew commit -q -m "c $d"
done
bogus=$(git -C skew rev-parse --short=12 master~2)
expect_exit 0 "$MEV" walk --repo skew --store SK --branch master --every month --since 2014-01-01 --until 2126-01-01
# the commit dated back is named, and how many
expect_stderr_contains "1 commit of 'master' dated before the commit it follows ($bogus of 1970-01-02 after 2016-04-10)"
expect_stderr_contains "--until 2126-01-01 is after today ($(date -u +%Y-%m-%d)): the snapshots stop at the month of today"
expect_exit 0 "$MEV" releases --store SK
first=$(sed -n 2p "$OUT" | cut -d, -f1) last=$(tail -n 1 "$OUT" | cut -d, -f1)
# no snapshot before the branch's first commit (February 2015), none after this month
[ "$first" = master@2015-02-28 ] || fail "first snapshot $first, not the month of the first commit"
[ "$last" = "master@$(date -u -d "$(date -u +%Y-%m-01) +1 month -1 day" +%Y-%m-%d)" ] || fail "last snapshot $last is not this month's"
# the end of the calendar: refused, or stopped at now, quickly and in
# bounded memory (before, the months of 9999 took 24 GB); a sanitizer's
# shadow memory needs more address space than the bound
bounded() { case "$(ldd "$MEV" 2>/dev/null)" in *libasan*) ;; *) ulimit -v 4000000 ;; esac; }
(bounded; expect_exit 1 timeout 60 "$MEV" walk --repo skew --store S9 --branch master --every month --since 9999-11-01 --until 9999-12-31) || exit 1
expect_error "--since 9999-11-01 is after today"
(bounded; expect_exit 1 timeout 60 "$MEV" walk --repo skew --store S9 --branch master --every week --until 9999-12-31) || exit 1
expect_error "--until 9999-12-31: its week ends after 9999-12-31, the last day a snapshot's name can hold"
[ ! -e S9 ] || fail "a refused walk left a store behind"
(bounded; expect_exit 0 timeout 60 "$MEV" walk --repo skew --store SQ --branch master --every quarter --until 9999-12-31 -q) || exit 1
expect_exit 0 "$MEV" releases --store SQ
[ "$(tail -n 1 "$OUT" | cut -d, -f1)" \< "master@$(date -u +%Y)-99" ] || fail "quarters stored past this year"

step "a shallow clone: refused, naming where its history stops and what is missing"
git clone -q --depth 2 "file://$TMP/repo" shallow
expect_exit 1 "$MEV" walk --repo shallow --store SH --branch master --every month --until 2024-06-30
expect_error "is a shallow clone: the history of 'master' stops at commit $(git -C repo rev-parse --short=12 v2.0^{commit}) of 2024-04-20; the snapshots up to then need the commits before it, which it lacks"
expect_stderr_contains "fetch --unshallow"
echo "PASS"
