#!/usr/bin/env python3
"""Back-tests of `export listed` and `export candidates` on a project's history
(issue 39, point 6; docs/people.md says what they found).

Usage:
    people-backtest.py --listed12 L12.csv --listed24 L24.csv \\
        --sections12 S12.csv --sections24 S24.csv --candidates C.csv \\
        [--name PROJECT] [--details OUT.csv] [--candidates-all CALL.csv] [--skip TAG ...]

The inputs are maintevo's own CSV exports of one store, all releases:

    maintevo export listed          --store S --quiet-months 12 -o L12.csv
    maintevo export listed          --store S --quiet-months 24 -o L24.csv
    maintevo export listed_sections --store S --quiet-months 12 -o S12.csv
    maintevo export listed_sections --store S --quiet-months 24 -o S24.csv
    maintevo export candidates      --store S -o C.csv      # --top 3, 12 months
    maintevo export candidates      --store S --top 1000 -o CALL.csv   # optional

It prints Markdown: the headline of the newest release, the back-test of
quiet and the back-test of candidates; --details writes one row per removal
and addition it classified (to pick flags to look at by hand).

Back-test of quiet: every M:/R: entry (section, entry) listed at release i
and not at release i+1 (the next release with listed rows) while a section
of the same title is still there at i+1. A title is compared as listed.c
compares it: without the " #k" the reader gives a repeated title, so the
sections of one written title are one section. The entry's state at i (the
worst of its rows there, at 12 and at 24 months) says whether the removal
was foreseen: quiet or gone is a flag, never_seen is counted apart. Months
ahead, for a flagged removal: from the first release of the unbroken run
of releases up to i where the entry was listed there and flagged, to the
date of release i+1 (months of 30.44 days).

Not removals, counted apart: the section gone at i+1 (removed or
renamed: its people go with it), and an address change (in the same
section at i+1 a new entry with the same name, as git last saw it, or the
same local part of the address). A removal whose entry is listed in
another section at i+1 where it was not at i is counted as removed and
also reported as moved.

--skip TAG leaves a release out, so that its neighbours are compared with
each other: U-Boot's v2021.10, whose board MAINTAINERS files the reader
does not see (111 sections against 820 and 802 around it), would count
every board entry as gone with its section and back as new.

A section whose files are none at i (lines 0 in listed_sections: edk2's
Maintainers.txt had no F: lines before edk2-stable201908) can have no
activity, so its entries are left out of both back-tests (counted apart).

Back-test of candidates: every entry added to a section whose title was
there at i (address changes left out, as above): was it, by address, the
rank 1 or one of the ranks up to 3 of that section's candidates at i?
(By address: the entry, or one of the other addresses `listed` at i+1
joins to it, its other_addresses column, when the export has one.)
Additions to a section with no candidates at i (no activity by anyone
unlisted in the window) are counted apart and within the rates.

With --candidates-all (every candidate of each section: --top 1000) the
back-test of candidates is also made with the ranks counted again: as
exported (a check: the same hits as --candidates), with bots left out
(a name or address with "[bot]": edk2's mergify), and with bots left out
and commits *committed* not counted (authored + reviewed + acked: a
project's integrator commits in every section), and it says how many of
the added people had any activity at all in the section's window.

Python 3 standard library only.
"""
import argparse
import csv
import re
import statistics
import sys
import unicodedata
from collections import defaultdict

FLAGGED = ("quiet", "gone")
STATE_RANK = {"active": 0, "quiet": 1, "gone": 2, "never_seen": 3, "unknown": 4}
REPEAT = re.compile(r" #[0-9]+$")


def written(title):
    """A section title without the reader's ' #k' (activity.c, written_len)."""
    return REPEAT.sub("", title)


def norm_name(name):
    s = unicodedata.normalize("NFKD", name or "")
    s = "".join(c for c in s if not unicodedata.combining(c))
    return " ".join(s.lower().split())


def local_part(email):
    return (email or "").split("@", 1)[0].split("+", 1)[0].lower()


