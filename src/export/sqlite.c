/* Every table of a store in one SQLite database: typed columns, keys, indexes, views. */
/*
 * The tables are the export tables (export.c declares their columns and
 * writes their rows); here each gets a CREATE TABLE from its columns, and
 * its rows arrive through a mev_table sink that binds them to one prepared
 * INSERT.  A table added to export.c is written here without a change; it
 * gets indexes on the columns named in `indexed` below, and a primary key
 * when `keys` lists one for it (one line).
 */
#include "export_internal.h"
#include "maintevo/error.h"
#include "maintevo/version.h"
#include "util/clock.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The primary key of a table: its columns, separated by ", " (unquoted). */
static const struct {
	mev_export_table_id t;
	const char *key;
} keys[] = {
	{ MEV_EXPORT_RELEASES, "release" },
	{ MEV_EXPORT_SECTIONS, "release, section" },
	{ MEV_EXPORT_EDGES, "release, from, to" },
	{ MEV_EXPORT_CLUSTERS, "release, section" },
	{ MEV_EXPORT_EVENTS, "from_release, to_release, from_cluster, to_cluster" },
	{ MEV_EXPORT_LINEAGES, "lineage" },
	{ MEV_EXPORT_SECTION_CHANGES, "from_release, to_release, section" },
	{ MEV_EXPORT_COMMITS, "commit" },
	{ MEV_EXPORT_WORKLOAD, "release, lineage" },
	{ MEV_EXPORT_LISTED, "release, section, role, entry" },
	{ MEV_EXPORT_CANDIDATES, "release, section, rank" },
	{ MEV_EXPORT_LISTED_SECTIONS, "release, section" },
};

/* Columns that get an index wherever a table has them (but as the first
 * column of its key, which the key's index covers). */
static const char *const indexed[] = { "release", "from_release", "to_release", "section",
				       "lineage", "path", "commit", NULL };

/*
 * The views: joins and sums the questions of docs/user-guide.md start
 * from.  Directories are "drivers/" for drivers/net/phy.c ("" at the top).
 */
static const char views_sql[] =
	"CREATE VIEW events_named AS\n"
	"  SELECT e.*, l.first_release AS lineage_first_release,\n"
	"         l.last_release AS lineage_last_release,\n"
	"         fl.name AS from_lineage_name, pl.name AS partner_lineage_name\n"
	"  FROM events e\n"
	"  LEFT JOIN lineages l ON l.lineage = e.lineage\n"
	"  LEFT JOIN lineages fl ON fl.lineage = e.from_lineage\n"
	"  LEFT JOIN lineages pl ON pl.lineage = e.partner_lineage;\n"
	"CREATE VIEW uncovered_files AS\n"
	"  SELECT f.release, r.position, f.path, f.kind, f.lines, f.bytes,\n"
	"         substr(f.path, 1, instr(f.path, '/')) AS directory\n"
	"  FROM files f JOIN releases r ON r.release = f.release\n"
	"  WHERE f.section IS NULL;\n"
	"CREATE VIEW uncovered_by_directory AS\n"
	"  SELECT release, position, directory, count(*) AS files, sum(lines) AS lines\n"
	"  FROM uncovered_files GROUP BY release, directory;\n"
	/* a lineage's cluster in a release is its first by number (as
	 * mev_history_lineage_cluster()); SQLite takes the bare name from the
	 * row min() picks */
	"CREATE VIEW lineage_names AS\n"
	"  SELECT c.lineage, c.release, r.position, min(c.cluster) AS cluster,\n"
	"         c.representative_display_name AS name\n"
	"  FROM clusters c JOIN releases r ON r.release = c.release\n"
	"  WHERE c.lineage IS NOT NULL GROUP BY c.lineage, c.release;\n"
	"CREATE VIEW file_subsystems AS\n"
	"  SELECT f.release, r.position, f.path, f.lines, f.section, f.display_name,\n"
	"         f.cluster, f.lineage, f.lineage_name\n"
	"  FROM files f JOIN releases r ON r.release = f.release;\n";

typedef struct {
	sqlite3 *db;
	sqlite3_stmt *insert;
	uint64_t rows;
	const char *name;     /* the database in messages */
} sink_ctx;

