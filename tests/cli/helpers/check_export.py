#!/usr/bin/env python3
"""check_export.py: checks of maintevo's exports and reports with Python's
standard library only (csv, json, xml, html.parser), for test_export.sh.

  check_export.py table SCHEMAS.md NAME FILE.csv FILE.json FILE.jsonl
      the CSV header is exactly the column list of NAME in SCHEMAS.md; every
      row has every column, typed as documented; the JSON array and the JSON
      Lines hold the same rows with the same keys in the same order
  check_export.py graphml FILE [ATTR=VALUE ...]   parse GraphML, print counts
  check_export.py nodelink FILE                   networkx node-link JSON
  check_export.py html FILE                       a self-contained report
  check_export.py field FILE.csv COLUMN VALUE     some row has COLUMN == VALUE
Exit status 0 when the check holds, 1 with a message otherwise.
"""
import csv
import html.parser
import json
import re
import sys
import xml.etree.ElementTree as ET


def fail(msg):
    print("check_export.py: " + msg, file=sys.stderr)
    sys.exit(1)


def schema_columns(path, name):
    """The (column, type) rows of the table under '## name' in schemas.md."""
    cols, inside = [], False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("## "):
                inside = line[3:].strip() == name
                continue
            if inside and line.startswith("| ") and not line.startswith("| column"):
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                if len(cells) >= 2 and not set(cells[0]) <= set("-"):
                    cols.append((cells[0], cells[1]))
    if not cols:
        fail(f"{path} documents no table '{name}'")
    return cols


DATE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")


def check_value(table, col, typ, v):
    """A CSV field against its documented type."""
    if v == "":
        if "nullable" not in typ:
            fail(f"{table}.{col}: empty but not nullable")
        return None
    base = typ.split(",")[0].strip()
    try:
        if base == "integer":
            return int(v)
        if base == "number":
            return float(v)
    except ValueError:
        fail(f"{table}.{col}: '{v}' is not a {base}")
    if base == "date" and not DATE.match(v):
        fail(f"{table}.{col}: '{v}' is not an ISO 8601 UTC date")
    return v


def cmd_table(schemas, name, csv_path, json_path, jsonl_path):
    cols = schema_columns(schemas, name)
    names = [c for c, _ in cols]
    with open(csv_path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f, strict=True))
    if not rows:
        fail(f"{csv_path}: empty, not even a header")
    if rows[0] != names:
        fail(f"{csv_path}: header {rows[0]} is not the documented {names}")
    with open(csv_path, "rb") as f:
        if b"\r\n" in f.read():
            fail(f"{csv_path}: CRLF line ends")
    typed = []
    for i, r in enumerate(rows[1:], 2):
        if len(r) != len(names):
            fail(f"{csv_path}:{i}: {len(r)} fields, expected {len(names)}")
        typed.append([check_value(name, c, t, v) for (c, t), v in zip(cols, r)])
    with open(json_path, encoding="utf-8") as f:
        arr = json.load(f, object_pairs_hook=lambda kv: kv)
    if not isinstance(arr, list):
        fail(f"{json_path}: not a JSON array")
    with open(jsonl_path, encoding="utf-8") as f:
        lines = [json.loads(line, object_pairs_hook=lambda kv: kv) for line in f if line.strip()]
    if len(arr) != len(typed) or len(lines) != len(typed):
        fail(f"{name}: {len(typed)} CSV rows, {len(arr)} JSON objects, {len(lines)} JSON lines")
    for i, (t, a, l) in enumerate(zip(typed, arr, lines)):
        if [k for k, _ in a] != names or [k for k, _ in l] != names:
            fail(f"{json_path}: object {i} has keys {[k for k, _ in a]}, expected {names}")
        if a != l:
            fail(f"{name}: row {i} differs between JSON and JSON Lines")
        for (c, typ), cv, (_, jv) in zip(cols, t, a):
            if isinstance(cv, float) and isinstance(jv, (int, float)):
                if abs(cv - jv) > 1e-9 * max(1, abs(cv)):
                    fail(f"{name}.{c} row {i}: CSV {cv} but JSON {jv}")
            elif cv != jv:
                fail(f"{name}.{c} row {i}: CSV {cv!r} but JSON {jv!r}")
    print(f"{name}: {len(typed)} rows, {len(names)} columns")


