/* Tidy tables and graphs read back from a store, for pandas, R, Gephi and igraph. */
#ifndef MAINTEVO_EXPORT_H
#define MAINTEVO_EXPORT_H

#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include "maintevo/store.h"
#include "maintevo/cluster.h"
#include "maintevo/track.h"
#include "maintevo/progress.h"
#include "maintevo/table.h"
#include "maintevo/graphdoc.h"

/*
 * The tables of 'maintevo export' (and of the short commands 'releases',
 * 'clusters', 'events', 'lineages', 'section-changes', which print the same).
 * Every table is in long form (one row per release and entity), has a fixed
 * column order (mev_export_columns()) and a deterministic row order;
 * docs/schemas.md describes every column.
 */
typedef enum {
	MEV_EXPORT_RELEASES = 0, /* one row per release: headline numbers */
	MEV_EXPORT_SECTIONS,     /* one row per release and section */
	MEV_EXPORT_EDGES,        /* one row per release and pair of sections sharing files */
	MEV_EXPORT_CLUSTERS,     /* one row per release, cluster and section */
	MEV_EXPORT_EVENTS,       /* one row per link between clusters of consecutive releases */
	MEV_EXPORT_LINEAGES,     /* one row per lineage */
	MEV_EXPORT_FILES,        /* one row per release, file and covering section */
	MEV_EXPORT_SECTION_CHANGES, /* one row per section added, removed or renamed */
	MEV_EXPORT_COMMITS,      /* one row per judged commit ('maintevo flow') */
	MEV_EXPORT_FLOW,         /* patch flow aggregates per release, section, subsystem, path */
	MEV_EXPORT_PEOPLE,       /* one row per release and person of the patch flow */
	MEV_EXPORT_HEALTH,       /* one row per release and MAINTAINERS finding (--self-test's spirit) */
	MEV_EXPORT_FLOWS,        /* one row per band segment of the lineage chart (mev_chart_flows()) */
	MEV_EXPORT_WORKLOAD,     /* one row per release and group: size, people, commits, bus factor */
	MEV_EXPORT_LISTED,       /* one row per release, section and M:/R: person: last active, state */
	MEV_EXPORT_CANDIDATES,   /* per release and section the --top people not listed doing its work */
	MEV_EXPORT_LISTED_SECTIONS, /* per release and section: listed people, how many active, orphaned */
	MEV_EXPORT_TABLE_COUNT
} mev_export_table_id;

/* "releases", "sections", ..., "section_changes", "health"; mev_export_table_parse
 * returns -1 for an unknown name (and accepts "section-changes" too). */
const char *mev_export_table_name(mev_export_table_id t);
int mev_export_table_parse(const char *name);

/* The columns of a table, ending with a NULL name (NULL for an unknown
 * table).  Static data. */
const mev_column *mev_export_columns(mev_export_table_id t);

/* The groups of the workload table (--by). */
typedef enum {
	MEV_WORKLOAD_BY_LINEAGE = 0, /* the default: one row per lineage */
	MEV_WORKLOAD_BY_SECTION,
	MEV_WORKLOAD_BY_CLUSTER
} mev_workload_by;

/* "lineage", "section", "cluster"; parse: -1 for an unknown name. */
const char *mev_workload_by_name(mev_workload_by b);
int mev_workload_by_parse(const char *name);
/* The columns of the workload table grouped `by` (static data). */
const mev_column *mev_export_workload_columns(mev_workload_by by);

/* Which addresses are one person in listed, listed_sections and candidates
 * (--fold; docs/people.md, "Identities"). */
typedef enum {
	MEV_EXPORT_FOLD_NAMES = 0,   /* the default: as addresses, and addresses seen under one
				      * full name (two words or more, any case) */
	MEV_EXPORT_FOLD_ADDRESSES,   /* one address but for case and a "+tag" of its local part */
	MEV_EXPORT_FOLD_NONE         /* flow's keys (the address after .mailmap) as they are */
} mev_export_fold;