/* The database's last error as a MEV_EIO about `path`, with the hint that
 * fits it: space and permissions for a write that failed, not for a key
 * that two rows share. */
static int db_error(sqlite3 *db, const char *path, const char *what)
{
	int code = db ? sqlite3_errcode(db) : SQLITE_NOMEM;
	int rc = mev_error_set(MEV_EIO, "cannot write SQLite database '%s': %s: %s", path, what,
			       db ? sqlite3_errmsg(db) : "out of memory");
	if (code == SQLITE_CONSTRAINT)
		mev_error_hint("two rows of a table share its key: the store holds what the database "
			       "cannot; the single tables ('maintevo export TABLE') still write it");
	else
		mev_error_hint("check the free space and that the file can be written");
	return rc;
}

static void sink_null(void *ctx, size_t col)
{
	sqlite3_bind_null(((sink_ctx *)ctx)->insert, (int)col + 1);
}

static void sink_text(void *ctx, size_t col, const char *s, size_t len)
{
	sqlite3_bind_text64(((sink_ctx *)ctx)->insert, (int)col + 1, s, len, SQLITE_TRANSIENT,
			    SQLITE_UTF8);
}

static void sink_integer(void *ctx, size_t col, int64_t v)
{
	sqlite3_bind_int64(((sink_ctx *)ctx)->insert, (int)col + 1, v);
}

static void sink_number(void *ctx, size_t col, double v)
{
	sqlite3_bind_double(((sink_ctx *)ctx)->insert, (int)col + 1, v);
}

/* Dates as the CSV writes them (ISO 8601 UTC), which SQLite's date
 * functions read. */
static void sink_date(void *ctx, size_t col, int64_t seconds)
{
	time_t tt = (time_t)seconds;
	struct tm tm;
	char s[32];
	gmtime_r(&tt, &tm);
	strftime(s, sizeof s, "%Y-%m-%dT%H:%M:%SZ", &tm);
	sqlite3_bind_text(((sink_ctx *)ctx)->insert, (int)col + 1, s, -1, SQLITE_TRANSIENT);
}

static int sink_end_row(void *ctx)
{
	sink_ctx *c = ctx;
	int rc = sqlite3_step(c->insert);
	sqlite3_reset(c->insert);
	if (rc != SQLITE_DONE)
		return db_error(c->db, c->name, "inserting a row");
	c->rows++;
	return 0;
}

static const char *sql_type(mev_column_type t)
{
	return t == MEV_COLUMN_INTEGER ? "INTEGER" : t == MEV_COLUMN_NUMBER ? "REAL" : "TEXT";
}

/* "a, b" -> "\"a\", \"b\"" appended to b. */
static int quoted_list(mev_buf *b, const char *list)
{
	int bad = 0;
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ",");
		bad |= mev__buf_printf(b, "%s\"%.*s\"", p == list ? "" : ", ", (int)n, p);
		p += n;
		while (*p == ',' || *p == ' ')
			p++;
	}
	return bad;
}

static const char *key_of(mev_export_table_id t)
{
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		if (keys[i].t == t)
			return keys[i].key;
	return NULL;
}

/* The CREATE TABLE and the INSERT of table t. */
static int table_sql(mev_buf *create, mev_buf *insert, mev_export_table_id t)
{
	const mev_column *cols = mev_export_columns(t);
	const char *name = mev_export_table_name(t), *key = key_of(t);
	int bad = mev__buf_printf(create, "CREATE TABLE \"%s\" (", name) |
		  mev__buf_printf(insert, "INSERT INTO \"%s\" VALUES (", name);
	for (size_t i = 0; cols[i].name; i++) {
		bad |= mev__buf_printf(create, "%s\"%s\" %s", i ? ", " : "", cols[i].name,
				       sql_type(cols[i].type));
		bad |= mev__buf_printf(insert, "%s?%zu", i ? ", " : "", i + 1);
	}
	if (key)
		bad |= mev__buf_puts(create, ", PRIMARY KEY (") | quoted_list(create, key) |
		       mev__buf_puts(create, ")");
	bad |= mev__buf_puts(create, ")") | mev__buf_puts(insert, ")");
	return bad ? mev_error_oom() : 0;
}

