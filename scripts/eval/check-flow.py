#!/usr/bin/env python3
"""check-flow.py REPO STORE [N] [SEED] [FIRST [LAST]]: check N random commits of 'maintevo
export commits' (default 200) with code of its own: git for the paths
(diff-tree), the trailers (git interpret-trailers --parse) and the
identities (git check-mailmap with the release's .mailmap); 'maintevo
filemap --rev PARENT' for the sections of the paths the parent has (added
paths: 'filemap --rev COMMIT' when the commit leaves MAINTAINERS alone) and
'maintevo sections --rev PARENT' for where each section is, whose M:, R:
and T: lines are read here from the MAINTAINERS text.  Prints the commits
that disagree and the agreement per column.  With FIRST (and LAST), only the
commits of the releases after FIRST up to LAST are sampled.  A commit whose
parent has no MAINTAINERS sections is expected uncovered."""
import csv, io, os, random, re, subprocess, sys

MEV = os.environ.get("MAINTEVO", os.path.join(os.path.dirname(__file__), "..", "..", "build", "maintevo"))


def git(repo, *args, inp=None):
    return subprocess.run(["git", "-C", repo, *args], input=inp, capture_output=True,
                          check=True).stdout.decode("utf-8", "replace")


def mev(*args):
    return subprocess.run([MEV, *args], capture_output=True, check=True).stdout.decode("utf-8", "replace")


class NoMaintainers(Exception):
    """The revision has no MAINTAINERS sections: every path is uncovered."""


def mev_rev(*args):
    """maintevo filemap/sections of a revision; NoMaintainers when it has none."""
    try:
        return mev(*args)
    except subprocess.CalledProcessError as e:
        if b"no MAINTAINERS sections" in (e.stderr or b""):
            raise NoMaintainers() from None
        raise


def norm_url(u):
    u = u.strip().strip("<>'\"")
    u = re.sub(r"^[a-z+]+://", "", u, flags=re.I)
    if "@" in u.split("/")[0]:
        u = u.split("@", 1)[1]
    while u.endswith("/") or u.lower().endswith(".git"):
        u = u[:-1] if u.endswith("/") else u[:-4]
    m = re.match(r"^([^/:]*)([/:]?)(.*)$", u)
    return m.group(1).lower() + ("/" if m.group(2) else "") + m.group(3)


def email_of(v):
    m = re.search(r"<([^>]*)>", v)
    if m:
        return m.group(1).strip().lower()
    m = re.search(r"\S+@\S+", v)
    return m.group(0).strip("<>(),").lower() if m else ""


filemaps = {}


def filemap(repo, rev):
    """path -> (sections without THE REST, 1 when THE REST covers it)."""
    if rev not in filemaps:
        try:
            out = mev_rev("filemap", "--repo", repo, "--rev", rev, "--keep-rest")
        except NoMaintainers:
            out = "path,sections\n"
        rows = {r["path"]: set(s for s in r["sections"].split(" | ") if s)
                for r in csv.DictReader(io.StringIO(out))}
        # THE REST: the titles that cover every file
        rest = set.intersection(*rows.values()) if rows else set()
        filemaps[rev] = {p: (v - rest, bool(v & rest)) for p, v in rows.items()}
    return filemaps[rev]


def people(repo, parent, wanted, tag):
    """title -> (M emails, R emails, T urls) of the sections `wanted`, read
    from the MAINTAINERS text; the emails after the release's .mailmap, as
    the trailers' are."""
    try:
        out = mev_rev("sections", "--repo", repo, "--rev", parent)
    except NoMaintainers:
        return {}
    texts, res = {}, {}
    for r in csv.DictReader(io.StringIO(out)):
        if r["section"] not in wanted:
            continue
        f = r["file"]
        if f not in texts:
            texts[f] = git(repo, "show", f"{parent}:{f}").split("\n")
        lines = texts[f]
        i = int(r["line"]) - 1
        if i < len(lines) and not re.match(r"^[A-Z]:", lines[i]):
            i += 1  # the title line: the fields follow
        m, rv, t = set(), set(), set()
        while i < len(lines):
            ln = lines[i]
            if re.match(r"^\s*#", ln) or ln.strip() == "":
                i += 1  # the script drops both: the next title ends the section
                continue
            mm = re.match(r"^([A-Z]):\s*(.*)$", ln)
            if not mm:
                break
            k, v = mm.group(1), mm.group(2)
            if k == "M":
                m.add(mailmap(repo, tag, v.strip()))
            elif k == "R":
                rv.add(mailmap(repo, tag, v.strip()))
            elif k == "T":
                parts = v.split()
                u = parts[1] if len(parts) > 1 and "/" not in parts[0] and ":" not in parts[0] else (parts[0] if parts else "")
                t.add(norm_url(u))
            i += 1
        res[r["section"]] = (m, rv, t)
    return res


