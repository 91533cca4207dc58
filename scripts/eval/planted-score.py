#!/usr/bin/env python3
"""Precision and recall of `maintevo track` against a planted truth.

usage: scripts/eval/planted-score.py [--quiet] TRUTH EVENTS [SECTION_CHANGES]

TRUTH is the CSV scripts/eval/make-planted-repo.py writes; EVENTS the output of
`maintevo events`, SECTION_CHANGES that of `maintevo section-changes`.  Rows
are compared exactly on (from_release, to_release, event, from, to), the
clusters named by their representatives.  Prints one CSV row per measure:

  measure,truth,reported,matched,precision,recall

  structural   births, deaths, splits and merges (the planted events)
  links        every cluster link, continuations included, with the exact
               event (growth and contraction are planted too)
  sections     sections added, removed and renamed

Every miss (in the truth, not reported) and every false event (reported,
not in the truth) is listed on standard error unless --quiet.
Exit status 0.  Python 3 standard library only.
"""
import argparse
import csv
import sys

STRUCTURAL = {"birth", "death", "split", "merge"}


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def score(name, truth, got, out, quiet):
    t, g = set(truth), set(got)
    m = t & g
    p = len(m) / len(g) if g else 1.0
    r = len(m) / len(t) if t else 1.0
    out.writerow([name, len(t), len(g), len(m), "%.4f" % p, "%.4f" % r])
    if not quiet:
        for x in sorted(t - g):
            print("%s: missed %s" % (name, ",".join(x)), file=sys.stderr)
        for x in sorted(g - t):
            print("%s: false  %s" % (name, ",".join(x)), file=sys.stderr)
    return p, r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("truth")
    ap.add_argument("events")
    ap.add_argument("sections", nargs="?")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    truth = read(a.truth)
    pairs = {(r["from_release"], r["to_release"]) for r in truth}
    tcl = [(r["from_release"], r["to_release"], r["event"], r["from"], r["to"])
           for r in truth if r["kind"] == "cluster"]
    ev = [(r["from_release"], r["to_release"], r["event"], r["from_cluster"], r["to_cluster"])
          for r in read(a.events) if (r["from_release"], r["to_release"]) in pairs]
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["measure", "truth", "reported", "matched", "precision", "recall"])
    score("structural", [x for x in tcl if x[2] in STRUCTURAL], [x for x in ev if x[2] in STRUCTURAL], out,
          a.quiet)
    score("links", tcl, ev, out, a.quiet)
    if a.sections:
        tsec = []
        for r in truth:
            if r["kind"] != "section":
                continue
            title = r["to"] if r["event"] == "added" else r["from"]
            tsec.append((r["from_release"], r["to_release"], r["event"], title,
                         r["to"] if r["event"] == "renamed" else ""))
        gsec = [(r["from_release"], r["to_release"], r["change"], r["section"], r["new_section"])
                for r in read(a.sections) if (r["from_release"], r["to_release"]) in pairs]
        score("sections", tsec, gsec, out, a.quiet)


if __name__ == "__main__":
    main()
