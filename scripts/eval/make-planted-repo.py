#!/usr/bin/env python3
"""Build a kernel-like git history with planted subsystem events, and its truth.

usage: scripts/eval/make-planted-repo.py [--seed N] [--releases R] [--groups G]
                                    [--events E] [--quiet Q] [--vanish V]
                                    [--straddle S] [--identical-last]
                                    [--truth FILE] DIR

Writes a git repository in DIR (tags v1.0 .. v1.<R-1>, one day apart, fixed
identities: the same seed gives the same commit ids) whose MAINTAINERS
describes subsystems built to be unambiguous for a clustering of the
overlap graph: a subsystem is a lead section (its representative, the
largest) and member sections, all of them covering the subsystem's core
directories, so they share code with each other and with nothing outside.
A few standalone sections (one of them covering no file) and THE REST
complete the file.  Between releases every file may change a little (at
most a few percent of a subsystem's lines) and E of these events are
planted, each on subsystems no other event of that release touches:

  birth        a new subsystem (new directories, new sections)
  death        a subsystem and its files go away
  split        half of the members leave with a new lead and a new core
               (more of them when those hold less than a fifth of its lines)
  merge        two subsystems share their cores from now on; the larger
               lead stays the representative, the other lead becomes a member
  growth       a subsystem gains about half its lines in new files
  contraction  a subsystem loses about 40% of its lines
  rename       a section of a continuing subsystem changes its title (its
               lead, sometimes: the representative changes name)
  absorption   one of the small subsystems (a lead and one member, about a
               twentieth of a normal one) is taken in by a large one: its
               sections cover the large one's cores from now on - a merge
               whose small side Jaccard alone cannot see
  reorg        a rename with reorganisation: a subsystem's lead section
               changes its title and takes over the directory of one of
               its members, whose section goes away (the cluster continues
               under the new name; the section changes are a rename and a
               removal)

Besides, --quiet Q releases (default 1 when there are 5 releases or more)
plant no event at all: only the usual small file changes, so only
continuations may be reported there.  And --vanish V releases (default 1
when there are 6 releases or more) hide one subsystem after their events:
its sections are missing from that release's MAINTAINERS (its files stay,
covered by THE REST only) and are back in the next one, as U-Boot v2021.10
lost its board sections for one release.  `maintevo track` (--gap 1, the
default) should bridge the gap: no death and no birth, but one event
"bridge" from the release before the gap to the one after it (truth row
kind cluster, event bridge, from_release and to_release those two
releases).  And --straddle S releases (default 1 from 6 releases on) add
after their events a tiny section (two files) over two subsystems: one file
of each one's core.  It is a section that shares code, not a subsystem: the
truth has its "added" row and no cluster row (no birth).

The truth goes to FILE (default DIR/planted-truth.csv, not part of the
history) as CSV

  kind,from_release,to_release,event,from,to

kind "cluster" rows are the links `maintevo track` should report (event
birth, death, split, merge, growth, contraction, continuation or bridge; from/to
are representatives, empty for the missing side), kind "section" rows the
section changes (added, removed, renamed; from/to are titles).
`scripts/eval/planted-score.py` compares them with maintevo's output.
With --identical-last the last release repeats the one before it exactly
(its tag points at a commit with the same tree): only continuations may
come out of that pair.  Python 3 standard library and git only.
"""
import argparse
import os
import random
import subprocess
import sys

WORDS = ["ACME", "BOREAL", "CYGNUS", "DELTA", "ELBRUS", "FALCON", "GARNET", "HELIX", "IRIS",
         "JUNO", "KESTREL", "LYNX", "MISTRAL", "NOVA", "ONYX", "PULSAR", "QUASAR", "RAVEN",
         "SIRIUS", "TITAN", "UMBRA", "VEGA", "WREN", "XENON", "YUKON", "ZEPHYR", "AURORA",
         "BASALT", "COBALT", "DUNE", "EMBER", "FJORD", "GLACIER", "HARBOR", "INDIGO", "JASPER"]