def months(d0, d1):
    """Months of 30.44 days between two ISO dates (YYYY-MM-DD...)."""
    from datetime import date
    a = date.fromisoformat(d0[:10])
    b = date.fromisoformat(d1[:10])
    return (b - a).days / 30.44


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


class Listed:
    """One listed export: per release, (section, entry) -> row facts."""

    def __init__(self, rows):
        self.order = []  # releases in the file's order (version order)
        self.date = {}
        self.entries = defaultdict(dict)  # rel -> (sec, entry) -> info
        for r in rows:
            rel = r["release"]
            if rel not in self.date:
                self.order.append(rel)
                self.date[rel] = r["date"]
            key = (written(r["section"]), r["entry"])
            old = self.entries[rel].get(key)
            if old is None or STATE_RANK[r["state"]] > STATE_RANK[old["state"]]:
                self.entries[rel][key] = {"state": r["state"], "name": r["name"],
                                          "email": r["email"], "role": r["role"],
                                          "last": r["last_active"],
                                          "others": [a for a in (r.get("other_addresses") or "")
                                                     .split(" | ") if a],
                                          "anywhere": r["last_active_anywhere"]}

    def state(self, rel, key):
        e = self.entries[rel].get(key)
        return e["state"] if e else None


def section_titles(rows):
    """release -> {written title: the lines its sections cover} (every
    section, with or without M:)."""
    out = defaultdict(dict)
    for r in rows:
        t = written(r["section"])
        out[r["release"]][t] = out[r["release"]].get(t, 0) + int(r["lines"])
    return out


def same_person(a, b):
    na, nb = norm_name(a["name"]), norm_name(b["name"])
    if na and na == nb:
        return True
    la, lb = local_part(a["email"]), local_part(b["email"])
    return len(la) >= 3 and la == lb


def replacement(key, info, now_entries, before_entries):
    """An entry new in the same section at i+1 that is the same person."""
    sec = key[0]
    for (s, e), inf in now_entries.items():
        if s == sec and (s, e) not in before_entries and same_person(info, inf):
            return e
    return None


def quartiles(xs):
    if not xs:
        return "n/a"
    xs = sorted(xs)
    if len(xs) < 4:
        return "median %.1f (n=%d)" % (statistics.median(xs), len(xs))
    q = statistics.quantiles(xs, n=4)
    return "median %.1f, quartiles %.1f-%.1f" % (q[1], q[0], q[2])


def pct(a, b):
    if not b:
        return "0/0"
    p = 100.0 * a / b
    return ("%d/%d (%.1f%%)" if 0 < p < 10 else "%d/%d (%.0f%%)") % (a, b, p)


def run_start(lst, key, i, titles):
    """The first release of the unbroken run of flagged releases ending at
    i (releases where the section covered no file break the run)."""
    j = i
    while (j > 0 and lst.state(lst.order[j - 1], key) in FLAGGED and
           titles[lst.order[j - 1]].get(key[0])):
        j -= 1
    return lst.order[j]