def mailmap(repo, tag, ident):
    if not re.match(r"^[^<>]*<[^<>]+>\s*$", ident):
        return email_of(ident)  # "Name <addr" and the like: git check-mailmap refuses them
    out = git(repo, "-c", f"mailmap.blob={tag}:.mailmap", "check-mailmap", ident).strip()
    return email_of(out)


def check(repo, row, rest_titles):
    c, tag = row["commit"], row["release"]
    parents = git(repo, "rev-list", "--parents", "-n1", c).split()[1:]
    if not parents:
        return {"coverage": row["coverage"] == "uncovered"}, {"coverage": "uncovered"}
    p = parents[0]
    changes = [l.split("\t") for l in git(repo, "diff-tree", "-r", "--no-renames", "--no-commit-id",
                                         "--name-status", p, c).splitlines() if l]
    filemaps.clear()
    fm = filemap(repo, p)
    none = not fm  # the parent has no MAINTAINERS sections: every path uncovered
    real, rest, unknown = set(), False, False
    touches_maint = any(re.search(r"(^|/)MAINTAINERS", x[1]) for x in changes)
    for st, path in changes:
        got = fm.get(path)
        if got is None:
            if none:
                continue
            if touches_maint:
                unknown = True
                continue
            got = filemap(repo, c).get(path, (set(), False))
        real |= got[0]
        rest |= got[1]
    pm = people(repo, p, real, tag) if real else {}
    cov = "covered" if real else ("rest_only" if rest else "uncovered")
    fmt = git(repo, "log", "-1", "--format=%cn <%ce>%x00%B", c)
    ident, msg = fmt.split("\x00", 1)
    committer = mailmap(repo, tag, ident)
    tr = git(repo, "interpret-trailers", "--parse", inp=msg.encode())
    sob, rev = set(), set()
    for l in tr.splitlines():
        k, _, v = l.partition(":")
        k = k.strip().lower()
        if k == "signed-off-by":
            sob.add(mailmap(repo, tag, v.strip()) if "<" in v else email_of(v))
        elif k in ("acked-by", "reviewed-by"):
            rev.add(mailmap(repo, tag, v.strip()) if "<" in v else email_of(v))
    Ms = set().union(*[pm.get(s, (set(), set(), set()))[0] for s in real]) if real else set()
    Rs = set().union(*[pm.get(s, (set(), set(), set()))[1] for s in real]) if real else set()
    Ts = set().union(*[pm.get(s, (set(), set(), set()))[2] for s in real]) if real else set()
    want = {}
    if not unknown or real:
        want["coverage"] = cov  # uncovered or THE REST only is unknown then
    if not unknown:
        want["sections"] = " | ".join(sorted(real))
    if cov == "covered":
        want["committer_is_maintainer"] = "1" if committer in Ms else "0"
        want["signoff_by_maintainer"] = "1" if sob & Ms else "0"
        want["reviewed_by_listed"] = "1" if rev & (Ms | Rs) else "0"
        want["via_listed_tree"] = "1" if row["tree"] and row["tree"] in Ts else "0"
    return {k: row[k] == v for k, v in want.items()}, want


def main():
    wants_help = sys.argv[1:2] in (["-h"], ["--help"])
    if wants_help or len(sys.argv) < 3:
        print("usage: scripts/eval/check-flow.py" + __doc__.split(":")[0].removeprefix("check-flow.py"),
              file=sys.stdout if wants_help else sys.stderr)
        sys.exit(0 if wants_help else 2)
    repo, store = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    first = sys.argv[5] if len(sys.argv) > 5 else None
    last = sys.argv[6] if len(sys.argv) > 6 else None
    rows = list(csv.DictReader(io.StringIO(mev("export", "commits", "--store", store))))
    if first:
        tags = [r["release"] for r in csv.DictReader(io.StringIO(mev("releases", "--store", store)))]
        keep = set(tags[tags.index(first) + 1:tags.index(last) + 1 if last else len(tags)])
        rows = [r for r in rows if r["release"] in keep]
    random.seed(seed)
    sample = random.sample(rows, min(n, len(rows)))
    agree, total, bad = {}, {}, 0
    for row in sample:
        try:
            res, want = check(repo, row, set())
        except subprocess.CalledProcessError as e:
            print("skipped", row["commit"], e.cmd[:4], file=sys.stderr)
            continue
        ok = all(res.values())
        bad += not ok
        for k, v in res.items():
            total[k] = total.get(k, 0) + 1
            agree[k] = agree.get(k, 0) + v
        if not ok:
            print("differs", row["commit"], {k: (row[k], want[k]) for k in res if not res[k]}, flush=True)
        checked = total.get("coverage", 0)
        if checked % 25 == 0:
            print(f"... {checked - bad}/{checked} agree so far", file=sys.stderr, flush=True)
    print(f"{len(sample) - bad}/{len(sample)} commits agree in every column checked")
    for k in total:
        print(f"  {k}: {agree[k]}/{total[k]}")


if __name__ == "__main__":
    main()
