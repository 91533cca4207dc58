#!/usr/bin/env python3
"""How stable and how good a store's clusterings are, method by method.

usage: scripts/eval/stability.py [--maintevo BIN] [--from TAG] [--to TAG]
                            [--seeds K] [--no-run] STORE METHOD...
       scripts/eval/stability.py --self-test

METHOD is what `--method` takes (a name or a whole key), optionally with
`+smooth` appended for --smooth: walktrap louvain leiden leiden+smooth
temporal.  For each method the script (unless --no-run) runs `maintevo
cluster` then `maintevo track` on STORE and times them, then reads
`maintevo export clusters`, `maintevo releases` and `maintevo export events`
and prints one line:

  flip-back share: for consecutive releases t, t+1, t+2 and each pair of
      sections present (clustered) in all three that share a cluster in at
      least one of them, w = the smaller of the two sections' lines at t;
      churn = sum of w over pairs whose together/apart state differs
      between t and t+1; flip-back = the part of that churn whose state at
      t+2 is again the state at t; share = flip-back / churn.
  modularity ratio: per release, the method's stored modularity over the
      best modularity of independent Leiden (resolution 1) over seeds 1..K
      (K = --seeds, default 4: the reference the temporal method itself
      uses, its `reference_modularity` column), min and mean over the
      releases with edges.
  unforced: the same share without the pairs of which a section has no
      edge in one of the three releases (every method puts such a section
      alone there: its flips are the graph's, not the method's).
  split/merge: rows of split and merge events (pairs ending in range).
  cluster s, track s: wall time of the two commands (empty with --no-run).

Only releases from --from to --to (inclusive, in store order) count.
--self-test checks the flip-back share on a small example and exits.
Python 3 standard library only.
"""
import argparse
import csv
import io
import math
import subprocess
import sys
import time
from collections import defaultdict