def backtest_quiet(l12, l24, titles, details):
    """Removals while the section stayed, and their states before."""
    out = {"removals": 0, "section_gone": 0, "address_changed": 0, "moved": 0, "no_files": 0,
           "by": {12: defaultdict(int), 24: defaultdict(int)},
           "ahead": {12: [], 24: []}, "active_last": [],
           "gone_by": {12: defaultdict(int), 24: defaultdict(int)},
           "base": {12: defaultdict(int), 24: defaultdict(int)},
           "base_removed": {12: defaultdict(int), 24: defaultdict(int)}}
    order = l12.order
    for i in range(len(order) - 1):
        rel, nxt = order[i], order[i + 1]
        before, after = l12.entries[rel], l12.entries[nxt]
        people_after = defaultdict(set)
        for (s, e) in after:
            people_after[e].add(s)
        for key, info in before.items():
            sec, entry = key
            stayed = sec in titles[nxt]
            if stayed and not titles[rel].get(sec):
                if key not in after:
                    out["no_files"] += 1
                continue
            if stayed:
                for n, lst in ((12, l12), (24, l24)):
                    out["base"][n][lst.state(rel, key)] += 1
            if key in after:
                continue
            if not stayed:
                out["section_gone"] += 1
                for n, lst in ((12, l12), (24, l24)):
                    out["gone_by"][n][lst.state(rel, key)] += 1
                continue
            repl = replacement(key, info, after, before)
            if repl:
                out["address_changed"] += 1
                details.append(["address_changed", rel, nxt, sec, entry, info["name"],
                                info["state"], l24.state(rel, key), repl, ""])
                continue
            out["removals"] += 1
            moved = any((s, entry) not in before for s in people_after.get(entry, ()))
            out["moved"] += moved
            row = ["removed", rel, nxt, sec, entry, info["name"]]
            for n, lst in ((12, l12), (24, l24)):
                st = lst.state(rel, key)
                out["by"][n][st] += 1
                out["base_removed"][n][st] += 1
                if st in FLAGGED:
                    out["ahead"][n].append(months(lst.date[run_start(lst, key, i, titles)], lst.date[nxt]))
                elif st == "active" and n == 12:
                    out["active_last"].append(months(info["last"], lst.date[nxt]))
                row.append(st)
            details.append(row + ["moved" if moved else "", info["last"]])
    return out


def backtest_candidates(l12, titles, cands, details):
    out = {"additions": 0, "hit1": 0, "hit3": 0, "no_candidates": 0, "address_changed": 0,
           "new_never_seen": 0, "name_only": 0, "hit_any": 0, "no_files": 0}
    order = l12.order
    for i in range(len(order) - 1):
        rel, nxt = order[i], order[i + 1]
        before, after = l12.entries[rel], l12.entries[nxt]
        for key, info in after.items():
            sec, entry = key
            if key in before or sec not in titles[rel]:
                continue
            if not titles[rel][sec]:
                out["no_files"] += 1
                continue
            if any(s == sec and (s, e) not in after and same_person(inf, info)
                   for (s, e), inf in before.items()):
                out["address_changed"] += 1
                continue
            out["additions"] += 1
            ranks = cands.get((rel, sec), {})
            found = [ranks[a] for a in [entry, info["email"]] + info["others"] if a in ranks]
            r = min(found) if found else None
            by_name = ranks.get(("name", norm_name(info["name"]))) if info["name"] else None
            if r is None and by_name is not None:
                out["name_only"] += 1
            if not ranks:
                out["no_candidates"] += 1
            if r == 1:
                out["hit1"] += 1
            if r is not None and r <= 3:
                out["hit3"] += 1
            out["hit_any"] += r is not None
            if info["state"] == "never_seen":
                out["new_never_seen"] += 1
            details.append(["added", rel, nxt, sec, entry, info["name"], info["state"],
                            "", "rank %s" % r if r else ("no candidates" if not ranks else
                                                         "miss" if by_name is None else
                                                         "name only, rank %s" % by_name),
                            info["last"]])
    return out


def candidate_ranks(rows):
    """(release, title) -> {address: rank, ("name", normalised name): rank}."""
    out = defaultdict(dict)
    for r in rows:
        key = (r["release"], written(r["section"]))
        rank = int(r["rank"])
        for k in (r["email"].lower(), ("name", norm_name(r["name"]))):
            if k not in out[key] or out[key][k] > rank:
                out[key][k] = rank
    return out


def is_bot(r):
    return "[bot]" in r["name"].lower() or "[bot]" in r["email"].lower()


def reranked(rows, weigh, keep):
    """candidate_ranks() of every candidate, ranked again by weigh(row), as
    listed.c ranks: more activity first, then the later last_active, then
    the address bytewise; rows where keep(row) is false are left out."""
    groups = defaultdict(list)
    for r in rows:
        if keep(r) and weigh(r) > 0:
            groups[(r["release"], r["section"])].append(r)
    out = []
    for key in sorted(groups):
        g = groups[key]
        g.sort(key=lambda r: r["email"].encode())
        g.sort(key=lambda r: r["last_active"], reverse=True)
        g.sort(key=weigh, reverse=True)
        for k, r in enumerate(g, 1):
            out.append(dict(r, rank=str(k)))
    return candidate_ranks(out)


