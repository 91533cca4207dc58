#!/usr/bin/env python3
"""layering.py [SOURCE_DIR]: fail when the tree runs against the
architecture written down in docs/design.md, or a file or function outgrows
its limit.

The modules are the folders: every folder of src/ and store/ is one.  Their
order, what each may include, which third-party library each is the only
home of and which public headers (include/maintevo/) it owns are read from
the table under "## The folders" in docs/design.md, so the check and the
document cannot drift apart; a folder missing from the table, or a row
without its folder, is itself a failure.

Rules, each printed as file:line: what is wrong:
  - a module includes its own headers, those of the modules it may include
    (and of what they may include, transitively), and nothing else: no
    include upward or sideways;
  - a module's private headers (any header in its folder but its one
    <module>_shared.h; every header of util/, the base, is shared) are
    included only inside its folder, and by its own tests (those in
    tests/unit/<module>/); tests may also open store transactions
    (store/store_internal.h, store/codec.h);
  - a folder has at most one <module>_shared.h, and a test program
    tests/unit/<module>/test_<module>.c (the command line's tests are
    tests/cli/); tests/unit/<module>/ holds test_<module>.c and
    test_<module>_<part>.c, no test of another name;
  - src/cli/ includes public headers and its own only;
  - a third-party header appears only in the module the table names as its
    home, and never in a public header;
  - every public header belongs to exactly one module;
  - no C file (library, command line or test) over MAX_FILE lines, no
    function over MAX_FUNCTION lines (counted from its name to the '}' in
    column 0 that closes it).
Exits 1 when anything is wrong, 0 otherwise.
"""
import os
import re
import sys

MAX_FILE = 800
UNIT = "tests/unit"  # tests/unit/<module>/ holds the module's unit tests
MAX_FUNCTION = 120

# Third-party libraries by the headers they install; the home of each is
# the docs/design.md table's business.
LIBRARIES = {
    "libgit2": re.compile(r"^git2(\.h|/)"),
    "zlib": re.compile(r"^zlib\.h$"),
    "LMDB": re.compile(r"^lmdb\.h$"),
    "zstd": re.compile(r"^(zstd|zdict|zstd_errors)\.h$"),
    "PCRE2": re.compile(r"^pcre2\.h$"),
    "igraph": re.compile(r"^igraph(_[a-z_]+)?\.h$"),
    "SQLite": re.compile(r"^sqlite3\.h$"),
    "libyaml": re.compile(r"^yaml\.h$"),
}

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def read_design(src_dir):
    """The rows of the folders' table: {module: (order, may, homes, headers)}."""
    path = os.path.join(src_dir, "docs", "design.md")
    rows, order, in_table = {}, 0, False
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("## "):
                in_table = line.strip().lower().startswith("## the folders")
                continue
            if not in_table or not line.startswith("| `"):
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            folder = cells[0].strip("`").rstrip("/")
            module = os.path.basename(folder)
            words = lambda c: [w.strip("`, ") for w in c.replace(",", " ").split()
                               if w.strip("`, ") and w.strip("`, ") not in ("-", "—")]
            ticked = lambda c: re.findall(r"`([^`]+)`", c)
            may = [w.rstrip("/").split("/")[-1] for w in ticked(cells[2])]
            homes = words(cells[3])
            headers = [os.path.basename(w) for w in ticked(cells[4])]
            rows[module] = (order, folder, may, homes, headers)
            order += 1
    return rows


def closure(rows, module):
    seen, todo = set(), list(rows[module][2])
    while todo:
        m = todo.pop()
        if m in seen or m not in rows:
            continue
        seen.add(m)
        todo += rows[m][2]
    return seen


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


def files_under(src_dir, top, ends):
    out = []
    for root, _, names in os.walk(os.path.join(src_dir, top)):
        out += [os.path.relpath(os.path.join(root, n), src_dir) for n in names if n.endswith(ends)]
    return sorted(out)


def unit_test_module(path):
    """The module whose folder of unit tests holds path (tests/unit/<module>/...), or None."""
    parts = path.split("/")
    if path.startswith(UNIT + "/") and len(parts) > 3:
        return parts[2]
    return None


def misplaced_tests(tests, folders):
    """A unit test program outside the folder of its module: under tests/unit/<module>/
    only test_<module>.c and test_<module>_<part>.c; tests/unit/ itself holds the tests
    of the whole library (test_scale.c) and shared headers."""
    out = []
    for f in tests:
        base, m = os.path.basename(f), unit_test_module(f)
        if not (base.startswith("test_") and base.endswith(".c")):
            continue
        if m is not None:
            if m not in folders or m == "cli":
                out.append(f"{f}: {UNIT}/{m}/ is no module's folder of tests")
            elif not (base == f"test_{m}.c" or base.startswith(f"test_{m}_")):
                out.append(f"{f}: a test in {UNIT}/{m}/ is named test_{m}.c or test_{m}_<part>.c")
        elif os.path.dirname(f) != UNIT:
            out.append(f"{f}: unit tests go to {UNIT}/<module>/ (tests/CMakeLists.txt builds only those)")
    return out


