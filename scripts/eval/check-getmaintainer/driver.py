# Run a tree's own Python maintainers script on every file named on stdin
# (NUL-separated), from the tree root, and print for each file the sections
# the script selects: "path\tkey\x1ekey...", a key being the section's
# name, then its F: values, then its X: values (\x1f between them).
#
#   python3 driver.py optee|edk2|zephyr < files.z > answers.txt
#
# Only the script's own functions decide: OP-TEE's parse_maintainers() and
# get_subsystems_for_path() (after the argument's PurePath().as_posix(), as
# its main() does); edk2's parse_maintainers_file() and get_maintainers()
# (the sections come from its own get_section_maintainers(), recorded as it
# calls it, including the '<default>' fallback); Zephyr's Maintainers() and
# path2areas().  Two things are put around them: edk2's and Zephyr's
# re.match/re.compile results are cached (the script compiles each pattern
# for every file; Python's own cache holds 512), and Zephyr's self-check
# (_check_maintainers) reports its complaints on stderr instead of
# stopping, as it does in v2.5.0 and v2.6.0.  Needs python3-yaml for Zephyr
# (Debian python3-yaml; the script uses its libyaml CLoader when present).
import contextlib, importlib.util, io, os, re, sys, types

dialect = sys.argv[1]
files = [f for f in sys.stdin.buffer.read().decode("utf-8", "surrogateescape").split("\0") if f]
out = sys.stdout
sys.path.insert(0, os.getcwd())


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def caching_re():
    # the re module, with match() and compile() remembering every pattern
    shim = types.ModuleType("re")
    shim.__dict__.update(re.__dict__)
    memo = {}
    def comp(p, flags=0):
        k = (p, flags)
        if k not in memo:
            memo[k] = re.compile(p, flags)
        return memo[k]
    shim.compile = comp
    shim.match = lambda p, s, flags=0: comp(p, flags).match(s)
    shim.search = lambda p, s, flags=0: comp(p, flags).search(s)
    return shim


def emit(path, keys):
    out.write(path + "\t" + "\x1e".join(keys) + "\n")


def key(name, fs, xs):
    return "\x1f".join([name] + ["F:" + v for v in fs] + ["X:" + v for v in xs])


if dialect == "optee":
    from pathlib import PurePath
    gm = load("scripts/get_maintainer.py", "get_maintainer")
    subsystems = gm.parse_maintainers()
    for f in files:
        found = gm.get_subsystems_for_path(subsystems, PurePath(f).as_posix(), False)
        emit(f, [key(k, found[k].get("F") or [], found[k].get("X") or []) for k in found])
elif dialect == "edk2":
    sys.modules["SetupGit"] = types.ModuleType("SetupGit")  # needs GitPython; not used here
    gm = load("BaseTools/Scripts/GetMaintainer.py", "GetMaintainer")
    gm.re = caching_re()
    sections = gm.parse_maintainers_file("Maintainers.txt")
    index = {id(s): i for i, s in enumerate(sections)}
    hits = []
    own = gm.get_section_maintainers
    def recording(path, section):
        if gm.path_in_section(path, section):
            hits.append(index[id(section)])
        return own(path, section)
    gm.get_section_maintainers = recording
    for f in files:
        hits.clear()
        with contextlib.redirect_stdout(io.StringIO()):
            gm.get_maintainers(f, sections)
        emit(f, [key("", sections[i]["file"], sections[i]["exclude"]) for i in sorted(set(hits))])
elif dialect == "zephyr":
    gm = load("scripts/get_maintainer.py", "get_maintainer")
    top = os.getcwd()
    gm._git = lambda *a: top if a[:1] == ("rev-parse",) else ""
    def complain(msg):
        print("script self-check: " + msg, file=sys.stderr)
    gm._err = complain
    gm.re = caching_re()
    maint = gm.Maintainers()
    with open("MAINTAINERS.yml", encoding="utf-8") as y:
        from yaml import load as yload
        try:
            from yaml import CLoader as L
        except ImportError:
            from yaml import Loader as L
        raw = yload(y, Loader=L)
    for f in files:
        areas = maint.path2areas(f)
        emit(f, [key(a.name, (raw[a.name].get("files") or []) + (raw[a.name].get("files-regex") or []),
                     (raw[a.name].get("files-exclude") or []) + (raw[a.name].get("files-regex-exclude") or []))
                 for a in areas])
else:
    sys.exit("driver.py: unknown dialect " + dialect)
