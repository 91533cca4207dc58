# export all --format sqlite: every table of the demo store in one SQLite
# database that holds exactly what the CSV exports hold (Python's sqlite3),
# with keys, indexes and views the sqlite3 shell answers the user guide's
# questions from; written whole or not at all.
. "$(dirname "$0")/lib.sh" "$@"
command -v python3 >/dev/null || skip "python3 is not installed"
python3 -c 'import sqlite3' 2>/dev/null || skip "python3 has no sqlite3 module"

step "the demo store, every table as CSV and as one database"
demo_store S
mkdir csv
for t in releases sections edges clusters events lineages flows section_changes; do
	expect_exit 0 "$MEV" export "$t" --store S -o "csv/$t.csv"
done
# the database holds the files of every release: the CSV of each, one header
for r in $(tail -n +2 csv/releases.csv | cut -d, -f1); do
	expect_exit 0 "$MEV" export files --store S --release "$r"
	if [ -f csv/files.csv ]; then tail -n +2 "$OUT" >>csv/files.csv; else cp "$OUT" csv/files.csv; fi
done
expect_exit 0 "$MEV" export all --store S -o demo.db
expect_stderr_contains "maintevo: 17 tables, "
expect_stderr_contains "'demo.db'"
[ -s demo.db ] || fail "no demo.db"
ls -a | grep -q '^\.demo\.db\.' && fail "a temporary file was left behind"

step "the same columns, types and rows as the CSV tables"
expect_exit 0 python3 "$HERE/helpers/check_sqlite.py" demo.db csv
expect_stdout_contains "files: "
expect_stdout_contains "section_changes: "

step "lineage_names: a lineage's name at every release, its last_name at the last"
python3 - demo.db <<'PY' || fail "lineage_names"
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
# one row per lineage and release it has a cluster in
assert con.execute("SELECT count(*) FROM lineage_names").fetchone()[0] == \
    con.execute("SELECT count(DISTINCT lineage || ' ' || release) FROM clusters "
                "WHERE lineage IS NOT NULL").fetchone()[0]
assert con.execute("SELECT count(*) FROM lineages l LEFT JOIN lineage_names n ON "
                   "n.lineage = l.lineage AND n.release = l.last_release "
                   "WHERE n.name IS NOT l.last_name").fetchone()[0] == 0
# the demo's lineages that hold another largest section now than at birth
assert con.execute("SELECT count(*) FROM lineages l JOIN lineage_names n ON "
                   "n.lineage = l.lineage AND n.release = l.first_release "
                   "WHERE n.name <> l.last_name").fetchone()[0] > 0
PY

step "one release only; --format sqlite is the default of 'all'"
expect_exit 0 "$MEV" export all --store S --release v1.3 --format sqlite -o one.db
python3 - one.db <<'PY' || fail "one.db holds more than v1.3"
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
assert con.execute("SELECT group_concat(DISTINCT release) FROM files").fetchone()[0] == "v1.3"
assert con.execute("SELECT count(*) FROM releases").fetchone()[0] == 1
assert con.execute("SELECT count(*) FROM events WHERE to_release <> 'v1.3'").fetchone()[0] == 0
assert con.execute("SELECT value FROM export_info WHERE key = 'release'").fetchone()[0] == "v1.3"
PY

step "a release tag mistyped: did you mean"
expect_exit 1 "$MEV" export all --store S --release 1.3 -o x.db
expect_error "release '1.3' is not in store 'S'; did you mean 'v1.3'?"
expect_exit 1 "$MEV" export sections --store S --release V1.3
expect_error "did you mean 'v1.3'?"

step "a store not clustered: the tables are there, empty, and the summary says so"
expect_exit 0 "$MEV" walk --repo demo --store W -q
expect_exit 0 "$MEV" export all --store W -o w.db
expect_stderr_contains "not clustered"
python3 - w.db <<'PY' || fail "w.db"
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
assert con.execute("SELECT count(*) FROM clusters").fetchone()[0] == 0
assert con.execute("SELECT count(*) FROM lineages").fetchone()[0] == 0
assert con.execute("SELECT count(*) FROM files").fetchone()[0] > 1000
assert con.execute("SELECT count(*) FROM sections WHERE cluster IS NOT NULL").fetchone()[0] == 0
PY

step "written whole or not at all"
echo "old content" >keep.db
expect_exit 1 "$MEV" export all --store S --release v9 -o keep.db
expect_error "release 'v9' is not in store"
[ "$(cat keep.db)" = "old content" ] || fail "a failed export changed keep.db"
ls -a | grep -q '^\.keep\.db\.' && fail "a temporary file was left behind"
expect_exit 0 "$MEV" export all --store S -o keep.db
python3 -c 'import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute("SELECT 1 FROM releases")' keep.db ||
	fail "keep.db was not replaced by a database"
expect_exit 1 "$MEV" export all --store S -o /dev/null
expect_error "not a regular file"
expect_exit 2 "$MEV" export all --store S
expect_stderr_contains "-o FILE.db"
expect_exit 2 "$MEV" export all --store S -o - 
expect_exit 2 "$MEV" export all --store S --format csv -o x.db
expect_stderr_contains "use --format sqlite"
expect_exit 2 "$MEV" export all --store S --path a.c -o x.db
expect_stderr_contains "--path does not go with 'export all'"
[ ! -e x.db ] || fail "x.db was written after a usage error"

step "the sqlite3 shell: integrity, keys, and the user guide's three questions"
command -v sqlite3 >/dev/null || { echo "# sqlite3 is not installed: shell checks skipped"; echo PASS; exit 0; }
[ "$(sqlite3 demo.db 'PRAGMA integrity_check')" = ok ] || fail "integrity_check"
sqlite3 demo.db .schema >schema.sql
grep -qF 'PRIMARY KEY ("release", "section")' schema.sql || fail "sections has no primary key"
grep -qF 'CREATE INDEX "files_path"' schema.sql || fail "files has no index on path"
grep -qF 'CREATE VIEW events_named' schema.sql || fail "no view events_named"
# which subsystem holds net/ in every release: one row per release, each named
q1=$(sqlite3 demo.db "SELECT count(*), count(DISTINCT release) FROM (
	SELECT f.release, f.lineage_name, sum(f.lines) AS n,
	       row_number() OVER (PARTITION BY f.release ORDER BY sum(f.lines) DESC) AS k
	FROM files f WHERE f.path GLOB 'net/*' GROUP BY f.release, f.lineage) WHERE k = 1")
[ "$q1" = "8|8" ] || fail "net/ by release: $q1"
# uncovered code: the view agrees with the releases table
bad=$(sqlite3 demo.db "SELECT count(*) FROM releases r WHERE uncovered_lines <>
	(SELECT coalesce(sum(lines), 0) FROM uncovered_files u WHERE u.release = r.release)")
[ "$bad" = 0 ] || fail "uncovered_files disagrees with releases.uncovered_lines in $bad releases"
# events with lineage names
n=$(sqlite3 demo.db "SELECT count(*) FROM events_named WHERE event = 'split' AND from_lineage_name IS NULL")
[ "$n" = 0 ] || fail "$n splits without the name of the lineage they split from"
echo "PASS"