/* "names", "addresses", "none"; parse: -1 for an unknown name. */
const char *mev_export_fold_name(mev_export_fold f);
int mev_export_fold_parse(const char *name);

/*
 * Organisations read from an --orgs file, in gitdm's email-map (and
 * domain-map) format: each line `KEY ORGANISATION` or `KEY ORGANISATION <
 * YYYY-MM-DD`, KEY an address or a domain, the date (UTC) the end of the
 * mapping; '#' starts a comment (docs/schemas.md, "Organisations").
 */
typedef struct mev_export_orgs mev_export_orgs;

/*
 * Read the organisations of the file at path into *out.  Errors:
 * MEV_ENOTFOUND or MEV_EIO when it cannot be read, MEV_EINVAL "PATH:LINE:
 * what is wrong" for the first bad line (both with a hint).
 */
int mev_export_orgs_read(mev_export_orgs **out, const char *path);
void mev_export_orgs_free(mev_export_orgs *o);

/*
 * Read the --people file at path (mev_export_options.people) as the listed
 * tables will, so that a caller can refuse a bad one before it opens
 * anything.  Errors: MEV_EIO when it cannot be read, MEV_EINVAL "PATH:LINE:
 * what is wrong" for the first bad line (a handle mapped twice too), both
 * with a hint.  An empty file maps nothing.
 */
int mev_export_people_check(const char *path);

typedef struct {
	mev_table_format format;
	const char *release;  /* only this release (NULL: all); events and section
			       * changes: those leading to it; files: the release to list */
	const char *from, *to; /* events and section changes: only the pairs with
				* from_release >= from and to_release <= to (version
				* order, both included; NULL: no limit) */
	const char *path;     /* files: the history of this path over all releases */
	mev_history *history; /* the clusterings and tracks to read, opened on the same
			       * store (mev_history_open(); NULL: the default parameters) */
	int keep_rest;        /* keep THE REST in sections, edges and files */
	int excel_safe;       /* CSV: a ' before formula-like strings (mev_table_excel_safe()) */
	mev_workload_by by;   /* workload: the groups (mev_export_columns() gives the
			       * lineage form; mev_export_workload_columns() each) */
	const char *repo;     /* workload: the repository (NULL: the one the store records) */
	const mev_export_orgs *orgs; /* workload: the organisations (NULL: an address's domain) */
	const mev_progress *progress; /* mev_export_sqlite(): progress(ctx, i, n, table)
			       * before each table (NULL: none) */
	const char *name;     /* mev_export_sqlite(): the database's name in messages, when
			       * path is a temporary file that becomes it (NULL: path) */
	int quiet_months;     /* listed, listed_sections, candidates: the months without activity that make a
			       * listed person quiet or gone, and the candidates' window (0: 12) */
	int top;              /* candidates: people per release and section (0: 3) */
	const char *people;   /* listed, candidates: a file mapping handles to addresses, lines
			       * "HANDLE ADDRESS" ('#' comments; NULL: none) */
	mev_export_fold fold; /* listed, listed_sections, candidates: which addresses are one
			       * person (0: MEV_EXPORT_FOLD_NAMES) */
} mev_export_options;

/*
 * Write table `t` of store `s` to `out`.  The files table needs exactly one
 * of opt->release and opt->path.  Errors: MEV_EINVAL for options that do not
 * fit the table, MEV_ENOTFOUND for an unknown release (with a hint), the
 * store's errors, MEV_EIO when writing fails.  Clusters, events, lineages
 * and section changes need 'maintevo cluster' / 'maintevo track' first
 * (MEV_ENOTFOUND with a hint otherwise); in the other tables the cluster
 * columns are simply empty then.  Nothing is written when the table cannot
 * be made (what is missing is found before the header).
 */
int mev_export_table(FILE *out, mev_store *s, mev_export_table_id t,
		     const mev_export_options *opt);

