# The database of 'export all' in pandas (python3-pandas): read_sql gives
# the frames read_csv gives from the CSV exports, with numeric dtypes from
# the typed columns; and a question answered in SQL.  Skipped without pandas.
. "$(dirname "$0")/lib.sh" "$@"
PY=$(find_python pandas sqlite3) || skip "no python3 with pandas (Debian: python3-pandas)"

demo_store S
for t in releases sections clusters events lineages; do
	expect_exit 0 "$MEV" export "$t" --store S -o "$t.csv"
done
expect_exit 0 "$MEV" export all --store S -o demo.db
expect_exit 0 "$PY" - demo.db <<'PYEOF'
import sqlite3, sys
import pandas as pd

con = sqlite3.connect(sys.argv[1])
for name in ["releases", "sections", "clusters", "events", "lineages"]:
    sql = pd.read_sql(f'SELECT * FROM "{name}"', con)
    csv = pd.read_csv(f"{name}.csv", keep_default_na=False, na_values=[""])
    pd.testing.assert_frame_equal(sql, csv, check_dtype=False, rtol=1e-5)
    print(name, sql.shape)

rel = pd.read_sql("SELECT * FROM releases ORDER BY position", con, parse_dates=["date"])
assert str(rel.lines.dtype) == "int64", rel.lines.dtype
assert str(rel.date.dtype).startswith("datetime64"), rel.date.dtype
assert list(rel.release) == [f"v1.{i}" for i in range(8)], list(rel.release)

# the subsystem holding most of net/ in every release, from the files table
q = pd.read_sql("""
    SELECT f.release, r.position, f.lineage, f.lineage_name, sum(f.lines) AS lines
    FROM files f JOIN releases r USING (release)
    WHERE f.path GLOB 'net/*' GROUP BY f.release, f.lineage""", con)
top = q.sort_values(["position", "lines"], ascending=[True, False]).drop_duplicates("release")
assert len(top) == 8 and top.lineage.notna().all(), top
print(top[["release", "lineage_name", "lines"]].to_string(index=False))
PYEOF
expect_stdout_contains "events ("
echo "PASS"