/* A CREATE INDEX for every column of t named in `indexed` (but the first
 * of its key). */
static int index_sql(mev_buf *b, mev_export_table_id t)
{
	const mev_column *cols = mev_export_columns(t);
	const char *name = mev_export_table_name(t), *key = key_of(t);
	size_t key_first = key ? strcspn(key, ",") : 0;
	int bad = 0;
	for (size_t i = 0; cols[i].name; i++) {
		int want = 0;
		for (size_t j = 0; indexed[j]; j++)
			want |= strcmp(cols[i].name, indexed[j]) == 0;
		if (!want || (key && strlen(cols[i].name) == key_first &&
			      strncmp(key, cols[i].name, key_first) == 0))
			continue;
		bad |= mev__buf_printf(b, "CREATE INDEX \"%s_%s\" ON \"%s\" (\"%s\");\n", name,
				       cols[i].name, name, cols[i].name);
	}
	return bad ? mev_error_oom() : 0;
}

static int exec(sqlite3 *db, const char *path, const char *sql, const char *what)
{
	return sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : db_error(db, path, what);
}

/* Table t: created, and its rows inserted when the store has them
 * (`ready`: a store not clustered or tracked has no clusters, events,
 * lineages, and the tables stay empty). */
static int write_table(uint64_t *rows, sqlite3 *db, const char *path, mev_export_table_id t,
		       const mev__export_ctx *x, int ready)
{
	mev_buf create = MEV_BUF_INIT, insert = MEV_BUF_INIT;
	sink_ctx c = { db, NULL, 0, path };
	const mev_table_sink sink = { sink_null, sink_text, sink_integer, sink_number, sink_date,
				      sink_end_row, &c };
	mev_table *w = NULL;
	int rc;
	if ((rc = table_sql(&create, &insert, t)) ||
	    (rc = exec(db, path, create.ptr, "creating a table")))
		goto done;
	if (sqlite3_prepare_v2(db, insert.ptr, -1, &c.insert, NULL) != SQLITE_OK) {
		rc = db_error(db, path, "preparing an insert");
		goto done;
	}
	if (ready && !(rc = mev_table_new_sink(&w, &sink, mev_export_columns(t))) &&
	    !(rc = mev__export_rows(w, x, t)))
		rc = mev_table_finish(w);
	*rows = c.rows;
done:
	mev_table_free(w);
	sqlite3_finalize(c.insert);
	mev__buf_free(&create);
	mev__buf_free(&insert);
	return rc;
}