/* One row of the workload table (docs/schemas.md, "workload"). */
typedef struct {
	const char *release;
	int64_t date;
	const char *section;      /* --by section: the title; else NULL */
	int64_t cluster, lineage; /* -1: none */
	const char *lineage_name; /* NULL: none */
	uint64_t sections, files, lines, maintainers, reviewers, lists;
	const char **maintainer_keys; /* the `maintainers` people, sorted bytewise */
	int judged;               /* flow judged the release: the commit columns hold */
	uint64_t commits, authors, committers;
	const char *top_committer; /* NULL without commits */
	double top_committer_share, top_author_share; /* NaN without commits */
	int64_t bus_factor;       /* -1 without commits */
	double review_coverage;   /* commits reviewed or acked by another: share (NaN without commits) */
	double cross_org_review;  /* of those, by another organisation: share (NaN without any) */
	int64_t absence_factor;   /* CHAOSS: fewest authors with at least half the commits (-1: none) */
	int64_t elephant_factor;  /* the same for the authors' organisations (-1: none) */
	double lines_per_maintainer; /* NaN without maintainers */
} mev_workload_row;

typedef struct {
	mev_workload_row *v;
	size_t n;
	void *mem_;
} mev_workload_list;

/*
 * The rows of the workload table of store s (opt->by, release, from, to,
 * history, repo as for mev_export_table()) into *out, in the
 * table's order.  Unlike the table, a store without any flow is not an
 * error here: its rows have judged = 0.  Errors: those of
 * mev_export_table() for the workload table, but for the missing flow.
 */
int mev_export_workload(mev_workload_list *out, mev_store *s, const mev_export_options *opt);
void mev_workload_list_free(mev_workload_list *l);

/* One row of the listed table (docs/schemas.md, "listed"): the columns the
 * chart's lineage panel and the report read. */
typedef struct {
	const char *release, *section, *entry;
	const char *name, *email; /* NULL when not known */
	const char *role;         /* "M" or "R" */
	const char *state;        /* active, quiet, gone, never_seen, unknown */
	int64_t last_active;      /* INT64_MIN: none */
} mev_listed_row;

/* One row of the listed_sections table (docs/schemas.md, "listed_sections"). */
typedef struct {
	const char *release, *section, *status; /* status: NULL when none */
	uint64_t lines, maintainers, maintainers_active, maintainers_quiet, maintainers_gone,
		maintainers_never_seen;
	int orphaned_in_fact;
} mev_listed_section;

typedef struct {
	mev_listed_row *v;        /* the listed rows, in the table's order */
	size_t n;
	mev_listed_section *sections; /* the listed_sections rows, by title (opt->release only) */
	size_t n_sections;
	void *mem_;
} mev_listed_list;

/*
 * The rows of the listed table of store s (release, history, repo,
 * quiet_months, people and fold as for mev_export_table()) into *out, and,
 * when opt->release names one release, its rows of the listed_sections table
 * too (without it, every release's listed rows and no sections: their
 * sizes need each release's section graph).  Both are made by the tables'
 * own code.  Unlike the tables, a store without any flow is not an error
 * here: the list is empty.  Free with mev_listed_list_free() (also after
 * a failure).  Errors: those of mev_export_table() for these tables, but
 * for the missing flow.
 */
int mev_export_listed_rows(mev_listed_list *out, mev_store *s, const mev_export_options *opt);
void mev_listed_list_free(mev_listed_list *l);

/*
 * The listed people's headline of every release (the releases table's
 * columns listed_*: docs/schemas.md), computed from the stored flow and
 * stored in table MEV_EXPORT_HEADLINE_TABLE, for 'maintevo flow' to call
 * after mev_flow_run(), holding the store's writer's lock.  Counting it
 * needs the activity of every commit up to the release (seconds), too slow
 * for 'maintevo releases', which reads it from there.  Each record keeps a
 * stamp of what it was computed from (the releases up to it and their
 * stored flow); one whose stamp is not the store's now reads as unknown
 * and is computed again here, so only the releases whose headline is
 * missing or outdated are counted (all of them read the activity of the
 * releases before them).  A release without a stored flow up to it gets
 * none.  repo: the repository (NULL: the one the store records), for each
 * release's MAINTAINERS.  All records are written in one transaction.
 * Errors: the store's, the repository's, MEV_ENOMEM.
 */
