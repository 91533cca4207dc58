# The database of 'export all' in R with DBI and RSQLite (r-cran-rsqlite):
# every table listed, typed columns as R classes, the same rows as the
# CSV exports.  Skipped without R or RSQLite.
. "$(dirname "$0")/lib.sh" "$@"
command -v Rscript >/dev/null || skip "Rscript is not installed (Debian: r-base-core)"
Rscript -e 'suppressMessages({library(DBI); library(RSQLite)})' >/dev/null 2>&1 ||
	skip "R has no DBI or RSQLite (Debian: r-cran-rsqlite)"

demo_store S
for t in releases sections events; do
	expect_exit 0 "$MEV" export "$t" --store S -o "$t.csv"
done
expect_exit 0 "$MEV" export all --store S -o demo.db
cat >check.R <<'REOF'
suppressMessages({library(DBI); library(RSQLite)})
con <- dbConnect(RSQLite::SQLite(), "demo.db", flags = RSQLite::SQLITE_RO)
want <- c("clusters", "edges", "events", "export_info", "files", "lineages", "releases",
          "section_changes", "sections")
stopifnot(all(want %in% dbListTables(con)))
for (name in c("releases", "sections", "events")) {
  sql <- dbReadTable(con, name)
  csv <- read.csv(paste0(name, ".csv"), na.strings = "", encoding = "UTF-8",
                  stringsAsFactors = FALSE, check.names = FALSE)
  stopifnot(identical(names(sql), names(csv)), nrow(sql) == nrow(csv))
  for (col in names(sql)) {
    a <- sql[[col]]; b <- csv[[col]]
    if (is.numeric(a)) stopifnot(isTRUE(all.equal(as.numeric(a), as.numeric(b), tolerance = 1e-5)))
    else stopifnot(identical(a, as.character(b)) || all(is.na(a) & is.na(b)))
  }
  cat(name, nrow(sql), "rows\n")
}
rel <- dbGetQuery(con, "SELECT release, lines, modularity FROM releases ORDER BY position")
stopifnot(is.integer(rel$lines) || is.numeric(rel$lines), is.double(rel$modularity),
          identical(rel$release, paste0("v1.", 0:7)))
net <- dbGetQuery(con, "SELECT release, lineage_name, sum(lines) AS lines FROM files
                        WHERE path GLOB 'net/*' GROUP BY release, lineage ORDER BY release, lines DESC")
stopifnot(length(unique(net$release)) == 8)
dbDisconnect(con)
cat("R ok\n")
REOF
expect_exit 0 Rscript check.R
expect_stdout_contains "R ok"
echo "PASS"
