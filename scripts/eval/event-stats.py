#!/usr/bin/env python3
"""Summarise `maintevo events` output: counts, flicker, the largest events.

usage: scripts/eval/event-stats.py [--top N] [--window W] EVENTS.csv

Prints, as text:
  - the number of rows of each event kind;
  - split/merge "flicker": rows whose two clusters (from_cluster and
    to_cluster, different representatives) are linked again by a split or
    merge within W release pairs (default 2) before or after - two
    subsystems that come together and fall apart again, the typical noise of
    clustering each release on its own;
  - the N largest events (every kind but continuation), a split or merge
    counted once with all its rows, by the largest cluster involved.
Python 3 standard library only.
"""
import argparse
import csv
from collections import Counter, defaultdict


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("events")
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--window", type=int, default=2)
    a = ap.parse_args()
    with open(a.events, newline="") as f:
        rows = list(csv.DictReader(f))
    pairs = []
    for r in rows:
        p = (r["from_release"], r["to_release"])
        if not pairs or pairs[-1] != p:
            pairs.append(p)
    index = {p: i for i, p in enumerate(pairs)}
    kinds = Counter(r["event"] for r in rows)
    print("pairs: %d, rows: %d" % (len(pairs), len(rows)))
    print("events: " + ", ".join("%s %d" % (k, kinds.get(k, 0)) for k in
                                 ["birth", "death", "continuation", "growth", "contraction", "split", "merge", "bridge"]))

    sm = [r for r in rows if r["event"] in ("split", "merge")]
    by_link = defaultdict(list)
    for r in sm:
        if r["from_cluster"] != r["to_cluster"]:
            by_link[frozenset((r["from_cluster"], r["to_cluster"]))].append(index[(r["from_release"], r["to_release"])])
    flicker = 0
    for r in sm:
        if r["from_cluster"] == r["to_cluster"]:
            continue
        i = index[(r["from_release"], r["to_release"])]
        if any(j != i and abs(j - i) <= a.window for j in by_link[frozenset((r["from_cluster"], r["to_cluster"]))]):
            flicker += 1
    cross = sum(1 for r in sm if r["from_cluster"] != r["to_cluster"])
    print("split/merge rows: %d (%d linking two different representatives, %d of them flicker within %d "
          "releases)" % (len(sm), cross, flicker, a.window))

    # structural events, grouped
    groups = defaultdict(list)
    for r in rows:
        e = r["event"]
        if e == "split":
            key = (r["from_release"], r["to_release"], e, r["from_cluster"])
        elif e == "merge":
            key = (r["from_release"], r["to_release"], e, r["to_cluster"])
        elif e in ("birth", "death"):
            key = (r["from_release"], r["to_release"], e, r["to_cluster"] or r["from_cluster"])
        elif e in ("growth", "contraction"):
            key = (r["from_release"], r["to_release"], e, r["from_cluster"] + " -> " + r["to_cluster"])
        else:
            continue
        groups[key].append(r)

    def size(rs):
        return max(max(int(r["from_lines"] or 0), int(r["to_lines"] or 0)) for r in rs)

    print("largest events but continuations (lines = largest cluster involved):")
    for key, rs in sorted(groups.items(), key=lambda kv: (-size(kv[1]), kv[0]))[:a.top]:
        fr, to, e, name = key
        if e == "split":
            what = "%s -> %s" % (name, " + ".join("%s (%s)" % (r["to_cluster"], r["to_lines"]) for r in rs))
        elif e == "merge":
            what = "%s -> %s" % (" + ".join("%s (%s)" % (r["from_cluster"], r["from_lines"]) for r in rs), name)
        elif e in ("growth", "contraction"):
            what = "%s (%s -> %s)" % (name, rs[0]["from_lines"], rs[0]["to_lines"])
        else:
            what = name
        print("  %s..%s %-11s %9d  %s" % (fr, to, e, size(rs), what))


if __name__ == "__main__":
    main()
