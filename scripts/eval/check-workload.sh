#!/usr/bin/env bash
# Check 'maintevo export workload' against counts taken independently with
# git, for a few lineages of a walked, tracked store with a flow.
#
# usage: scripts/eval/check-workload.sh [-m MAINTEVO] STORE REPO [LINEAGE...]
#
# Default lineages: the three with the most commits over the store.  For
# every release TAG (after the first) and lineage L, the script takes
#   - the sections of L at TAG (`maintevo export sections --release TAG`),
#   - the files they cover at TAG (`maintevo export files --release TAG`),
#   - commits: `git log --no-merges --full-history PREV..TAG -- FILES`,
#     PREV the release before TAG; --full-history because flow walks every
#     commit of the range (no history simplification), and --no-merges
#     because flow judges only non-merge commits, each by the paths it
#     changes against its parent,
#   - authors and committers: the distinct %aE / %cE of those commits with
#     git's mailmap set to TAG's .mailmap (mailmap.blob=TAG:.mailmap),
#     lowercased; the top committer's share and the bus factor from them,
#   - maintainers/reviewers: the distinct M:/R: addresses of those sections,
#     read from TAG's MAINTAINERS files (every MAINTAINERS in the tree, as
#     U-Boot's get_maintainer.pl reads them; a section is a title line and
#     its field lines), lowercased and mapped with `git check-mailmap`
#     against TAG's .mailmap,
# and prints, per column, how many (release, lineage) rows agree.
#
# Where the definitions differ on purpose (docs/schemas.md, "workload"):
# flow decides which sections a commit touches with its PARENT's
# MAINTAINERS and the paths as they were then; the independent count uses
# the files covered at TAG.  A commit that touched a file deleted, renamed
# or moved to another section before TAG is counted by one side only; the
# script lists every row that differs so such cases can be read.  On
# U-Boot v2023.01..v2024.10 (10 tags, lineages 1 2 3; 14 min) sizes,
# maintainers and reviewers agree in all 27 rows; commits by TAG's files
# agree in 9/27 (within 0-3%), and the 144 commits the definitions split on
# are of two kinds: a commit that ADDS files a
# section's F: line covers only from a later MAINTAINERS change (git log
# counts it, flow does not: the parent's MAINTAINERS did not cover it), and
# a commit to files covered at its parent by a section of the lineage that
# no longer covers them at TAG (flow counts it, git log -- FILES does not).
# So the script also prints an "aligned" agreement: the commits the two
# definitions split on (in git log -- FILES but not in flow's stored
# sections for the lineage, or the other way) are decided again by the
# sections that cover the paths they change in their PARENT
# ('maintevo explain --rev PARENT PATHS', the matcher's own path, not
# flow's), and commits, authors, committers, the top share and the bus
# factor are counted again on that set.  It exits 1 when a size, people or
# aligned column disagrees in any row.  On that store every aligned column
# agrees in 27/27 rows.
set -euo pipefail
M=${MAINTEVO:-build/maintevo}
if [ "${1:-}" = -m ]; then M=$2; shift 2; fi
[ $# -ge 2 ] || { sed -n 2,5p "$0" >&2; exit 2; }
STORE=$1 REPO=$2; shift 2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
"$M" export workload --store "$STORE" --repo "$REPO" -o "$work/workload.csv"
"$M" releases --store "$STORE" -o "$work/releases.csv"
if [ $# -eq 0 ]; then
	set -- $(python3 - "$work/workload.csv" <<'PY'
import csv, sys, collections
c = collections.Counter()
for r in csv.DictReader(open(sys.argv[1])):
    if r["commits"]:
        c[r["lineage"]] += int(r["commits"])
print(" ".join(l for l, _ in c.most_common(3)))
PY
)
fi
echo "lineages: $*" >&2
tags=$(python3 -c 'import csv,sys; print(" ".join(r["release"] for r in csv.DictReader(open(sys.argv[1]))))' "$work/releases.csv")
for t in $tags; do
	"$M" export sections --store "$STORE" --release "$t" -o "$work/sections-$t.csv"
	"$M" export files --store "$STORE" --release "$t" -o "$work/files-$t.csv"
done
"$M" export commits --store "$STORE" -o "$work/commits.csv"
python3 - "$work" "$REPO" "$tags" "$M" "$@" <<'PY'
import csv, os, re, subprocess, sys, collections
work, repo, tags, mev, lineages = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4], sys.argv[5:]
# a release's commit: tags and snapshots (master@YYYY-MM-DD, not a git name) alike
commit_of = {r["release"]: r["commit"] for r in csv.DictReader(open(os.path.join(work, "releases.csv")))}
flow_sections = collections.defaultdict(dict)   # release -> commit -> its sections
for r in csv.DictReader(open(os.path.join(work, "commits.csv"))):
    flow_sections[r["release"]][r["commit"]] = set(r["sections"].split(" | ")) - {""}
parent_cache = {}

def parent_sections(c):
    """The sections (THE REST aside) covering the paths c changes, by its
    parent's MAINTAINERS: 'maintevo explain --rev PARENT' on those paths."""
    if c not in parent_cache:
        paths = [p for p in git("diff-tree", "--no-commit-id", "-r", "--name-only", c).splitlines() if p]
        secs = set()
        if paths:
            out = subprocess.run([mev, "explain", "--repo", repo, "--rev", c + "^", "--format", "csv", *paths],
                                 capture_output=True, text=True, errors="replace").stdout
            secs = {r["section"] for r in csv.DictReader(out.splitlines())
                    if r["verdict"] == "in" and r["section"] != "THE REST"}
        parent_cache[c] = secs
    return parent_cache[c]

def git(*a, inp=None):
    return subprocess.run(["git", "-C", repo] + list(a), input=inp, capture_output=True,
                          text=True, errors="replace", check=True).stdout

def fold(tag, emails):
    if not emails:
        return set()
    out = git("-c", "mailmap.blob=%s:.mailmap" % commit_of[tag], "check-mailmap", "--stdin",
              inp="".join("<%s>\n" % e for e in emails))
    return {re.search(r"<([^>]*)>\s*$", l).group(1).lower() for l in out.splitlines() if l}

def sections_people(tag):
    """title -> {'M': set, 'R': set} over every MAINTAINERS file of the tree"""
    files = [p for p in git("ls-tree", "-r", "--name-only", commit_of[tag]).splitlines()
             if p == "MAINTAINERS" or p.endswith("/MAINTAINERS")]
    files.sort(key=lambda p: (p != "MAINTAINERS", p))
    res = collections.defaultdict(lambda: {"M": set(), "R": set()})
    for f in files:
        title = None
        for line in git("show", "%s:%s" % (commit_of[tag], f)).splitlines():
            m = re.match(r"^([A-Z]):\s*(.*)$", line)
            if not line.strip():
                title = None
            elif m and title is not None:
                if m.group(1) in "MR":
                    v = m.group(2)
                    e = re.search(r"<([^>]*)>", v)
                    addr = e.group(1) if e else (v.strip() if "@" in v else "")
                    if addr:
                        res[title][m.group(1)].add(addr.strip().lower())
            elif not m and title is None:
                title = line.rstrip()
    return res

rows = {(r["release"], r["lineage"]): r for r in csv.DictReader(open(os.path.join(work, "workload.csv")))}
cols = ["sections", "files", "lines", "maintainers", "reviewers", "commits", "authors", "committers",
        "top_committer_share", "bus_factor"]
aligned_cols = ["commits", "authors", "committers", "top_committer_share", "bus_factor"]
aligned_agree = collections.Counter(); split = 0
agree = collections.Counter(); total = collections.Counter(); diffs = []
for i, tag in enumerate(tags[1:], 1):
    prev = tags[i - 1]
    secs = collections.defaultdict(set)
    for r in csv.DictReader(open(os.path.join(work, "sections-%s.csv" % tag))):
        if r["lineage"] in lineages:
            secs[r["lineage"]].add(r["section"])
    files = collections.defaultdict(dict)
    for r in csv.DictReader(open(os.path.join(work, "files-%s.csv" % tag))):
        if r["lineage"] in lineages and r["section"] in secs[r["lineage"]]:
            files[r["lineage"]][r["path"]] = int(r["lines"])
    people = sections_people(tag)
    for lin in lineages:
        w = rows.get((tag, lin))
        if w is None:
            continue
        mine = {"sections": len(secs[lin]), "files": len(files[lin]),
                "lines": sum(files[lin].values())}
        ms, rs = set(), set()
        for t in secs[lin]:
            base = re.sub(r" #\d+$", "", t)
            ms |= people[base]["M"]; rs |= people[base]["R"]
        mine["maintainers"] = len(fold(tag, sorted(ms)))
        mine["reviewers"] = len(fold(tag, sorted(rs)))
        paths = sorted(files[lin])
        log = []
        if paths:
            log = git("-c", "mailmap.blob=%s:.mailmap" % commit_of[tag], "log", "--no-merges", "--full-history",
                      "--format=%H %aE %cE", "%s..%s" % (commit_of[prev], commit_of[tag]), "--", *paths).split("\n")
            log = [l.lower().split() for l in log if l]
        def stats(log, out):
            out["commits"] = len(log)
            out["authors"] = len({l[1] for l in log})
            out["committers"] = len({l[2] for l in log})
            counts = sorted(collections.Counter(l[2] for l in log).values(), reverse=True)
            bus, s = "", 0
            for k, n in enumerate(counts, 1):
                s += n
                if 2 * s > len(log):
                    bus = str(k); break
            out["bus_factor"] = bus
            out["top_committer_share"] = "%.6g" % (counts[0] / len(log)) if log else ""
        stats(log, mine)
        # aligned: the commits the two definitions split on (git log -- FILES
        # against flow's stored sections) decided again with the parent's
        # MAINTAINERS, through 'maintevo explain --rev PARENT'
        gitset = {l[0] for l in log}
        flowset = {c for c, ss in flow_sections[tag].items() if ss & secs[lin]}
        keep = gitset - (gitset ^ flowset)
        for c in gitset ^ flowset:
            split += 1
            if parent_sections(c) & secs[lin]:
                keep.add(c)
        alog = []
        if keep:
            out = git("-c", "mailmap.blob=%s:.mailmap" % commit_of[tag], "log", "--no-walk=unsorted",
                      "--format=%H %aE %cE", *sorted(keep))
            alog = [l.lower().split() for l in out.splitlines() if l]
        aligned = {}
        stats(alog, aligned)
        for c in aligned_cols:
            ok = str(aligned[c]) == w[c]
            aligned_agree[c] += ok
            if not ok:
                diffs.append("%s lineage %s %s (aligned): workload %s, independent %s" % (tag, lin, c, w[c], aligned[c]))
        for c in cols:
            theirs = w[c]
            ok = str(mine[c]) == theirs
            total[c] += 1; agree[c] += ok
            if not ok:
                diffs.append("%s lineage %s %s: workload %s, independent %s" % (tag, lin, c, theirs, mine[c]))
for d in diffs:
    print("differs:", d)
for c in cols:
    print("%s: %d/%d rows agree" % (c, agree[c], total[c]))
print("aligned (the %d commits the two definitions split on decided by their parent's MAINTAINERS):" % split)
for c in aligned_cols:
    print("  %s: %d/%d rows agree" % (c, aligned_agree[c], total[c]))
sys.exit(1 if any(aligned_agree[c] != total[c] for c in aligned_cols) or
         any(agree[c] != total[c] for c in cols if c not in aligned_cols) else 0)
PY
