#!/usr/bin/env python3
"""Recount workload's review_coverage, cross_org_review, absence_factor and
elephant_factor for one group and release with git alone.

usage: scripts/eval/check-concentration.py REPO PREV TAG (--paths REGEX | --commits FILE)

--paths REGEX: the non-merge commits of PREV..TAG touching a path REGEX
  finds (a section's F:/N: lines written as one regular expression),
  leaving out those whose parent has no MAINTAINERS (flow judges a commit by
  its parent's MAINTAINERS: none, no section);
--commits FILE: the commit ids in FILE (e.g. those 'maintevo export
  commits' lists for a section), to check the review and factor arithmetic
  alone.
Authors and Reviewed-by/Acked-by people go through TAG's .mailmap
(git check-mailmap) and are lowercased; an organisation is the domain
(no --orgs).  Prints the four numbers as export workload writes them.
"""
import collections, re, subprocess, sys


def git(repo, tag, *args):
    return subprocess.run(["git", "-C", repo, "-c", "mailmap.blob=%s:.mailmap" % tag, *args],
                          capture_output=True, text=True, errors="replace", check=True).stdout


def factor(counts):
    """CHAOSS: the fewest with at least half of all."""
    total, s = sum(counts.values()), 0
    for i, v in enumerate(sorted(counts.values(), reverse=True), 1):
        s += v
        if 2 * s >= total:
            return i
    return ""


def main():
    if len(sys.argv) != 6 or sys.argv[4] not in ("--paths", "--commits"):
        sys.exit(__doc__.split("\n\n")[1])
    repo, prev, tag, how, arg = sys.argv[1:]
    fmt = "--format=@@%H%x00%aE%x00%(trailers:key=Reviewed-by,key=Acked-by,valueonly,separator=%x01)%x00"
    if how == "--commits":
        log = git(repo, tag, "log", "--use-mailmap", "--no-walk=unsorted", "-z", "--name-only", fmt,
                  *open(arg).read().split())
    else:
        log = git(repo, tag, "log", "--use-mailmap", "--no-merges", "-z", "--name-only", fmt,
                  "%s..%s" % (prev, tag))
    folded = {}

    def person(value):
        m = re.search(r"<([^>]*)>", value)
        if not m:
            return value.strip().lower()
        if m.group(1) not in folded:
            out = git(repo, tag, "check-mailmap", "<%s>" % m.group(1))
            folded[m.group(1)] = re.search(r"<([^>]*)>", out).group(1).lower()
        return folded[m.group(1)]

    org = lambda key: key.split("@", 1)[1] if "@" in key else key
    commits = reviewed = cross = 0
    authors, orgs = collections.Counter(), collections.Counter()
    for rec in log.split("@@")[1:]:
        f = rec.split("\0")
        commit, author = f[0], f[1].lower()
        if how == "--paths":
            if not any(re.search(arg, p.strip()) for p in f[3:] if p.strip()):
                continue
            if subprocess.run(["git", "-C", repo, "cat-file", "-e", commit + "^:MAINTAINERS"],
                              capture_output=True).returncode:
                continue
        commits += 1
        authors[author] += 1
        orgs[org(author)] += 1
        others = [p for p in (person(t) for t in f[2].split("\1") if t.strip()) if p != author]
        if others:
            reviewed += 1
            cross += any(org(p) != org(author) for p in others)
    print("commits %d reviewed %d cross %d" % (commits, reviewed, cross))
    print("review_coverage %.6g cross_org_review %s absence_factor %s elephant_factor %s" % (
        reviewed / commits if commits else float("nan"),
        "%.6g" % (cross / reviewed) if reviewed else "", factor(authors), factor(orgs)))


main()
