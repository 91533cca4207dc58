# Causes of events (issue 10, point 3): a split caused by an added F: line
# is explained with that line and its file:line, a merge caused by code
# moved into a shared folder names the files, and a split of the
# clustering alone says "no MAINTAINERS or code change"; in the events
# CSV, in the track summary and in 'maintevo explain'.
. "$(dirname "$0")/lib.sh" "$@"

# The clustering is pinned: the events below are walktrap's (docs/tracking.md).
METHOD="--method walktrap --steps 4"

# lines PATH N: a file of N lines
lines() { mkdir -p "$(dirname "r/$1")"; seq "$2" | sed "s#^#$1 #" >"r/$1"; }
# sec TITLE PATTERN...: a section with one F: line per pattern
sec() { printf '%s\nM:\tSomeone <s@example.org>\nS:\tMaintained\n' "$1"; shift; for f; do printf 'F:\t%s\n' "$f"; done; echo; }
# maint [EXTRA]: the MAINTAINERS file; EXTRA: F: patterns GAMMA gets besides gamma/
maint() {
	{
	sec ALPHA alpha/ shared/
	sec "ALPHA DRIVERS" alpha/
	sec BETA beta/ shared/
	sec "BETA DRIVERS" beta/
	sec GAMMA gamma/ "$@"
	sec "GAMMA DRIVERS" gamma/
	sec DELTA delta/ common/
	sec "DELTA DRIVERS" delta/
	sec EPSILON eps/ common/
	sec "EPSILON DRIVERS" eps/
	sec PI pi/ px/
	sec "PI DRIVERS" pi/
	sec QU qu/ qx/
	sec "QU DRIVERS" qu/
	sec XI xi/ px/ qx/
	} >r/MAINTAINERS
}

step "a history: v2.0 adds 'F: beta/' to GAMMA, v3.0 moves code into common/"
mkrepo r
lines alpha/a.c 2000; lines shared/s.c 1000; lines beta/b.c 3000; lines gamma/g.c 3000
lines delta/d.c 1000; lines delta/big.c 3000; lines common/c.txt 5; lines eps/e.c 1000
lines eps/big2.c 2000; lines pi/p.c 1000; lines qu/q.c 1000; lines xi/x.c 600
lines px/bridge.c 100; lines qx/bridge.c 101
maint
commit_all r v1.0
maint beta/
commit_all r v2.0
git -C r mv delta/big.c common/big.c
git -C r mv eps/big2.c common/big2.c
commit_all r v3.0
git -C r show v2.0:MAINTAINERS | sed -n 27p | grep -qx "$(printf 'F:\tbeta/')" ||
	fail "the test's MAINTAINERS: line 27 is not GAMMA's 'F: beta/'"

expect_exit 0 "$MEV" walk --repo r --store S -q
expect_exit 0 "$MEV" track --store S $METHOD --support-runs 0
expect_stderr_contains "events: 0 birth, 0 death, 8 continuation, 0 growth, 0 contraction, 3 split, 4 merge"
expect_stderr_contains "causes: 2 split and merge events with no MAINTAINERS or code change (the clustering alone)"

step "events CSV: cause_kind and cause, last"
expect_exit 0 "$MEV" events --store S $METHOD --support-runs 0 -o events.csv
head -n 1 events.csv | grep -q ',to_cluster_display_name,cause_kind,cause$' || fail "events header: $(head -n 1 events.csv)"
python3 - events.csv <<'PY' || fail "causes in events.csv"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def one(**kw):
    got = [r for r in rows if all(r[k] == v for k, v in kw.items())]
    assert len(got) == 1, (kw, got)
    return got[0]
