#!/usr/bin/env python3
"""Compare maintevo's clusters of imported PaStA graphs with the study's partitions.

usage: scripts/eval/check-pasta.py [--maintevo BIN] [--method M] STORE PASTA_DIR

STORE is a store made by `maintevo import-pasta` from PASTA_DIR/section_graph
and clustered (`maintevo cluster`, walktrap by default); PASTA_DIR holds
walktrap_clusters/<tag>.csv.zst (`c_representative,c_section,c_size`).  For
every release both have, prints a CSV row:

  release,sections,pasta_clusters,maintevo_clusters,identical_clusters,
  ari,sections_moved,same_representatives

identical_clusters counts clusters with exactly the same sections in both
partitions; ari is the adjusted Rand index (Hubert & Arabie 1985) over the
sections both partitions hold; sections_moved is the smallest number of
sections that would have to change cluster to turn one partition into the
other given the best cluster-to-cluster matching by overlap (a lower bound
of the work, 0 iff identical); same_representatives counts identical
clusters that also have the same representative.  A summary goes to
standard error.  Python 3 standard library only; `zstd` must be on PATH.
"""
import argparse
import csv
import io
import os
import subprocess
import sys
from collections import Counter, defaultdict


def read_zst_csv(path):
    out = subprocess.run(["zstd", "-dcq", path], check=True, capture_output=True).stdout
    return list(csv.reader(io.StringIO(out.decode("utf-8"))))


def comb2(n):
    return n * (n - 1) // 2


def ari(a, b):
    """Adjusted Rand index of two labelings (dicts item -> label) over common items."""
    items = [x for x in a if x in b]
    n = len(items)
    if n < 2:
        return 1.0
    pairs = Counter((a[x], b[x]) for x in items)
    ca = Counter(a[x] for x in items)
    cb = Counter(b[x] for x in items)
    index = sum(comb2(v) for v in pairs.values())
    sa = sum(comb2(v) for v in ca.values())
    sb = sum(comb2(v) for v in cb.values())
    expected = sa * sb / comb2(n)
    maximum = (sa + sb) / 2
    if maximum == expected:
        return 1.0
    return (index - expected) / (maximum - expected)


def moved(a, b):
    """Sections outside the best one-to-one overlap matching (greedy by overlap)."""
    pairs = Counter((a[x], b[x]) for x in a if x in b)
    used_a, used_b, kept = set(), set(), 0
    for (la, lb), w in sorted(pairs.items(), key=lambda kv: (-kv[1], kv[0])):
        if la in used_a or lb in used_b:
            continue
        used_a.add(la)
        used_b.add(lb)
        kept += w
    return sum(1 for x in a if x in b) - kept


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("store")
    ap.add_argument("pasta")
    ap.add_argument("--maintevo", default=os.path.join(os.path.dirname(__file__), "..", "..", "build", "maintevo"))
    ap.add_argument("--method", default="walktrap")
    args = ap.parse_args()

    rel = subprocess.run([args.maintevo, "releases", "--store", args.store], check=True,
                         capture_output=True, text=True).stdout
    tags = [r[0] for r in list(csv.reader(io.StringIO(rel)))[1:]]
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["release", "sections", "pasta_clusters", "maintevo_clusters", "identical_clusters",
                "ari", "sections_moved", "same_representatives"])
    total = identical_releases = 0
    aris = []
    for tag in tags:
        path = os.path.join(args.pasta, "walktrap_clusters", tag + ".csv.zst")
        if not os.path.exists(path):
            continue
        pasta = {}
        prep = {}
        for row in read_zst_csv(path)[1:]:
            pasta[row[1]] = row[0]
            prep[row[0]] = row[0]
        out = subprocess.run([args.maintevo, "clusters", "--store", args.store, "--release", tag,
                              "--method", args.method], check=True, capture_output=True, text=True).stdout
        ours = {}
        orep = {}
        for row in list(csv.reader(io.StringIO(out)))[1:]:
            ours[row[4]] = row[2]
            orep[row[2]] = row[3]
        ga, gb = defaultdict(set), defaultdict(set)
        for s, c in pasta.items():
            ga[c].add(s)
        for s, c in ours.items():
            gb[c].add(s)
        fa = {frozenset(v): k for k, v in ga.items()}
        fb = {frozenset(v): k for k, v in gb.items()}
        same = [s for s in fa if s in fb]
        same_rep = sum(1 for s in same if fa[s] == orep[fb[s]])
        a = ari(pasta, ours)
        mv = moved(pasta, ours)
        aris.append(a)
        total += 1
        identical_releases += len(same) == len(ga) == len(gb)
        w.writerow([tag, len(set(pasta) | set(ours)), len(ga), len(gb), len(same), "%.6f" % a, mv, same_rep])
    if total:
        print("%d releases: %d identical partitions; ARI min %.4f, median %.4f, mean %.4f" %
              (total, identical_releases, min(aris), sorted(aris)[len(aris) // 2], sum(aris) / len(aris)),
              file=sys.stderr)


if __name__ == "__main__":
    main()
