#!/usr/bin/env python3
"""check-layering.py [SOURCE_DIR]: fail when an #include runs against the
architecture of docs/design.md, or a file or function outgrows its limit.

Every source file belongs to a module; every module has a level.  A file may
include headers of its own module and of modules on a lower level, never of
a module on its own level or above.  src/cli may include only public headers
(include/maintevo/) and its own.  Each third-party library has one home:
git2.h in repo, pcre2.h in pattern, lmdb.h and zstd.h in store, igraph.h in
cluster, sqlite3.h in export; public headers include none of them.  Prints
one line per violation (file:line: what is wrong) and exits 1 when there is
any; 0 otherwise.

Sizes: no C file (library, command line or test) over MAX_FILE lines, no
function over MAX_FUNCTION lines (a function is counted from its name to the
'}' in column 0 that closes it).
"""
import os
import re
import sys

# (module, level, path prefixes).  A prefix ending in '/' is a folder.
MODULES = [
    ("base", 0, ["src/error.c", "src/version.c", "include/maintevo/error.h",
                 "include/maintevo/version.h", "include/maintevo/progress.h",
                 "include/maintevo/oid.h"]),
    ("util", 1, ["src/util/", "include/maintevo/suggest.h"]),
    ("store", 2, ["store/", "include/maintevo/store.h"]),
    ("table", 2, ["src/table.c", "src/table/", "include/maintevo/table.h",
                  "src/csv.c", "include/maintevo/csv.h"]),
    ("repo", 2, ["src/repo.c", "src/repo/", "include/maintevo/repo.h",
                 "include/maintevo/commit.h"]),
    ("pattern", 2, ["src/pattern.c", "src/pattern.h", "src/pattern_"]),
    ("maintainers", 3, ["src/maintainers", "src/maint_internal.h", "src/rules.c",
                        "include/maintevo/maintainers.h"]),
    ("tags", 4, ["src/tags.c", "include/maintevo/tags.h"]),
    ("match", 4, ["src/match.c", "src/match_", "include/maintevo/match.h"]),
    ("filemap", 5, ["src/filemap.c", "include/maintevo/filemap.h"]),
    ("graph", 6, ["src/graph.c", "include/maintevo/graph.h"]),
    ("release", 7, ["src/release/", "include/maintevo/release.h"]),
    ("walk", 8, ["src/walk.c", "src/walk/", "include/maintevo/walk.h"]),
    ("import", 8, ["src/import.c", "include/maintevo/import.h"]),
    ("cluster", 8, ["src/cluster/", "src/cluster.c", "src/cluster_internal.h",
                    "include/maintevo/cluster.h"]),
    ("track", 9, ["src/track/", "src/track.c", "src/track_internal.h",
                  "include/maintevo/track.h"]),
    ("history", 10, ["src/history.c", "src/history.h"]),
    ("flow", 11, ["src/flow/", "include/maintevo/flow.h"]),
    ("export", 12, ["src/export/", "src/export.c", "include/maintevo/export.h"]),
    ("report", 13, ["src/report/", "src/report.c", "src/chart.c", "src/chart.h",
                    "include/maintevo/report.h"]),
    ("cli", 14, ["src/cli/"]),
]

# Third-party headers and the one module each may appear in.
HOMES = {"git2.h": "repo", "pcre2.h": "pattern", "lmdb.h": "store",
         "zstd.h": "store", "igraph.h": "cluster", "sqlite3.h": "export"}


MAX_FILE = 800
MAX_FUNCTION = 120


def size_problems(src_dir, f):
    with open(os.path.join(src_dir, f), encoding="utf-8", errors="replace") as fh:
        lines = fh.read().split("\n")
    out = []
    if len(lines) - 1 > MAX_FILE:
        out.append(f"{f}: {len(lines) - 1} lines, more than {MAX_FILE}: split it along its seams")
    start = None
    for i, line in enumerate(lines):
        if line.startswith("{") and i > 0:
            j = i - 1
            while j > 0 and lines[j][:1] in (" ", "\t"):
                j -= 1
            start = j if re.match(r"^[A-Za-z_].*\(", lines[j]) else None
        elif line.startswith("}") and start is not None:
            n = i - start + 1
            if n > MAX_FUNCTION:
                name = lines[start].split("(")[0].split()[-1] if "(" in lines[start] else lines[start]
                out.append(f"{f}:{start + 1}: function {name} has {n} lines, more than {MAX_FUNCTION}")
            start = None
    return out


def module_of(path):
    best = None
    for name, level, prefixes in MODULES:
        for p in prefixes:
            if path == p or (path.startswith(p) and (p.endswith("/") or p.endswith("_")
                                                     or path.startswith(p + "_")
                                                     or path.startswith(p + "."))):
                if best is None or len(p) > best[2]:
                    best = (name, level, len(p))
    return best


def resolve(src_dir, including, header):
    """The repository path of a quoted include, as the build finds it."""
    for base in (os.path.dirname(including), "include", "src", "store"):
        cand = os.path.normpath(os.path.join(base, header))
        if os.path.exists(os.path.join(src_dir, cand)):
            return cand
    return None


def main():
    src_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    src_dir = os.path.abspath(src_dir)
    files = []
    for top in ("src", "store", "include"):
        for root, _, names in os.walk(os.path.join(src_dir, top)):
            for n in names:
                if n.endswith((".c", ".h")):
                    files.append(os.path.relpath(os.path.join(root, n), src_dir))
    bad = []
    tests = []
    for root, _, names in os.walk(os.path.join(src_dir, "tests")):
        tests += [os.path.relpath(os.path.join(root, n), src_dir) for n in names if n.endswith(".c")]
    for f in sorted(files + tests):
        if f.endswith(".c"):
            bad += size_problems(src_dir, f)
    inc_re = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
    for f in sorted(files):
        mine = module_of(f)
        if mine is None:
            bad.append(f"{f}: belongs to no module of docs/design.md (add it to scripts/check-layering.py)")
            continue
        with open(os.path.join(src_dir, f), encoding="utf-8", errors="replace") as fh:
            for lineno, line in enumerate(fh, 1):
                m = inc_re.match(line)
                if not m:
                    continue
                kind, header = m.groups()
                base = os.path.basename(header)
                if kind == "<":
                    home = HOMES.get(base)
                    if home and (home != mine[0] or f.startswith("include/")):
                        bad.append(f"{f}:{lineno}: <{header}> belongs in module '{home}' only"
                                   + (" (never in a public header)" if f.startswith("include/") else ""))
                    continue
                target = resolve(src_dir, f, header)
                if target is None:
                    bad.append(f"{f}:{lineno}: \"{header}\" not found")
                    continue
                theirs = module_of(target)
                if theirs is None:
                    bad.append(f"{f}:{lineno}: \"{header}\" belongs to no module")
                    continue
                if theirs[0] == mine[0]:
                    continue
                if mine[0] == "cli" and not target.startswith("include/"):
                    bad.append(f"{f}:{lineno}: the command line uses public headers only, not \"{header}\"")
                elif theirs[1] >= mine[1]:
                    bad.append(f"{f}:{lineno}: {mine[0]} (level {mine[1]}) includes \"{header}\" of "
                               f"{theirs[0]} (level {theirs[1]}): dependencies point down")
    for b in bad:
        print(b)
    if bad:
        print(f"check-layering: {len(bad)} include(s) against docs/design.md", file=sys.stderr)
        return 1
    print(f"check-layering: {len(files)} files, every include points down")
    return 0


if __name__ == "__main__":
    sys.exit(main())
