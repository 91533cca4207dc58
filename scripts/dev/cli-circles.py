#!/usr/bin/env python3
"""cli-circles.py [SOURCE_DIR]: fail when files of src/cli/ lean on each other in a circle.

A file A.c leans on B.c when A.c uses a function or object that a header
of src/cli/ declares (A.c includes it) and B.c defines.  Prints every
such edge when asked (-v), the headers that include each other, and each
circle (a strongly connected set of two or more files, with the names
that tie them); exits 1 when there is one.  Shared helpers go to files of
their own (help.c, tables.c, common.c, ...), never into a command's file,
so that a command's file is a leaf (docs/design.md, src/cli/)."""
import os, re, sys

args = [a for a in sys.argv[1:] if a != "-v"]
if args and args[0] in ("-h", "--help"):
    print("usage: scripts/dev/cli-circles.py [-v] [SOURCE_DIR]"); sys.exit(0)
d = os.path.join(args[0] if args else os.path.join(os.path.dirname(__file__), "..", ".."), "src", "cli")
verbose = "-v" in sys.argv
files = sorted(f for f in os.listdir(d) if f.endswith((".c", ".h")))
text = {f: open(os.path.join(d, f)).read() for f in files}
inc = {f: re.findall(r'^\s*#\s*include\s+"([^"/]+)"', text[f], re.M) for f in files}

def strip(s):  # comments and strings out
    s = re.sub(r'/\*.*?\*/', ' ', s, flags=re.S)
    s = re.sub(r'//[^\n]*', ' ', s)
    return re.sub(r'"(\\.|[^"\\])*"', '""', s)

# names declared in headers: prototypes and extern objects
declared = {}
for h in (f for f in files if f.endswith(".h")):
    body = strip(text[h])
    for m in re.finditer(r'^[A-Za-z_][^;{}()#]*?\b([a-z_][a-z0-9_]*)\s*\([^;{}]*\)\s*(__attribute__\s*\(\(.*?\)\))?\s*;', body, re.M):
        declared[m.group(1)] = h
    for m in re.finditer(r'^extern\b[^;]*;', body, re.M):
        for n in re.findall(r'\b([a-z_][a-z0-9_]*)\s*(?:\[\s*\])?\s*(?:,|;)', m.group(0)):
            declared[n] = h
# where each is defined: at column 0, a function body or an initialised object
defined = {}
for c in (f for f in files if f.endswith(".c")):
    body = strip(text[c])
    for n in declared:
        if re.search(r'^[A-Za-z_][^;{}()#=]*\b%s\s*\([^;]*?\)\s*\{' % re.escape(n), body, re.M) or \
           re.search(r'^[A-Za-z_][^;(){}]*\b%s\s*(\[\s*\])?\s*=' % re.escape(n), body, re.M) or \
           re.search(r'^(volatile\s+)?int\s+[^;(]*\b%s\b[^;(]*;' % re.escape(n), body, re.M):
            defined.setdefault(n, c)

def headers_of(f, seen=None):  # what f includes, transitively (local headers)
    seen = set() if seen is None else seen
    for h in inc[f]:
        if h in text and h not in seen:
            seen.add(h)
            headers_of(h, seen)
    return seen

edges = {}
for c in (f for f in files if f.endswith(".c")):
    body = strip(text[c])
    hs = headers_of(c)
    for n, h in declared.items():
        o = defined.get(n)
        if o and o != c and h in hs and re.search(r'\b%s\b' % re.escape(n), body):
            edges.setdefault(c, {}).setdefault(o, set()).add(n)

if verbose:
    for a in sorted(edges):
        for b in sorted(edges[a]):
            print(f"{a} -> {b}: {', '.join(sorted(edges[a][b]))}")
bad = 0
for h in (f for f in files if f.endswith(".h")):
    for g in headers_of(h):
        if h in headers_of(g) and h < g:
            print(f"headers in a circle: {h} <-> {g}"); bad = 1
# Tarjan's strongly connected components
idx, low, stack, on, comps, k = {}, {}, [], set(), [], [0]
def visit(v):
    idx[v] = low[v] = k[0]; k[0] += 1; stack.append(v); on.add(v)
    for w in edges.get(v, {}):
        if w not in idx:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], idx[w])
    if low[v] == idx[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v: break
        comps.append(comp)
for v in sorted(f for f in files if f.endswith(".c")):
    if v not in idx: visit(v)
for comp in comps:
    if len(comp) > 1:
        bad = 1
        print("circle: " + " ".join(sorted(comp)))
        for a in sorted(comp):
            for b in sorted(comp):
                if b in edges.get(a, {}):
                    print(f"  {a} -> {b}: {', '.join(sorted(edges[a][b]))}")
print(f"{len(declared)} declared names, {sum(len(v) for v in edges.values())} file edges, "
      f"{sum(1 for c in comps if len(c) > 1)} circles")
sys.exit(bad)