#define MEV_EXPORT_HEADLINE_TABLE "headline"

typedef struct {
	size_t computed;   /* releases whose headline was counted and stored */
	size_t kept;       /* releases whose stored headline holds */
	size_t without;    /* releases without a stored flow up to them: none */
	double seconds;
} mev_export_headline_result;

int mev_export_headline_update(mev_export_headline_result *res, mev_store *s, const char *repo);

/* What mev_export_sqlite() wrote. */
typedef struct {
	uint64_t rows[MEV_EXPORT_TABLE_COUNT]; /* rows of each table */
	size_t tables;            /* export tables written (export_info aside) */
	int workload;             /* the workload table was written: the store is tracked,
				   * has a flow and its repository could be read (else
				   * it is there but empty) */
	int listed;               /* the listed, listed_sections and candidates tables
				   * were written: the store has a flow and its
				   * repository could be read (else they are empty) */
	int clustered, tracked;   /* as mev_export_table() would find them: when 0,
				   * clusters (events, lineages, section_changes)
				   * are there but empty */
	double seconds;
} mev_export_sqlite_result;

/*
 * Every table of store `s` into one SQLite database at `path`, which must
 * not exist or be empty (write to a temporary file and rename it: a
 * failure leaves a partial database behind).  One table per export table,
 * named and typed as its columns (string and date: TEXT, dates in ISO 8601
 * UTC; integer: INTEGER; number: REAL; missing values NULL), with a
 * primary key, indexes on the release, section, lineage and path columns,
 * the views events_named, uncovered_files, uncovered_by_directory and
 * file_subsystems, and a table export_info saying what was exported
 * (docs/schemas.md).  The files table holds every file of every release
 * (of opt->release only, when given).  opt->release, from, to, history
 * and keep_rest mean what they mean for mev_export_table();
 * format, excel_safe and path are not taken (path: MEV_EINVAL).  One
 * transaction, prepared inserts.  Errors: MEV_ENOTFOUND for an unknown
 * release (with a hint), MEV_EIO when the database cannot be written (with
 * SQLite's reason), the store's errors.
 */
int mev_export_sqlite(mev_export_sqlite_result *res, const char *path, mev_store *s,
		      const mev_export_options *opt);

typedef struct {
	mev_graph_format format; /* maintevo/graphdoc.h: graphml, json, dot or a csv edge list */
	const char *release;  /* required */
	mev_history *history; /* the clustering to read (as in mev_export_options) */
	int meta;             /* the cluster-level graph instead of the section graph */
	int keep_rest;        /* keep THE REST (section graph only) */
	int excel_safe;       /* csv: text safe for a spreadsheet (mev_table_excel_safe()) */
} mev_export_graph_options;

/*
 * Write the overlap graph of one release with the cluster and lineage of
 * every section as vertex attributes (empty when the release is not
 * clustered), or with opt->meta the graph of its clusters: a vertex per
 * cluster, an edge weighted by the lines shared by sections of two
 * different clusters.  Errors: MEV_ENOTFOUND (unknown release, or --meta on
 * a release without clusters), the store's errors, MEV_EIO.
 */
int mev_export_graph(FILE *out, mev_store *s, const mev_export_graph_options *opt);

/* Sections of one release counted by who looks after them, and the health
 * of its MAINTAINERS in numbers ('export health' has the details). */
