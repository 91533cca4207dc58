# maintevo flow: a commit belongs to the first release that holds it, also
# when a tag is off the main line (docs/flow.md, "What is judged"): U-Boot's
# v2023.07.01-dont-use was made from a development branch, v2023.07.02 from
# v2023.07 again, and v2023.10 reached the branch's commits; judged against
# the release before alone, they were judged twice.
. "$(dirname "$0")/lib.sh" "$@"
. "$SRC/tests/fixtures/flow-repo.sh"
command -v python3 >/dev/null || skip "python3 is not installed"

U='Uma Usb <uma@usb.org>'
# release: the first release holding each commit, by subject
releases_of() {
	expect_exit 0 "$MEV" export commits --store s -o commits.csv
	git -C repo log --all --format='%H %s' >subjects.txt
	python3 - commits.csv subjects.txt <<'PY'
import csv, sys
subj = dict(l.rstrip("\n").split(" ", 1) for l in open(sys.argv[2]))
rows = list(csv.DictReader(open(sys.argv[1])))
ids = [r["commit"] for r in rows]
if len(ids) != len(set(ids)):
    sys.exit("a commit is judged twice: %s" % sorted(subj[i] for i in ids if ids.count(i) > 1))
print(" ".join(sorted("%s=%s" % (subj[r["commit"]], r["release"]) for r in rows)))
PY
}

step "a history with a tag off the main line, and a hotfix tag beside it"
# master: p0 (v0.9) - a0 (v1.0) - m1 - M (merges next; v1.1)
# next:   a0 - x1 - x2 (v1.0.1, off the main line)
# hotfix: a0 - h1 (v1.0.2)
mkrepo repo
flow_maintainers >repo/MAINTAINERS
flow_commit repo "$U" "$U" usb/u.c p0
git -C repo tag -a v0.9 -m v0.9
flow_commit repo "$U" "$U" usb/u.c a0
git -C repo tag -a v1.0 -m v1.0
git -C repo checkout -q -b next
flow_commit repo "$U" "$U" usb/x.c x1
flow_commit repo "$U" "$U" usb/x.c x2
git -C repo tag -a v1.0.1 -m v1.0.1
git -C repo checkout -q -b hotfix v1.0
flow_commit repo "$U" "$U" usb/h.c h1
git -C repo tag -a v1.0.2 -m v1.0.2
git -C repo checkout -q master
flow_commit repo "$U" "$U" usb/u.c m1
flow_merge repo next "Merge branch 'next'"
git -C repo tag -a v1.1 -m v1.1
# v0.9 and v1.0.1 come in later walks
p0=$(git -C repo rev-parse v0.9^{commit})
git -C repo tag -d v0.9 v1.0.1 >/dev/null

step "v1.0, v1.0.2, v1.1: each range hides the releases before it"
# every vX.Y[.Z] tag: the maintenance releases too, which the default leaves out
expect_exit 0 "$MEV" walk --repo repo --store s --tags 'v[0-9]*' -q
expect_exit 0 "$MEV" flow --store s
expect_stderr_contains "2 releases judged, 0 already stored; 4 commits, 1 merges"
got=$(releases_of) || fail "$got"
[ "$got" = "h1=v1.0.2 m1=v1.1 x1=v1.1 x2=v1.1" ] || fail "releases: $got"

step "v1.0.1 comes in: v1.0.2 (another release before it) and v1.1 (its commits move) are judged again"
git -C repo tag -a v1.0.1 -m v1.0.1 next
expect_exit 0 "$MEV" walk --repo repo --store s -q
expect_exit 0 "$MEV" flow --store s
expect_stderr_contains "3 releases judged, 0 already stored; 4 commits, 1 merges"
got=$(releases_of) || fail "$got"
# x1 and x2 once, in v1.0.1; against v1.0.2 alone v1.1 held them too
[ "$got" = "h1=v1.0.2 m1=v1.1 x1=v1.0.1 x2=v1.0.1" ] || fail "releases: $got"
expect_exit 0 "$MEV" export all --store s -o all.db
[ -s all.db ] || fail "no database"

step "nothing new: nothing judged, no repository opened"
mv repo repo.away
expect_exit 0 "$MEV" flow --store s
expect_stderr_contains "0 releases judged, 3 already stored"
mv repo.away repo

step "v0.9 comes in before v1.0: v1.0 is judged, the others hide what they hid and are kept"
git -C repo tag -a v0.9 -m v0.9 "$p0"
expect_exit 0 "$MEV" walk --repo repo --store s -q
expect_exit 0 "$MEV" flow --store s
expect_stderr_contains "1 release judged, 3 already stored; 1 commits, 0 merges"
got=$(releases_of) || fail "$got"
[ "$got" = "a0=v1.0 h1=v1.0.2 m1=v1.1 x1=v1.0.1 x2=v1.0.1" ] || fail "releases: $got"
expect_exit 0 "$MEV" flow --store s
expect_stderr_contains "0 releases judged, 4 already stored"

step "--rebuild judges every release again, to the same result"
cp commits.csv before.csv
expect_exit 0 "$MEV" flow --store s --rebuild
expect_stderr_contains "4 releases judged, 0 already stored"
got=$(releases_of) || fail "$got"
same_files before.csv commits.csv
echo "PASS"
