# Every shell and SQL snippet of docs/user-guide.md runs, on the demo
# history in place of U-Boot: the shell ones as they are, the SQL ones in
# the sqlite3 shell against the database they exported (skipped without
# sqlite3).  test_guide_python.sh and test_guide_r.sh run the others.
. "$(dirname "$0")/lib.sh" "$@"
guide_setup
for f in csv/releases.csv csv/files.csv graph.graphml sections.json u-boot.db report.html; do
	[ -s "$f" ] || fail "the guide's snippets did not write $f"
done
command -v sqlite3 >/dev/null || skip "sqlite3 is not installed: the SQL snippets did not run"
n=$(python3 "$HERE/helpers/guide_snippets.py" "$SRC/docs/user-guide.md" sql sql)
[ "$n" -ge 3 ] || fail "only $n SQL snippets in the user guide"
for f in sql/*.sql; do
	step "guide: $f"
	expect_exit 0 sqlite3 -bail u-boot.db <"$f"
	[ -s "$OUT" ] || fail "$f printed nothing"
	cp "$OUT" "$f.out"
done
# the first answers the question for every release of the demo
[ "$(wc -l <sql/01.sql.out)" -eq 8 ] || fail "drivers/net/ by release: $(cat sql/01.sql.out)"
! awk -F'|' '$3 !~ /^NETWORKING DRIVERS/' sql/01.sql.out | grep -q . ||
	fail "drivers/net/ not in a NETWORKING DRIVERS lineage: $(cat sql/01.sql.out)"
echo "PASS"