typedef struct {
	uint64_t sections;        /* without THE REST */
	uint64_t no_maintainer;   /* without any M: line */
	uint64_t orphan;          /* status starting with "Orphan" (any case) */
	uint64_t obsolete;        /* status starting with "Obsolete" (any case) */
	uint64_t covers_nothing;  /* sections that cover no file */
	uint64_t comment_titles;  /* titles taken from a commented-out field line */
	/* from the health record the walk stores (has_health 0: a release walked
	 * before issue 12, or imported; the fields below are 0) */
	int has_health;
	uint64_t dead_patterns;   /* F:/X:/N: lines that match no path */
	uint64_t dead_self_test;  /* of which get_maintainer.pl --self-test reports: F:/X:
				     lines no path even starts with ("no file matches") */
	uint64_t duplicate_titles; /* sections whose title line repeats an earlier one */
	uint64_t orphan_lines, orphan_only_lines;     /* lines of the files an orphan section
							 covers; of those only orphans cover */
	uint64_t obsolete_lines, obsolete_only_lines; /* the same for obsolete sections */
	int64_t unread_maintainers; /* MAINTAINERS files of the tree the release's script does
				       not read (mev_release_health.unread); -1: not known */
} mev_section_census;

/* Count the sections of release `tag` and read its health record (when
 * stored).  Errors: as mev_release_load_graph(), mev_release_load_health(). */
int mev_export_census(mev_section_census *out, mev_store *s, const char *tag);

/* --- patch flow aggregates (docs/flow.md) ----------------------------------------- */

typedef enum {
	MEV_FLOW_LEVEL_RELEASE = 0, /* every judged commit of the release */
	MEV_FLOW_LEVEL_SECTION,     /* the commits touching a file of the section */
	MEV_FLOW_LEVEL_SUBSYSTEM,   /* ... of any section of the cluster */
	MEV_FLOW_LEVEL_PATH         /* strange commits by committer and sections touched */
} mev_flow_level;

/* "release", "section", "subsystem", "path". */
const char *mev_flow_level_name(mev_flow_level l);

typedef struct {
	const char *release;
	uint8_t level;            /* mev_flow_level */
	const char *group;        /* "" (release), the section title, the cluster's
				     representative, the committer (path) */
	const char *detail;       /* path: the sections touched, " | "-joined; else "" */
	int64_t cluster, lineage; /* subsystem: 1-based cluster, lineage (-1: unknown) */
	const char *lineage_name; /* or NULL */
	uint64_t commits, covered, rest_only, uncovered, direct, strange;
	uint64_t verdict[5];      /* covered commits with verdict i (mev_flow_verdict) */
	uint64_t known[5];        /* covered commits where verdict i is decided */
	/* the integration distance (docs/flow.md) of the covered commits */
	uint64_t distance_commits; /* those with one */
	uint64_t distance_sum;
	uint64_t no_path;          /* those whose committer is an M: with no path to them */
	uint32_t *distance_count;  /* per distance d < distance_len: its commits (NULL: none) */
	uint32_t distance_len;
} mev_flow_group;

typedef struct {
	mev_flow_group *v;        /* releases in version order; in each: release, sections,
				     subsystems, paths; groups by name (paths: most strange first) */
	size_t n;
	size_t releases;          /* releases with a stored flow */
	int clustered;            /* some of them are clustered */
	void *mem_;
} mev_flow_groups;

/*
 * The patch flow aggregates of the store (of `release` only when not NULL)
 * with committer_in_subsystem decided by the clustering of `history` (NULL:
 * the default parameters).  MEV_ENOTFOUND (with a hint) when 'maintevo
 * flow' has not run.  Free with mev_flow_groups_free().
 */
int mev_export_flow_groups(mev_flow_groups *out, mev_store *s, mev_history *history,
			   const char *release);
void mev_flow_groups_free(mev_flow_groups *g);

/* --- one path or one section over the releases ('maintevo history') --------- */

/* A section covering some of a path's files in one release. */
typedef struct {
	const char *section;      /* its title (the key) */
	const char *display;      /* its display name */
	uint64_t files, lines;    /* of the path's files, those it covers */
	int64_t cluster;          /* 1-based; -1 when not clustered */
	const char *representative; /* the cluster's representative, or NULL */
	int64_t lineage;          /* -1 when unknown (not tracked) */
	const char *lineage_name; /* the lineage's stable name, or NULL */
} mev_path_section;

