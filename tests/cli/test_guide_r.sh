# Every R snippet of docs/user-guide.md runs (on the demo history, see
# test_guide.sh) and writes its plot to a file; skipped without R or one of
# the packages it uses (Debian: r-base-core r-cran-readr r-cran-dplyr
# r-cran-tidyr r-cran-jsonlite r-cran-igraph r-cran-dbi r-cran-rsqlite
# r-cran-ggplot2 r-cran-ggalluvial).
. "$(dirname "$0")/lib.sh" "$@"
command -v Rscript >/dev/null || skip "Rscript is not installed"
missing=$(Rscript -e 'p <- c("readr", "dplyr", "tidyr", "jsonlite", "igraph", "DBI", "RSQLite", "ggplot2", "ggalluvial"); cat(p[!sapply(p, requireNamespace, quietly = TRUE)])' 2>/dev/null) ||
	skip "Rscript does not run"
[ -z "$missing" ] || skip "R has no package $missing"
guide_setup
n=$(python3 "$HERE/helpers/guide_snippets.py" "$SRC/docs/user-guide.md" r rs)
[ "$n" -ge 2 ] || fail "only $n R snippets in the user guide"
for f in rs/*.r; do
	step "guide: $f"
	expect_exit 0 Rscript "$f"
	cat "$OUT" | tee -a r.out
done
grep -qE '^[0-9]+ sections, [0-9]+ edges$' r.out || fail "no graph read by igraph"
grep -q '"files"' r.out || fail "dbListTables did not list the files table"
for f in sections-r.png flows-r.png; do
	[ -s "$f" ] || fail "the R snippets did not save $f"
	[ "$(head -c 4 "$f" | tail -c 3)" = PNG ] || fail "$f is not a PNG"
done
grep -qE '^[1-9][0-9]* lineage sizes drawn$' r.out || fail "no lineage sizes drawn by ggalluvial"
echo "PASS"
