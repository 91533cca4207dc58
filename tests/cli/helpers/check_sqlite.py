#!/usr/bin/env python3
"""check_sqlite.py DB CSVDIR: the SQLite database of 'maintevo export all'
holds exactly the CSV tables of 'maintevo export' (CSVDIR/NAME.csv for
every table in it): the same columns in the same order, typed as declared
(INTEGER, REAL, TEXT; an empty CSV field is NULL), the same rows in the
same order (numbers to the CSV's 6 digits).  Python's standard library
only.  Exit status 0 when they agree, 1 with a message otherwise.
"""
import csv
import math
import os
import sqlite3
import sys


def fail(msg):
    print("check_sqlite.py: " + msg, file=sys.stderr)
    sys.exit(1)


def same(value, field, decl):
    if field == "":
        return value is None
    if decl == "INTEGER":
        return type(value) is int and value == int(field)
    if decl == "REAL":
        return type(value) is float and math.isclose(value, float(field), rel_tol=1e-5, abs_tol=1e-12)
    return type(value) is str and value == field


def main():
    db, csvdir = sys.argv[1], sys.argv[2]
    con = sqlite3.connect(db)
    tables = [r[0] for r in con.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")]
    names = sorted(n[:-4] for n in os.listdir(csvdir) if n.endswith(".csv"))
    if not names:
        fail(f"no CSV files in {csvdir}")
    for name in names:
        if name not in tables:
            fail(f"table {name} is missing (tables: {', '.join(tables)})")
        decl = [(r[1], r[2]) for r in con.execute(f'PRAGMA table_info("{name}")')]
        with open(os.path.join(csvdir, name + ".csv"), newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
        if rows[0] != [d[0] for d in decl]:
            fail(f"{name}: columns {[d[0] for d in decl]}, CSV header {rows[0]}")
        got = con.execute(f'SELECT * FROM "{name}" ORDER BY rowid').fetchall()
        if len(got) != len(rows) - 1:
            fail(f"{name}: {len(got)} rows, the CSV has {len(rows) - 1}")
        for i, (row, want) in enumerate(zip(got, rows[1:])):
            for value, field, (col, t) in zip(row, want, decl):
                if not same(value, field, t):
                    fail(f"{name} row {i + 1} column {col} ({t}): {value!r}, the CSV has {field!r}")
        print(f"{name}: {len(got)} rows agree")


main()