def rerank_table(l12, titles, rows):
    """Hits at 1 and 3 of the candidates counted again three ways."""
    total = lambda r: int(r["activity"])
    no_commit = lambda r: int(r["authored"]) + int(r["reviewed"]) + int(r["acked"])
    anyone = lambda r: True
    human = lambda r: not is_bot(r)
    lines = ["| candidates counted as | rank 1 | ranks 1-3 | any rank |", "|---|---:|---:|---:|"]
    for label, weigh, keep in (("exported (a check)", total, anyone),
                               ("bots left out", total, human),
                               ("bots left out, *committed* not counted", no_commit, human)):
        c = backtest_candidates(l12, titles, reranked(rows, weigh, keep), [])
        a = c["additions"]
        lines.append("| %s | %s | %s | %s |" % (label, pct(c["hit1"], a), pct(c["hit3"], a),
                                              pct(c["hit_any"], a)))
    return "\n".join(lines)


def headline(l12, l24, s12, s24):
    rel = l12.order[-1]
    lines = ["| %s | `--quiet-months 12` | `--quiet-months 24` |" % rel,
             "|---|---:|---:|"]
    cols = []
    for lst, srows in ((l12, s12), (l24, s24)):
        rows = [r for r in lst.raw if r["release"] == rel]
        by = defaultdict(set)
        cnt = defaultdict(int)
        for r in rows:
            by[r["state"]].add(r["entry"])
            cnt[r["state"]] += 1
        secs = [r for r in srows if r["release"] == rel]
        with_m = [r for r in secs if int(r["maintainers"]) > 0]
        orph = [r for r in with_m if r["orphaned_in_fact"] == "1"]
        cols.append({
            "rows": len(rows),
            "addresses": len({r["entry"] for r in rows if r["state"] != "unknown"}),
            "never": "%d (%d rows)" % (len(by["never_seen"]), cnt["never_seen"]),
            "gone": "%d (%d rows)" % (len(by["gone"]), cnt["gone"]),
            "quiet": "%d (%d rows)" % (len(by["quiet"]), cnt["quiet"]),
            "active": "%d (%d rows)" % (len(by["active"]), cnt["active"]),
            "unknown": "%d (%d rows)" % (len(by["unknown"]), cnt["unknown"]),
            "with_m": len(with_m), "orph": len(orph)})
    for label, k in (("rows (section x listed entry)", "rows"),
                     ("listed addresses (distinct)", "addresses"),
                     ("never seen", "never"),
                     ("gone (nothing anywhere for N months)", "gone"),
                     ("quiet in at least one of their sections", "quiet"),
                     ("active in at least one of their sections", "active"),
                     ("unknown (handles)", "unknown"),
                     ("sections with `M:`", "with_m"),
                     ("of them orphaned in fact", "orph")):
        if k == "unknown" and cols[0][k].startswith("0 "):
            continue
        lines.append("| %s | %s | %s |" % (label, cols[0][k], cols[1][k]))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    for a in ("listed12", "listed24", "sections12", "sections24", "candidates"):
        ap.add_argument("--" + a, required=True, metavar="CSV")
    ap.add_argument("--name", default="project")
    ap.add_argument("--details", metavar="CSV", help="write every classified removal and addition")
    ap.add_argument("--skip", metavar="TAG", action="append", default=[],
                    help="leave this release out of the comparisons (repeatable)")
    ap.add_argument("--candidates-all", metavar="CSV",
                    help="export candidates --top 1000: the hits with the ranks counted again")
    o = ap.parse_args()

    raw12, raw24 = read_csv(o.listed12), read_csv(o.listed24)
    l12, l24 = Listed(raw12), Listed(raw24)
    l12.raw, l24.raw = raw12, raw24
    for lst in (l12, l24):
        lst.order = [r for r in lst.order if r not in o.skip]
    if not l12.order:
        sys.exit("%s: no listed rows (a store without MAINTAINERS, or without flow?)" % o.listed12)
    s12, s24 = read_csv(o.sections12), read_csv(o.sections24)
    titles = section_titles(s12)
    cands = candidate_ranks(read_csv(o.candidates))
    details = []
    q = backtest_quiet(l12, l24, titles, details)
    c = backtest_candidates(l12, titles, cands, details)

    print("## %s: %d releases with listed rows, %s..%s\n" % (o.name, len(l12.order),
                                                           l12.order[0], l12.order[-1]))
    print(headline(l12, l24, s12, s24))
    print("\n### Back-test of quiet\n")
    print("Entries removed while their section stayed: %d (moved to another section too: %d);"
          " not counted: %d whose section went, %d address changes, %d from a section"
          " that covered no file at the release before.\n"
          % (q["removals"], q["moved"], q["section_gone"], q["address_changed"], q["no_files"]))
    print("| state at the release before | 12 months | 24 months |")
    print("|---|---:|---:|")
    n = q["removals"]
    for st in ("quiet", "gone", "active", "never_seen", "unknown"):
        if q["by"][12][st] or q["by"][24][st]:
            print("| %s | %s | %s |" % (st, pct(q["by"][12][st], n), pct(q["by"][24][st], n)))
    f12 = sum(q["by"][12][s] for s in FLAGGED)
    f24 = sum(q["by"][24][s] for s in FLAGGED)
    print("| **flagged (quiet or gone)** | **%s** | **%s** |" % (pct(f12, n), pct(f24, n)))
    print("| months ahead (flagged) | %s | %s |" % (quartiles(q["ahead"][12]),
                                                    quartiles(q["ahead"][24])))
    print("| months from the last activity in the section to the removal, removed while active"
          " | %s | |" % quartiles(q["active_last"]))
    rate = {}
    for nm in (12, 24):
        base, rem = q["base"][nm], q["base_removed"][nm]
        fl = sum(base[s] for s in FLAGGED)
        rate[nm] = (pct(fl, sum(base.values())),
                    pct(sum(rem[s] for s in FLAGGED), fl), pct(rem["active"], base["active"]))
    print("| all entries (section stayed), flagged | %s | %s |" % (rate[12][0], rate[24][0]))
    print("| of the flagged, removed at the next release | %s | %s |" % (rate[12][1], rate[24][1]))
    print("| of the active, removed at the next release | %s | %s |" % (rate[12][2], rate[24][2]))
    g = q["section_gone"]
    print("| entries whose section went (not counted above), flagged | %s | %s |"
          % (pct(sum(q["gone_by"][12][s] for s in FLAGGED), g),
             pct(sum(q["gone_by"][24][s] for s in FLAGGED), g)))
    print("\n### Back-test of candidates\n")
    a = c["additions"]
    print("| additions to an existing section | %d |" % a)
    print("|---|---:|")
    print("| rank 1 at the release before | %s |" % pct(c["hit1"], a))
    print("| ranks 1-3 | %s |" % pct(c["hit3"], a))
    print("| section had no candidates | %s |" % pct(c["no_candidates"], a))
    wc = a - c["no_candidates"]
    print("| rank 1 / ranks 1-3, sections with candidates | %s / %s |"
          % (pct(c["hit1"], wc), pct(c["hit3"], wc)))
    print("| added person never seen at the release after | %s |" % pct(c["new_never_seen"], a))
    print("| a miss whose name (not address) is among ranks 1-3 | %s |" % pct(c["name_only"], a))
    print("| not counted: address changes; additions to a section that covered no file | %d; %d |"
          % (c["address_changed"], c["no_files"]))
    if o.candidates_all:
        print()
        print(rerank_table(l12, titles, read_csv(o.candidates_all)))
    if o.details:
        with open(o.details, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(["kind", "release", "next", "section", "entry", "name",
                        "state12", "state24", "note", "last_active"])
            w.writerows(details)


if __name__ == "__main__":
    main()