/* What the database was made from, as key-value rows. */
static int write_info(sqlite3 *db, const char *path, const mev_history *h,
		      const mev_export_options *opt)
{
	const char *rows[][2] = {
		{ "maintevo_version", mev_version() }, { "schema", "1" },
		{ "method", mev_history_cluster_key(h) }, { "tracking", mev_history_track_key(h) },
		{ "clustered", mev_history_clustered(h) ? "1" : "0" },
		{ "tracked", mev_history_tracked(h) ? "1" : "0" },
		{ "release", opt->release }, { "from", opt->from }, { "to", opt->to },
		{ "keep_rest", opt->keep_rest ? "1" : "0" },
	};
	sqlite3_stmt *st = NULL;
	int rc = exec(db, path, "CREATE TABLE export_info (key TEXT PRIMARY KEY, value TEXT)",
		      "creating a table");
	if (!rc && sqlite3_prepare_v2(db, "INSERT INTO export_info VALUES (?1, ?2)", -1, &st,
				      NULL) != SQLITE_OK)
		rc = db_error(db, path, "preparing an insert");
	for (size_t i = 0; !rc && i < sizeof rows / sizeof *rows; i++) {
		sqlite3_bind_text(st, 1, rows[i][0], -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, rows[i][1], -1, SQLITE_STATIC); /* NULL: null */
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = db_error(db, path, "inserting a row");
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return rc;
}

/* Every table, its indexes, the views, in one transaction. */
static int write_all(mev_export_sqlite_result *res, sqlite3 *db, const char *path,
		     const mev__export_ctx *x)
{
	mev_buf idx = MEV_BUF_INIT;
	int rc = exec(db, path,
		      "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
		      "PRAGMA cache_size = -65536; PRAGMA user_version = 1; BEGIN",
		      "starting");
	for (int t = 0; !rc && t < MEV_EXPORT_TABLE_COUNT; t++) {
		const mev_progress *p = x->opt->progress;
		if (p && p->progress)
			p->progress(p->ctx, (size_t)t + 1, MEV_EXPORT_TABLE_COUNT,
				    mev_export_table_name((mev_export_table_id)t));
		rc = write_table(&res->rows[t], db, path, (mev_export_table_id)t, x,
				 t == MEV_EXPORT_WORKLOAD ? x->roster != NULL && mev_history_tracked(x->h)
				 : mev__export_reads_roster((mev_export_table_id)t)
					 ? x->roster != NULL
					 : mev__export_ready(x->h, (mev_export_table_id)t));
		res->tables += !rc;
	}
	for (int t = 0; !rc && t < MEV_EXPORT_TABLE_COUNT; t++)
		rc = index_sql(&idx, (mev_export_table_id)t);
	if (!rc && idx.ptr)
		rc = exec(db, path, idx.ptr, "creating the indexes");
	if (!rc && !(rc = write_info(db, path, x->h, x->opt)) &&
	    !(rc = exec(db, path, views_sql, "creating the views")))
		rc = exec(db, path, "COMMIT", "committing");
	mev__buf_free(&idx);
	return rc;
}

int mev_export_sqlite(mev_export_sqlite_result *res, const char *path, mev_store *s,
		      const mev_export_options *opt)
{
	static const mev_export_options defaults = { 0 };
	mev_section_change_list changes = { 0 };
	mev_export_options o = opt ? *opt : defaults;
	mev__export_ctx x = { s, NULL, &o, &changes, NULL, NULL, 0, NULL, NULL, NULL };
	mev_history *h = NULL, *own = NULL;
	sqlite3 *db = NULL;
	const char *name = opt && opt->name ? opt->name : path;
	double t0 = mev__now();
	int rc;

	memset(res, 0, sizeof *res);
	if (o.path)
		return mev_error_set(MEV_EINVAL, "--path goes with the files table only");
	o.format = MEV_TABLE_CSV; /* the sink takes the values; no text is written */
	o.excel_safe = 0;
	if ((rc = mev_release_names_new(&x.names, s)))
		return rc;
	if ((rc = mev_history_use(&h, &own, s, o.history, NULL,
				  MEV_HISTORY_CLUSTERS | MEV_HISTORY_TRACKS)))
		goto done;
	x.h = h;
	if ((rc = mev__export_check_release(s, h, &o)))
		goto done;
	rc = mev_history_read_section_changes(&changes, h, o.from, o.to ? o.to : o.release);
	if (rc == MEV_ENOTFOUND) /* not tracked: no section changes */
		rc = 0;
	if (rc)
		goto done;
	res->clustered = mev_history_clustered(h);
	res->tracked = mev_history_tracked(h);
	/* workload, listed and candidates read the repository and the flow
	 * (workload the tracks too): without them they stay empty */
	if (mev_flow_roster_reader_new(&x.roster, s, o.repo) == 0 &&
	    mev__export_any_flow(s, h, NULL) <= 0) {
		mev_flow_roster_reader_free(x.roster);
		x.roster = NULL;
	}
	mev_error_clear();
	res->listed = x.roster != NULL;
	res->workload = res->listed && mev_history_tracked(h);
	if (o.people && (rc = mev__export_handles_read(&x.people, o.people)))
		goto done;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		rc = db_error(db, name, "opening it");
		goto done;
	}
	rc = write_all(res, db, name, &x);
done:
	if (sqlite3_close_v2(db) != SQLITE_OK && !rc)
		rc = mev_error_set(MEV_EIO, "cannot close SQLite database '%s'", name);
	mev_flow_roster_reader_free(x.roster);
	mev__export_handles_free(x.people);
	mev_section_change_list_free(&changes);
	mev_history_free(own);
	mev_release_names_free(x.names);
	res->seconds = mev__now() - t0;
	return rc;
}