def run(bin_, *args):
    p = subprocess.run([bin_] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit("stability.py: %s %s failed:\n%s" % (bin_, " ".join(args), p.stderr))
    return p.stdout


def table(bin_, *args):
    return list(csv.DictReader(io.StringIO(run(bin_, *args))))


def method_args(m):
    if m.endswith("+smooth"):
        return ["--method", m[:-len("+smooth")], "--smooth"]
    return ["--method", m]


def release_range(bin_, store, first, last):
    tags = [r["release"] for r in table(bin_, "releases", "--store", store)]
    lo = tags.index(first) if first else 0
    hi = tags.index(last) + 1 if last else len(tags)
    return tags[lo:hi]


def memberships(rows, tags):
    """release -> (section -> cluster, section -> lines)"""
    keep = set(tags)
    cl = defaultdict(dict)
    lines = defaultdict(dict)
    for r in rows:
        if r["release"] in keep:
            cl[r["release"]][r["section"]] = int(r["cluster"])
            lines[r["release"]][r["section"]] = int(r["section_lines"])
    return cl, lines


def connected(bin_, store, tags):
    """release -> sections with at least one edge of lines > 0 (THE REST aside)"""
    keep = set(tags)
    out = defaultdict(set)
    for r in table(bin_, "export", "edges", "--store", store):
        if r["release"] in keep and r["from"] != r["to"] and int(r["lines"]) > 0:
            out[r["release"]].add(r["from"])
            out[r["release"]].add(r["to"])
    return out


def flip_back(cl, lines, tags, linked=None):
    """(flip-back weight, churn weight) over every triple of consecutive releases;
    with `linked` (release -> sections with edges), pairs with a section
    without edges in one of the three releases are left out: every
    partition puts such a section alone there, so its flips are forced"""
    tags = [t for t in tags if t in cl]
    churn = back = 0
    for i in range(len(tags) - 2):
        a, b, c = cl[tags[i]], cl[tags[i + 1]], cl[tags[i + 2]]
        w = lines[tags[i]]
        common = [s for s in a if s in b and s in c]
        if linked is not None:
            common = [s for s in common if all(s in linked[tags[i + k]] for k in range(3))]
        # pairs together in `x`, grouped by their cluster in `y`: pairs
        # across groups changed state between x and y
        for x, y, together_at_t in ((a, b, True), (b, a, False)):
            groups = defaultdict(lambda: defaultdict(list))
            for s in common:
                groups[x[s]][y[s]].append(s)
            for parts in groups.values():
                keys = sorted(parts)
                for gi in range(len(keys)):
                    for gj in range(gi + 1, len(keys)):
                        for s in parts[keys[gi]]:
                            for u in parts[keys[gj]]:
                                wt = min(w[s], w[u])
                                churn += wt
                                # state at t: together (x = a) or apart (x = b)
                                if (c[s] == c[u]) == together_at_t:
                                    back += wt
    return back, churn


def reference(bin_, store, tags, seeds, do_run):
    best = {}
    for k in range(1, seeds + 1):
        key = "leiden:res=1:seed=%d:top=1" % k
        if do_run:
            run(bin_, "cluster", "--store", store, "--method", key, "-q")
        for r in table(bin_, "releases", "--store", store, "--method", key):
            if r["release"] in tags and r["modularity"] not in ("", "NaN", "nan"):
                q = float(r["modularity"])
                best[r["release"]] = max(best.get(r["release"], -math.inf), q)
    return best


def self_test():
    """flip_back() on hand-made releases (and a brute-force count)"""
    lines = {t: {"A": 10, "B": 20, "C": 30, "D": 40} for t in "tuvw"}
    # t: AB C D; u: A BC D; v: AB C D; w: AB C D
    cl = {"t": {"A": 1, "B": 1, "C": 2, "D": 3}, "u": {"A": 1, "B": 2, "C": 2, "D": 3},
          "v": {"A": 1, "B": 1, "C": 2, "D": 3}, "w": {"A": 5, "B": 5, "C": 6, "D": 7}}
    # (t,u,v): AB splits (10) and comes back, BC joins (20) and parts again;
    # (u,v,w): AB joins (10), BC parts (20), both stay: no flip-back
    got = flip_back(cl, lines, ["t", "u", "v", "w"])
    assert got == (30, 60), got
    linked = {t: {"A", "B", "C"} for t in "tuvw"}
    linked["u"] = {"B", "C"}  # A has no edge in u: its pairs are forced
    got = flip_back(cl, lines, ["t", "u", "v", "w"], linked)
    assert got == (20, 40), got
    print("stability.py: self-test passed")


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("store")
    ap.add_argument("methods", nargs="+")
    ap.add_argument("--maintevo", default="maintevo")
    ap.add_argument("--from", dest="first")
    ap.add_argument("--to", dest="last")
    ap.add_argument("--seeds", type=int, default=4)
    ap.add_argument("--no-run", action="store_true")
    a = ap.parse_args()
    bin_, s = a.maintevo, a.store
    tags = release_range(bin_, s, a.first, a.last)
    print("store %s: %d releases %s..%s; reference: best of independent Leiden, seeds 1..%d"
          % (s, len(tags), tags[0], tags[-1], a.seeds))
    linked = connected(bin_, s, tags)
    results = []
    for m in a.methods:
        results.append(measure(a, m, tags, linked))
    # the reference last, so that the methods' times are those of a fresh run
    ref = reference(bin_, s, set(tags), a.seeds, not a.no_run)
    print("%-22s %9s %9s %9s %10s %11s %10s %9s" % ("method", "flip-back", "unforced", "ratio-min",
                                                     "ratio-mean", "split+merge", "cluster-s", "track-s"))
    for m, (back, churn, uback, uchurn, mod, sm, tc, tt) in zip(a.methods, results):
        ratios = [mod[t] / ref[t] for t in mod if t in ref and ref[t] > 0]
        print("%-22s %9.4f %9.4f %9.4f %10.4f %11d %10s %9s" % (
            m, back / churn if churn else 0.0, uback / uchurn if uchurn else 0.0,
            min(ratios) if ratios else math.nan,
            sum(ratios) / len(ratios) if ratios else math.nan, sm,
            "%.2f" % tc if tc is not None else "", "%.2f" % tt if tt is not None else ""))


def measure(a, m, tags, linked):
    """(flip-back, churn, the same unforced, release -> modularity, split+merge rows,
    cluster s, track s)"""
    bin_, s = a.maintevo, a.store
    margs = method_args(m)
    tc = tt = None
    if not a.no_run:
        t0 = time.monotonic()
        run(bin_, "cluster", "--store", s, "-q", *margs)
        tc = time.monotonic() - t0
        t0 = time.monotonic()
        run(bin_, "track", "--store", s, "-q", *margs)
        tt = time.monotonic() - t0
    cl, lines = memberships(table(bin_, "export", "clusters", "--store", s, *margs), tags)
    back, churn = flip_back(cl, lines, tags)
    uback, uchurn = flip_back(cl, lines, tags, linked)
    mod = {}
    for r in table(bin_, "releases", "--store", s, *margs):
        if r["release"] in tags and r["modularity"] not in ("", "NaN", "nan"):
            mod[r["release"]] = float(r["modularity"])
    rows = table(bin_, "export", "events", "--store", s, *margs)
    inrange = set(tags)
    sm = sum(1 for r in rows if r["event"] in ("split", "merge") and r["from_release"] in inrange
             and r["to_release"] in inrange)
    return back, churn, uback, uchurn, mod, sm, tc, tt


if __name__ == "__main__":
    main()