/* A lineage (or, untracked, a cluster) covering some of a path's files. */
typedef struct {
	int64_t lineage;          /* -1 when not tracked: then `cluster` says which */
	const char *name;         /* the lineage's name; the cluster's representative untracked */
	int64_t cluster;          /* 1-based */
	const char *representative;
	uint64_t lines;           /* of the path's files covered by a section of the cluster */
} mev_path_lineage;

/* What changed since the previous release in which the path was present. */
enum {
	MEV_PATH_NEW = 1,         /* present here, not in the release before */
	MEV_PATH_SECTIONS = 2,    /* another set of covering sections (by title) */
	MEV_PATH_LINEAGE = 4,     /* another lineage holds the most of its lines */
	MEV_PATH_RENAMED = 8      /* sections: renamed since the release before (the tracker's
				     section changes, 'maintevo section-changes') */
};

/* One release of a path's history. */
typedef struct {
	const char *tag;
	int present;              /* a file or a directory (some file below it) of the release */
	int is_dir;
	int has_files;            /* the release has a file table (not imported) */
	uint64_t files, lines;    /* the file, or every file below the directory */
	uint64_t uncovered_files, uncovered_lines; /* covered by no section (THE REST aside) */
	mev_path_section *v;      /* by lines, largest first, then title */
	size_t n;
	mev_path_lineage *l;      /* by lines, largest first */
	size_t nl;
	unsigned changed;         /* MEV_PATH_* */
} mev_path_release;

typedef struct {
	char *path;               /* as looked up: no "./", no repeated '/' (a directory ends in '/') */
	int is_dir;               /* a directory in some release */
	mev_path_release *v;      /* every stored release (or only opt->release), in version order */
	size_t n;
	int clustered, tracked;
	void *mem_;
} mev_path_history;

/*
 * The history of one path: for every stored release (opt->release: only
 * that one) its lines, the sections covering it with their share of its
 * lines, the clusters and lineages, and what changed.  A path ending in
 * '/', or one that is a directory (some file below it) in some release,
 * is a directory: its files are every file below it.  THE REST is left
 * out unless opt->keep_rest.  Clusters and lineages are read from
 * opt->history (left empty when not clustered or tracked).  Errors: MEV_ENOTFOUND when no stored release has the path
 * (the hint names the closest stored paths), or for an unknown release;
 * the store's errors.
 */
int mev_export_path_history(mev_path_history *out, mev_store *s, const char *path,
			    const mev_export_options *opt);
void mev_path_history_free(mev_path_history *h);

/* One release of a section's history. */
typedef struct {
	const char *tag;
	int present;              /* the release has a section of that title */
	const char *title;        /* its title here (another after a rename), or NULL */
	const char *display;
	const char *status;
	uint64_t lines, files;    /* its own size */
	uint32_t maintainers;
	int64_t cluster;          /* 1-based, -1 */
	const char *representative;
	uint64_t cluster_sections;
	int64_t lineage;          /* -1 when unknown */
	const char *lineage_name;
	unsigned changed;         /* MEV_PATH_NEW, MEV_PATH_RENAMED; MEV_PATH_LINEAGE: another
				     lineage than in the release before */
} mev_section_release;

typedef struct {
	char *title;
	mev_section_release *v;   /* every stored release, in version order */
	size_t n;
	int clustered, tracked;
	void *mem_;
} mev_section_history;

/*
 * The history of the section titled `title` (its key, exactly; else its
 * display name, or the title ignoring case, when only one section matches
 * so): per release its size, status, cluster and lineage, following its
 * renames forwards when the store is tracked (from the first release that
 * has the title on).  Errors:
 * MEV_ENOTFOUND when no release has such a section (the hint names the
 * closest titles); the store's errors.
 */
int mev_export_section_history(mev_section_history *out, mev_store *s, const char *title,
			       const mev_export_options *opt);
void mev_section_history_free(mev_section_history *h);

#endif