def main():
    if len(sys.argv) > 2 or sys.argv[1:] in (["-h"], ["--help"]):
        print("usage: scripts/dev/layering.py [SOURCE_DIR]")
        return 0 if len(sys.argv) == 2 else 2
    src_dir = os.path.abspath(sys.argv[1] if len(sys.argv) > 1
                              else os.path.join(os.path.dirname(__file__), "..", ".."))
    rows = read_design(src_dir)
    bad = []
    if not rows:
        print("docs/design.md: no table under '## The folders'")
        return 1

    # The modules are the folders.
    folders = {"store": "store"}
    for n in sorted(os.listdir(os.path.join(src_dir, "src"))):
        if os.path.isdir(os.path.join(src_dir, "src", n)):
            folders[n] = f"src/{n}"
    for m, folder in folders.items():
        if m not in rows:
            bad.append(f"{folder}/: a folder that docs/design.md's table of folders does not name")
        elif rows[m][1] != folder:
            bad.append(f"docs/design.md: module '{m}' is the folder {folder}/, not {rows[m][1]}/")
    for m, row in rows.items():
        if m not in folders:
            bad.append(f"docs/design.md: the row of {row[1]}/ names a folder that does not exist")
        for d in row[2]:
            if d not in rows:
                bad.append(f"docs/design.md: {row[1]}/ may include '{d}', which is no folder of the table")
            elif rows[d][0] >= row[0] and d != m:
                bad.append(f"docs/design.md: {row[1]}/ may include {rows[d][1]}/, which stands above it")
    home = {}
    for m, row in rows.items():
        for lib in row[3]:
            if lib not in LIBRARIES:
                bad.append(f"docs/design.md: {row[1]}/ is the home of '{lib}', a library this check does not know")
            elif lib in home:
                bad.append(f"docs/design.md: '{lib}' has two homes, {home[lib]} and {m}")
            else:
                home[lib] = m
    owner = {}
    for m, row in rows.items():
        for h in row[4]:
            if h in owner:
                bad.append(f"docs/design.md: include/maintevo/{h} belongs to {owner[h]} and {m}")
            owner[h] = m
    public = files_under(src_dir, "include", ".h")
    for p in public:
        if os.path.basename(p) not in owner:
            bad.append(f"{p}: a public header no module of docs/design.md owns")
    for m, folder in folders.items():
        if m != "cli" and not os.path.exists(os.path.join(src_dir, UNIT, m, f"test_{m}.c")):
            bad.append(f"{folder}/: no {UNIT}/{m}/test_{m}.c (tests mirror the modules: one program per folder)")
        shared = [f for f in os.listdir(os.path.join(src_dir, folder)) if f.endswith("_shared.h")]
        if len(shared) > 1:
            bad.append(f"{folder}/: more than one shared header ({', '.join(sorted(shared))})")

    def module_of(path):
        if path.startswith("include/"):
            return owner.get(os.path.basename(path))
        parts = path.split("/")
        if parts[0] == "store":
            return "store"
        if parts[0] == "src" and len(parts) > 2:
            return parts[1]
        return None

    def private(path, m):
        name = os.path.basename(path)
        return not path.startswith("include/") and m != "util" and name != f"{m}_shared.h"

    def resolve(including, header):
        shared_tests = (UNIT,) if including.startswith("tests/") else ()
        for base in (os.path.dirname(including), *shared_tests, "include", "src", "store"):
            cand = os.path.normpath(os.path.join(base, header))
            if os.path.exists(os.path.join(src_dir, cand)):
                return cand
        return None

    library = files_under(src_dir, "src", (".c", ".h")) + files_under(src_dir, "store", (".c", ".h"))
    tests = files_under(src_dir, "tests", (".c", ".h"))
    bad += misplaced_tests(tests, folders)
    for f in library + tests:
        if f.endswith(".c"):
            bad += size_problems(src_dir, f)

    for f in library + public + tests:
        mine = module_of(f)
        if mine is None and not f.startswith("tests/"):
            continue  # reported above: a public header no module owns
        test_of = unit_test_module(f)
        with open(os.path.join(src_dir, f), encoding="utf-8", errors="replace") as fh:
            for lineno, line in enumerate(fh, 1):
                mt = INCLUDE.match(line)
                if not mt:
                    continue
                kind, header = mt.groups()
                where = f"{f}:{lineno}"
                if kind == "<":
                    for lib, pat in LIBRARIES.items():
                        if pat.search(header):
                            if f.startswith("include/"):
                                bad.append(f"{where}: <{header}> ({lib}) in a public header")
                            elif not f.startswith("tests/") and home.get(lib) != mine:
                                bad.append(f"{where}: <{header}> belongs in {home.get(lib, 'no module')}/ only ({lib})")
                    continue
                target = resolve(f, header)
                if target is None:
                    bad.append(f"{where}: \"{header}\" not found")
                    continue
                theirs = module_of(target)
                if target.startswith("tests/"):
                    continue
                if theirs is None:
                    bad.append(f"{where}: \"{header}\" belongs to no module")
                    continue
                if f.startswith("tests/"):
                    if private(target, theirs) and theirs != test_of and theirs != "store":
                        bad.append(f"{where}: \"{header}\" is private to {rows[theirs][1]}/; "
                                   f"only its own tests ({UNIT}/{theirs}/) include it")
                    continue
                if theirs == mine:
                    continue
                if mine == "cli" and not target.startswith("include/"):
                    bad.append(f"{where}: the command line uses public headers only, not \"{header}\"")
                elif private(target, theirs):
                    bad.append(f"{where}: \"{header}\" is private to {rows[theirs][1]}/: declare what "
                               f"{mine} needs in include/maintevo/ or {rows[theirs][1]}/{theirs}_shared.h")
                elif mine != "cli" and theirs not in closure(rows, mine):
                    bad.append(f"{where}: {mine} includes \"{header}\" of {theirs}, which docs/design.md "
                               f"does not let it include: dependencies point down")
    for b in bad:
        print(b)
    if bad:
        print(f"layering: {len(bad)} problem(s) against docs/design.md", file=sys.stderr)
        return 1
    print(f"layering: {len(folders)} modules, {len(library) + len(public)} files, "
          f"every include points down")
    return 0


if __name__ == "__main__":
    sys.exit(main())