DOMAINS = ["NETWORK", "SOUND", "STORAGE", "VIDEO", "POWER", "CLOCK", "GPIO", "CRYPTO", "SENSOR",
           "DISPLAY", "SERIAL", "THERMAL", "INPUT", "CAMERA", "MODEM", "DMA"]
ROLES = ["DRIVER", "BINDINGS", "FIRMWARE", "TOOLS", "TESTS", "PHY", "BUS", "CORE LIBRARY",
         "PLATFORM", "DEBUGFS", "TRACING", "QUIRKS"]


class Planter:
    def __init__(self, seed, groups):
        self.rng = random.Random(seed)
        self.files = {}          # path -> lines
        self.next_name = 0
        self.names = [(w, d) for w in WORDS for d in DOMAINS]
        self.rng.shuffle(self.names)
        self.groups = []         # dicts: name, slug, lead, members, cores
        self.standalone = []     # (title, dir or None)
        self.dirs_used = set()
        for _ in range(groups):
            self.groups.append(self.new_group())
        for _ in range(max(1, groups // 6)):
            self.groups.append(self.new_small_group())
        for i in range(3):
            t = "%s STANDALONE %s" % (WORDS[(seed + i) % len(WORDS)], ROLES[i])
            d = "lib/standalone%d" % i
            self.add_files(d, self.rng.randint(2, 4), 80, 300)
            self.standalone.append((t, d))
        self.standalone.append(("EMPTY PLACEHOLDER SECTION", None))  # covers no file
        self.straddlers = []     # (title, [file, file]): tiny sections over two subsystems
        for p in ["Makefile", "README", "COPYING", "Kconfig"]:
            self.files[p] = self.rng.randint(20, 200)
        self.add_files("tools/misc", 5, 50, 200)  # only THE REST covers these

    # -- building blocks ---------------------------------------------------
    def fresh_name(self):
        w, d = self.names[self.next_name % len(self.names)]
        self.next_name += 1
        return "%s %s" % (w, d), ("%s_%s" % (w, d)).lower()

    def add_files(self, d, n, lo, hi):
        for _ in range(n):
            k = 0
            while "%s/f%d.c" % (d, k) in self.files:
                k += 1
            self.files["%s/f%d.c" % (d, k)] = self.rng.randint(lo, hi)

    def new_dir(self, d, n, lo, hi):
        assert d not in self.dirs_used, d
        self.dirs_used.add(d)
        self.add_files(d, n, lo, hi)
        return d

    def new_group(self):
        name, slug = self.fresh_name()
        base = "drivers/" + slug
        core = self.new_dir(base + "/core", self.rng.randint(3, 5), 100, 300)
        main = self.new_dir(base + "/main", self.rng.randint(4, 8), 200, 600)
        members = []
        roles = self.rng.sample(ROLES, self.rng.randint(3, 5))
        for r in roles:
            d = self.new_dir("%s/%s" % (base, r.lower().replace(" ", "_")), self.rng.randint(2, 5), 60, 400)
            members.append(["%s %s" % (name, r), d])
        return {"name": name, "slug": slug, "lead": [name + " SUBSYSTEM", main],
                "members": members, "cores": [core]}

    def new_small_group(self):
        # a lead and one member over a few small files: absorbed, not merged
        name, slug = self.fresh_name()
        base = "drivers/" + slug
        core = self.new_dir(base + "/core", 2, 20, 60)
        main = self.new_dir(base + "/main", 2, 30, 80)
        d = self.new_dir(base + "/driver", 2, 20, 60)
        return {"name": name, "slug": slug, "lead": [name + " SUBSYSTEM", main],
                "members": [["%s DRIVER" % name, d]], "cores": [core], "small": True}

    def dir_lines(self, d):
        return sum(v for p, v in self.files.items() if p.startswith(d + "/"))

    def split_point(self, g):
        # the members from here on leave: half of them, and more (all but
        # one at most) until they hold a fifth of the subsystem's lines.  A
        # part of less than a tenth is no split by the tracker's definition
        # (Jaccard >= --link 0.1, Greene et al.) but a birth with some old
        # code, and half of the members by count can be that little next to
        # the lead's own directory (seeds 8 and 14: 9% and 8%)
        half = len(g["members"]) // 2
        total = self.group_lines(g)
        while half > 1 and sum(self.dir_lines(m[1]) for m in g["members"][half:]) < 0.2 * total:
            half -= 1
        return half

    def group_lines(self, g):
        dirs = self.group_dirs(g)
        return sum(v for p, v in self.files.items() if any(p.startswith(d + "/") for d in dirs))

    def group_dirs(self, g):
        return [g["lead"][1]] + [m[1] for m in g["members"]] + g["cores"] + g.get("extra", [])

    # -- MAINTAINERS ---------------------------------------------------------
    def maintainers(self):
        secs = []
        for g in self.groups:
            if g.get("hidden"):
                continue
            lead, main = g["lead"]
            pats = sorted(set([main] + [m[1] for m in g["members"]] + g["cores"] + g.get("extra", [])))
            secs.append((lead, pats))
            for title, d in g["members"]:
                secs.append((title, sorted(set([d] + g["cores"]))))
        for title, d in self.standalone:
            secs.append((title, [d] if d else ["drivers/placeholder/nothing-here.c"]))
        for title, files in self.straddlers:
            secs.append((title, files))
        secs.sort()
        out = ["List of maintainers (planted history)", "=====================================", "",
               "Descriptions of section entries:", "", "\tM: Mail patches to", "\tF: Files and directories", ""]
        for i, (title, pats) in enumerate(secs):
            out.append(title)
            out.append("M:\tMaintainer %d <m%d@example.org>" % (i, i))
            out.append("L:\tlist%d@example.org" % (i % 7))
            out.append("S:\tMaintained")
            for p in pats:
                out.append("F:\t%s%s" % (p, "" if p.endswith(".c") else "/"))
            out.append("")
        out += ["THE REST", "M:\tLinus <l@example.org>", "S:\tBuried alive in reporters", "F:\t*", "F:\t*/", ""]
        return "\n".join(out)

    def reps(self):
        return {id(g): g["lead"][0] for g in self.groups}

    def titles(self):
        t = set()
        for g in self.groups:
            if g.get("hidden"):
                continue
            t.add(g["lead"][0])
            t.update(m[0] for m in g["members"])
        t.update(s[0] for s in self.standalone)
        t.update(s[0] for s in self.straddlers)
        return t

    # -- one release's changes -----------------------------------------------
    def noise(self):
        for p in list(self.files):
            if p.startswith("drivers/") and self.rng.random() < 0.15:
                v = self.files[p]
                self.files[p] = max(1, v + self.rng.randint(-v // 40 - 1, v // 40 + 1))

    def merge_into(self, a, b, busy, events):
        # b's lead becomes a member of a; everybody shares all cores
        a["members"] = a["members"] + [b["lead"]] + b["members"]
        a["cores"] = a["cores"] + b["cores"]
        self.groups.remove(b)
        busy.update([id(a), id(b)])
        events.append(("merge", None, [a], [a, b]))

    def hide(self, rng, frm, to, truth):
        # after this release's events: one subsystem no event touched loses
        # its sections for one release (its continuation row goes)
        def row(g):
            return ("cluster", frm, to, "continuation", g["lead"][0], g["lead"][0])
        cand = [g for g in self.groups if not g.get("small") and row(g) in truth]
        if not cand:
            return
        g = rng.choice(cand)
        truth.remove(row(g))
        g["hidden"] = frm

    def straddle(self, rng, frm, to, truth):
        # a tiny section over one file of each of two subsystems no event
        # touched: a section that shares code, not a subsystem (no cluster row)
        cand = [g for g in self.groups if not g.get("small") and not g.get("hidden") and
                ("cluster", frm, to, "continuation", g["lead"][0], g["lead"][0]) in truth]
        if len(cand) < 2:
            return
        a, b = rng.sample(cand, 2)
        files = [min(p for p in self.files if p.startswith(g["cores"][0] + "/")) for g in (a, b)]
        self.straddlers.append(("%s/%s GLUE HELPERS" % (a["name"], b["name"].split()[0]), files))

    def unhide(self, frm, to, truth, busy, handled):
        # the hidden subsystem is back: one bridge over the gap
        for g in self.groups:
            if g.get("hidden"):
                truth.append(("cluster", g["hidden"], to, "bridge", g["lead"][0], g["lead"][0]))
                del g["hidden"]
                busy.add(id(g))
                handled.add(id(g))

    def empty_straddlers(self):
        return {t for t, files in self.straddlers if not any(f in self.files for f in files)}

    def plant(self, n_events, frm, to, truth):
        busy = set()
        handled = set()
        empty_before = self.empty_straddlers()
        self.unhide(frm, to, truth, busy, handled)
        reps_before = {id(g): g["lead"][0] for g in self.groups}
        events = []
        kinds = ["birth", "death", "split", "merge", "growth", "contraction", "rename", "absorption",
                 "reorg"]
        for _ in range(n_events):
            for _try in range(20):
                k = self.rng.choice(kinds)
                free = [g for g in self.groups if id(g) not in busy and not g.get("small")]
                small = [g for g in self.groups if id(g) not in busy and g.get("small")]
                if k == "birth":
                    g = self.new_group()
                    busy.add(id(g))
                    self.groups.append(g)
                    events.append(("birth", None, [g]))
                    break
                if k == "death" and len(free) >= 1 and len(self.groups) > 6:
                    g = self.rng.choice(free)
                    busy.add(id(g))
                    for d in self.group_dirs(g):
                        for p in [p for p in self.files if p.startswith(d + "/")]:
                            del self.files[p]
                    self.groups.remove(g)
                    events.append(("death", g, []))
                    break
                if k == "split":
                    cand = [g for g in free if len(g["members"]) >= 4]
                    if not cand:
                        continue
                    g = self.rng.choice(cand)
                    half = self.split_point(g)
                    name, slug = self.fresh_name()
                    base = "drivers/" + slug
                    core = self.new_dir(base + "/core", self.rng.randint(3, 5), 100, 300)
                    main = self.new_dir(base + "/main", self.rng.randint(4, 8), 200, 600)
                    g2 = {"name": name, "slug": slug, "lead": [name + " SUBSYSTEM", main],
                          "members": g["members"][half:], "cores": [core]}
                    g["members"] = g["members"][:half]
                    self.groups.append(g2)
                    busy.update([id(g), id(g2)])
                    events.append(("split", g, [g, g2]))
                    break
                if k == "merge" and len(free) >= 2:
                    a, b = self.rng.sample(free, 2)
                    if self.group_lines(a) < self.group_lines(b):
                        a, b = b, a
                    self.merge_into(a, b, busy, events)
                    break
                if k in ("growth", "contraction") and free:
                    g = self.rng.choice(free)
                    busy.add(id(g))
                    total = self.group_lines(g)
                    if k == "growth":
                        target = total // 2
                        while target > 0:
                            m = self.rng.choice(g["members"] + [g["lead"]])
                            before = sum(self.files.values())
                            self.add_files(m[1], 1, 100, 500)
                            target -= sum(self.files.values()) - before
                    else:
                        # shrink every file of the subsystem's members and lead to 55%
                        for d in [g["lead"][1]] + [m[1] for m in g["members"]]:
                            for p in [p for p in self.files if p.startswith(d + "/")]:
                                self.files[p] = max(1, self.files[p] * 55 // 100)
                    events.append((k, g, [g]))
                    break
                if k == "absorption" and small and free:
                    b = self.rng.choice(small)
                    a = self.rng.choice(free)
                    self.merge_into(a, b, busy, events)
                    break
                if k == "reorg":
                    cand = [g for g in free if len(g["members"]) >= 3]
                    if not cand:
                        continue
                    g = self.rng.choice(cand)
                    busy.add(id(g))
                    gone = g["members"].pop(self.rng.randrange(len(g["members"])))
                    old = g["lead"][0]
                    g["lead"][0] = "%s PLATFORM (REORGANISED %s)" % (g["name"], to.upper().replace(".", "_"))
                    g["extra"] = g.get("extra", []) + [gone[1]]
                    truth.append(("section", frm, to, "renamed", old, g["lead"][0]))
                    events.append(("rename", g, [g]))
                    break
                if k == "rename" and free:
                    g = self.rng.choice(free)
                    busy.add(id(g))
                    sec = g["lead"] if self.rng.random() < 0.4 else self.rng.choice(g["members"])
                    old = sec[0]
                    sec[0] = old + " (RENAMED %s)" % to.upper().replace(".", "_")
                    truth.append(("section", frm, to, "renamed", old, sec[0]))
                    events.append(("rename", g, [g]))
                    break
        # cluster truth: every group before links to its successors
        reps_after = {id(g): g["lead"][0] for g in self.groups}
        for ev in events:
            k = ev[0]
            if k == "birth":
                truth.append(("cluster", frm, to, "birth", "", reps_after[id(ev[2][0])]))
                handled.add(id(ev[2][0]))
            elif k == "death":
                truth.append(("cluster", frm, to, "death", reps_before[id(ev[1])], ""))
            elif k == "split":
                g, parts = ev[1], ev[2]
                for p in parts:
                    truth.append(("cluster", frm, to, "split", reps_before[id(g)], reps_after[id(p)]))
                    handled.add(id(p))
            elif k == "merge":
                a, srcs = ev[2][0], ev[3]
                for s in srcs:
                    truth.append(("cluster", frm, to, "merge", reps_before[id(s)], reps_after[id(a)]))
                handled.add(id(a))
            elif k in ("growth", "contraction"):
                g = ev[1]
                truth.append(("cluster", frm, to, k, reps_before[id(g)], reps_after[id(g)]))
                handled.add(id(g))
        for g in self.groups:
            if id(g) not in handled:
                truth.append(("cluster", frm, to, "continuation", reps_before[id(g)], reps_after[id(g)]))
        for title, _ in self.standalone:
            truth.append(("cluster", frm, to, "continuation", title, title))
        # a straddler whose files are all gone is a cluster of its own that
        # covers no code: no birth when it is left alone, then it continues
        for title in sorted(empty_before & self.empty_straddlers()):
            truth.append(("cluster", frm, to, "continuation", title, title))
        return events


def main():
    ap = argparse.ArgumentParser(description="planted-event git history generator")
    ap.add_argument("dir")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--releases", type=int, default=10)
    ap.add_argument("--groups", type=int, default=16)
    ap.add_argument("--events", type=int, default=3)
    ap.add_argument("--identical-last", action="store_true")
    ap.add_argument("--quiet", type=int, default=None)
    ap.add_argument("--vanish", type=int, default=None)
    ap.add_argument("--straddle", type=int, default=None)
    ap.add_argument("--truth")
    a = ap.parse_args()
    if a.releases < 2:
        sys.exit("make-planted-repo.py: error: --releases must be at least 2")
    if os.path.exists(a.dir) and os.listdir(a.dir):
        sys.exit("make-planted-repo.py: error: '%s' exists and is not empty (remove it first)" % a.dir)
    os.makedirs(a.dir, exist_ok=True)
    truth_path = a.truth or os.path.join(a.dir, "planted-truth.csv")

    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null", HOME="/nonexistent",
               TZ="UTC", LC_ALL="C")
    subprocess.run(["git", "-c", "init.defaultBranch=master", "init", "-q", a.dir], check=True, env=env)

    pl = Planter(a.seed, a.groups)
    truth = []
    stream = []
    marks = {}       # (path, lines) -> mark
    next_mark = [1]
    t0 = 1577880000
    tags = ["v1.%d" % i for i in range(a.releases)]

    def blob(path, lines):
        key = (path, lines)
        if key not in marks:
            body = "/* %s */\n" % path + "".join("x%d\n" % i for i in range(lines - 1))
            data = body.encode()
            marks[key] = next_mark[0]
            stream.append(b"blob\nmark :%d\ndata %d\n%s\n" % (next_mark[0], len(data), data))
            next_mark[0] += 1
        return marks[key]

    def commit(i, tag, maint):
        files = dict(pl.files)
        mdata = maint.encode()
        lines = [b"commit refs/heads/master\n",
                 b"committer Planted Bot <planted@example.org> %d +0000\n" % (t0 + 86400 * i),
                 b"data %d\nrelease %s\n" % (len(("release %s" % tag).encode()) + 1, tag.encode())]
        body = []
        for p in sorted(files):
            m = blob(p, files[p])
            body.append(b"M 100644 :%d %s\n" % (m, p.encode()))
        mm = next_mark[0]
        next_mark[0] += 1
        stream.append(b"blob\nmark :%d\ndata %d\n%s\n" % (mm, len(mdata), mdata))
        stream.extend(lines)
        stream.append(b"deleteall\n")
        stream.extend(body)
        stream.append(b"M 100644 :%d MAINTAINERS\n\n" % mm)
        stream.append(b"tag %s\nfrom refs/heads/master\ntagger Planted Bot <planted@example.org> %d +0000\n"
                      b"data %d\nrelease %s\n\n" % (tag.encode(), t0 + 86400 * i,
                                                    len(("release %s" % tag).encode()) + 1, tag.encode()))

    last_real = a.releases - (1 if a.identical_last else 0)
    nquiet = a.quiet if a.quiet is not None else (1 if a.releases >= 5 else 0)
    qrng = random.Random(a.seed * 7919 + 1)
    quiet = set(qrng.sample(range(2, last_real), min(nquiet, max(0, last_real - 2))))
    # a gap of one release: hidden after the events of release i, back in i + 1
    # (an eventful release, not the last one), drawn apart from the events
    vrng = random.Random(a.seed * 104729 + 3)
    nvanish = a.vanish if a.vanish is not None else (1 if a.releases >= 6 else 0)
    spots = [i for i in range(2, last_real - 1) if i not in quiet and i + 1 not in quiet]
    vanish = set(vrng.sample(spots, min(nvanish, len(spots))))
    # tiny sections over two subsystems, added after the events of releases
    # drawn apart from the events too
    srng = random.Random(a.seed * 7727 + 5)
    nstraddle = a.straddle if a.straddle is not None else (1 if a.releases >= 6 else 0)
    sspots = [i for i in range(1, last_real) if i not in quiet]
    straddle = set(srng.sample(sspots, min(nstraddle, len(sspots))))
    for i, tag in enumerate(tags):
        if i == 0:
            commit(0, tag, pl.maintainers())
            continue
        frm = tags[i - 1]
        if i >= last_real:
            # identical release: same tree, only continuations expected
            for t in [g["lead"][0] for g in pl.groups] + [s[0] for s in pl.standalone]:
                truth.append(("cluster", frm, tag, "continuation", t, t))
            commit(i, tag, pl.maintainers())
            continue
        before = pl.titles()
        pl.noise()
        pl.plant(0 if i in quiet else a.events, frm, tag, truth)
        if i in vanish:
            pl.hide(vrng, frm, tag, truth)
        if i in straddle:
            pl.straddle(srng, frm, tag, truth)
        after = pl.titles()
        renamed_old = {r[4] for r in truth if r[0] == "section" and r[2] == tag and r[3] == "renamed"}
        renamed_new = {r[5] for r in truth if r[0] == "section" and r[2] == tag and r[3] == "renamed"}
        for t in sorted(before - after - renamed_old):
            truth.append(("section", frm, tag, "removed", t, ""))
        for t in sorted(after - before - renamed_new):
            truth.append(("section", frm, tag, "added", "", t))
        commit(i, tag, pl.maintainers())

    p = subprocess.run(["git", "-C", a.dir, "fast-import", "--quiet"], input=b"".join(stream), env=env)
    if p.returncode:
        sys.exit("make-planted-repo.py: error: git fast-import failed")
    subprocess.run(["git", "-C", a.dir, "checkout", "-q", "-f", "master"], check=True, env=env)
    with open(truth_path, "w") as f:
        f.write("kind,from_release,to_release,event,from,to\n")
        for r in truth:
            f.write(",".join('"%s"' % x.replace('"', '""') if ("," in x or '"' in x) else x for x in r) + "\n")
    n_cl = sum(1 for r in truth if r[0] == "cluster" and r[3] not in ("continuation",))
    print("%s: %d releases, %d planted cluster events (rows), truth in %s" % (a.dir, a.releases, n_cl, truth_path))


if __name__ == "__main__":
    main()