# the split of the added F: line, with its file:line
r = one(from_release="v1.0", event="split", to_cluster="ALPHA")
assert r["cause_kind"] == "maintainers+code", r
assert r["cause"] == "MAINTAINERS: F: beta/ (MAINTAINERS:27) added to GAMMA; code: 1 file moved (3,000 lines: beta/b.c from BETA to GAMMA)", r["cause"]
# its other half merges into GAMMA: the line and the file it brought along
r = one(from_release="v1.0", event="merge", from_cluster="BETA")
assert r["cause_kind"] == "maintainers+code", r
assert "F: beta/ (MAINTAINERS:27) added to GAMMA" in r["cause"], r["cause"]
assert "1 file moved (3,000 lines: beta/b.c from BETA to GAMMA)" in r["cause"], r["cause"]
# the merge of the code moved into common/: the files, largest first
for frm in ("DELTA", "EPSILON"):
    r = one(from_release="v2.0", event="merge", from_cluster=frm)
    assert r["cause_kind"] == "code", r
    assert r["cause"].startswith("code: 2 files moved (5,000 lines; largest common/big.c from DELTA to EPSILON)"), r["cause"]
# XI leaves QU with nothing changed near it: the clustering alone
for to in ("QU", "XI"):
    r = one(from_release="v1.0", event="split", to_cluster=to)
    assert r["cause_kind"] == "none", r
    assert r["cause"].startswith("no MAINTAINERS or code change: the clustering alone changed"), r["cause"]
# continuations have none
assert all(r["cause_kind"] == "" and r["cause"] == "" for r in rows if r["event"] == "continuation")
PY

step "explain: the split, every pattern change with file:line"
expect_exit 0 "$MEV" explain --store S $METHOD --support-runs 0 --release v2.0 --lineage ALPHA
expect_stdout_contains "v1.0 -> v2.0: split: BETA (lineage BETA [1]) gave off ALPHA (lineage ALPHA ["
expect_stdout_contains "  cause (maintainers+code): MAINTAINERS: F: beta/ (MAINTAINERS:27) added to GAMMA"
expect_stdout_contains "    moved: beta/b.c, 3,000 lines, from BETA to GAMMA"
expect_stdout_contains "    F: beta/ (MAINTAINERS:27) added to GAMMA"
expect_stdout_contains "ALPHA holds 50.0% of BETA's code"

step "explain: the merge names the files, their old paths and lines"
expect_exit 0 "$MEV" explain --store S $METHOD --support-runs 0 --from v2.0 --lineage DELTA
# both sides of this merge are DELTA's lineage: it says what it took in
expect_stdout_contains "v2.0 -> v3.0: merge: DELTA goes on (lineage DELTA ["
expect_stdout_contains "]), taking in EPSILON"
expect_stdout_contains "  cause (code): code: 2 files moved"
expect_stdout_contains "    moved: common/big.c (was delta/big.c), 3,000 lines, from DELTA to EPSILON"
expect_stdout_contains "    moved: common/big2.c (was eps/big2.c), 2,000 lines, from EPSILON to DELTA"
expect_stdout_contains "  MAINTAINERS: no change to the sections involved"

step "explain: the split of the clustering alone says so"
expect_exit 0 "$MEV" explain --store S $METHOD --support-runs 0 --from v1.0 --to v3.0 --lineage XI
expect_stdout_contains "v1.0 -> v2.0: split: QU (lineage"
expect_stdout_contains "  cause (none): no MAINTAINERS or code change: the clustering alone changed"
expect_stdout_contains "v2.0 -> v3.0: continuation"
expect_stdout_contains "  cause: none computed (its lines changed by 10% or less)"

step "explain: usage and unknown lineages"
expect_exit 2 "$MEV" explain --store S --release v2.0
expect_stderr_contains "--lineage is required"
expect_exit 2 "$MEV" explain --store S --lineage 1
expect_stderr_contains "give either --from (and --to) or --release"
expect_exit 1 "$MEV" explain --store S $METHOD --release v2.0 --lineage NOSUCH
expect_stderr_contains "store 'S' has no lineage 'NOSUCH'"
expect_exit 1 "$MEV" explain --store S $METHOD --release v9.9 --lineage 1
expect_stderr_contains "release 'v9.9' is not in store 'S'"

step "a second track keeps the causes; store check covers the patterns"
expect_exit 0 "$MEV" track --store S $METHOD --support-runs 0
expect_stderr_contains "(0 computed"
expect_exit 0 "$MEV" store check --store S
exit 0