def cmd_graphml(path, *want):
    ns = {"g": "http://graphml.graphdrawing.org/xmlns"}
    root = ET.parse(path).getroot()
    keys = {k.get("id"): k.get("attr.name") for k in root.findall("g:key", ns)}
    nodes = root.findall("g:graph/g:node", ns)
    edges = root.findall("g:graph/g:edge", ns)
    ids = {n.get("id") for n in nodes}
    for e in edges:
        if e.get("source") not in ids or e.get("target") not in ids:
            fail(f"{path}: edge to an unknown vertex")
    values = []
    for n in nodes:
        values.append({keys[d.get("key")]: d.text or "" for d in n.findall("g:data", ns)})
    for w in want:
        k, v = w.split("=", 1)
        if not any(x.get(k) == v for x in values):
            fail(f"{path}: no vertex with {k} = {v!r}")
    clustered = sum(1 for x in values if "cluster" in x)
    print(f"{len(nodes)} vertices ({clustered} with a cluster), {len(edges)} edges")


def cmd_nodelink(path):
    with open(path, encoding="utf-8") as f:
        g = json.load(f)
    names = {n["id"] for n in g["nodes"]}
    for link in g["links"]:
        if link["source"] not in names or link["target"] not in names:
            fail(f"{path}: link to an unknown node")
    print(f"{len(g['nodes'])} nodes, {len(g['links'])} links")


class Html(html.parser.HTMLParser):
    """Counts what a self-contained page must not have."""
    VOID = {"meta", "br", "img", "hr", "input", "link", "col", "wbr", "source"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.problems, self.svgs, self.text = [], [], 0, []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("script", "iframe", "object", "embed", "img", "link"):
            self.problems.append(f"<{tag}> element")
        for k in ("src", "href"):
            if k in a and not (a[k] or "").startswith("#"):
                self.problems.append(f"{tag} {k}={a[k]!r} leaves the page")
        for k, v in a.items():
            if k.startswith("on"):
                self.problems.append(f"event handler {k} on <{tag}>")
        if tag == "svg":
            self.svgs += 1
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in self.VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> does not close <{self.stack[-1] if self.stack else ''}>")
        else:
            self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def cmd_html(path):
    with open(path, encoding="utf-8") as f:
        page = f.read()
    p = Html()
    p.feed(page)
    p.close()
    if p.stack:
        p.problems.append(f"unclosed {p.stack}")
    for bad in ("@import", "<script"):
        if bad in page:
            p.problems.append(f"'{bad}' in the page")
    # url() only of the page's own fragments (the lineage chart's clip path)
    for m in re.finditer(r"url\(([^)]*)\)", page):
        if not m.group(1).startswith("#"):
            p.problems.append(f"'url({m.group(1)})' in the page")
    if "@media print" not in page:
        p.problems.append("no print style")
    if p.problems:
        fail(f"{path}: " + "; ".join(p.problems[:5]))
    # every SVG is well-formed XML on its own
    for m in re.finditer(r"<svg .*?</svg>", page, re.S):
        try:
            ET.fromstring(m.group(0))
        except ET.ParseError as e:
            fail(f"{path}: an SVG chart is not well-formed XML: {e}")
    print(f"{p.svgs} charts, {len(page)} bytes")


def cmd_field(path, column, value):
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if row.get(column) == value:
                return
    fail(f"{path}: no row with {column} = {value!r}")


def main(argv):
    cmds = {"table": (cmd_table, 5), "graphml": (cmd_graphml, None), "nodelink": (cmd_nodelink, 1),
            "html": (cmd_html, 1), "field": (cmd_field, 3)}
    if len(argv) < 2 or argv[1] not in cmds:
        fail("usage: see the top of this file")
    fn, n = cmds[argv[1]]
    if n is not None and len(argv) - 2 != n:
        fail(f"{argv[1]} takes {n} arguments")
    fn(*argv[2:])


if __name__ == "__main__":
    main(sys.argv)
