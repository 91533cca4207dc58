/* Shared inside src/export/: the row writers of the tables, a section's cluster, graph parts. */
#ifndef MEV_EXPORT_INTERNAL_H
#define MEV_EXPORT_INTERNAL_H

#include "maintevo/export.h"
#include "maintevo/flow.h"
#include "maintevo/graph.h"
#include "maintevo/release.h"
#include "maintevo/table.h"
#include "maintevo/track.h"
#include "util/buf.h"
#include "util/strmap.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

/* What a table's rows are made of: the store, its history loaded as the
 * table needs it, the options; section changes for that table only. */
typedef struct {
	mev_store *s;
	mev_history *h; /* as the table needs it (mev_history_use()) */
	const mev_export_options *opt;
	const mev_section_change_list *changes;
	mev_release_names *names;  /* display names of the titles of other tables */
	const char *path;          /* files --path: canonical, no trailing '/' */
	int path_dir;              /* it ended in '/': a directory only */
	size_t *path_rows;         /* files --path: rows found, counted */
	mev_flow_roster_reader *roster; /* workload, listed, candidates: opened before the header */
	struct mev__export_handles *people; /* listed: --people FILE, read before the header */
} mev__export_ctx;

/* Write the rows of one table (its header is written already). */
int mev__export_releases(mev_table *w, const mev__export_ctx *x);
int mev__export_sections(mev_table *w, const mev__export_ctx *x);
int mev__export_edges(mev_table *w, const mev__export_ctx *x);
int mev__export_files(mev_table *w, const mev__export_ctx *x);
int mev__export_clusters(mev_table *w, const mev__export_ctx *x);
int mev__export_events(mev_table *w, const mev__export_ctx *x);
int mev__export_lineages(mev_table *w, const mev__export_ctx *x);
int mev__export_section_changes(mev_table *w, const mev__export_ctx *x);
int mev__export_health(mev_table *w, const mev__export_ctx *x);
int mev__export_flows(mev_table *w, const mev__export_ctx *x);
int mev__export_workload(mev_table *w, const mev__export_ctx *x);
/* The bus factor of counts[0..n) (each person's commits): the smallest
 * number of people who together have more than half of all; 0 when there
 * is no commit.  Sorts counts (descending). */
uint64_t mev__export_bus_factor(uint64_t *counts, size_t n);
/* CHAOSS's Contributor Absence Factor (and Elephant Factor, counting
 * organisations) of counts[0..n): the smallest number who together have at
 * least half of all, not more than half as the bus factor; 0 when there is
 * no commit.  Sorts counts (descending). */
uint64_t mev__export_absence_factor(uint64_t *counts, size_t n);
/* The organisation of the person whose key (mev__export_flow_person()) is
 * `key` at time `when`: by orgs (NULL: none), else the address's domain;
 * a key without '@' is its own organisation.  Points into orgs or key. */
const char *mev__export_org(const mev_export_orgs *orgs, const char *key, int64_t when);

/* A status starting with "Obsolete" (any case). */
int mev__export_is_obsolete(const char *status);

/* --- patch flow (flow_tables.c, flow_groups.c) ------------------------------------ */

/* The release's graph and the searches of the integration distance (flow_distance.c). */
typedef struct mev__flow_dist mev__flow_dist;
void mev__export_flow_dist_free(mev__flow_dist *d);

/* One release's stored flow and its clustering, for the verdicts read here. */
typedef struct {
	mev_flow_release *fr;     /* NULL when the release has none */
	size_t r;                 /* index in the history */
	int64_t *cluster;         /* per string id: cluster of that title (-2: not asked yet) */
	mev__flow_dist *dist;     /* the integration distance's graph (NULL: not read yet) */
} mev__flow_rel;

int mev__export_commits(mev_table *w, const mev__export_ctx *x);
int mev__export_flow(mev_table *w, const mev__export_ctx *x);
int mev__export_people(mev_table *w, const mev__export_ctx *x);
/* Release r's flow (f->fr NULL, no error, when none is stored). */
int mev__export_flow_load(mev__flow_rel *f, const mev__export_ctx *x, size_t r);
void mev__export_flow_free(mev__flow_rel *f);
/* The cluster (0-based) of the title with string id `title` in f's release, or -1. */
int64_t mev__export_flow_cluster(const mev__export_ctx *x, mev__flow_rel *f, uint32_t title);
/* The verdict bits of c with committer_in_subsystem decided from the
 * clustering; *known has a bit for each verdict that is decided. */
unsigned mev__export_flow_verdicts(unsigned *known, const mev__export_ctx *x, mev__flow_rel *f,
				   const mev_flow_commit *c);
/* 1 for a covered commit that no listed maintainer committed, signed off or
 * reviewed and that came through no listed tree. */
int mev__export_flow_strange(const mev_flow_commit *c);
/* The integration distance of c (docs/flow.md) into *out: the fewest hops in
 * the overlap graph of f's release from a section the committer is an M: of
 * to one the commit touches (by title; 0 when it is one of them);
 * MEV__FLOW_DIST_NONE when the committer is an M: of none, the commit
 * touches none (THE REST aside) or the store has no graph of the release;
 * MEV__FLOW_DIST_NO_PATH when no path leads there.  Errors: as
 * mev_release_load_graph(). */
#define MEV__FLOW_DIST_NONE (-1)
#define MEV__FLOW_DIST_NO_PATH (-2)
int mev__export_flow_distance(int64_t *out, const mev__export_ctx *x, mev__flow_rel *f,
			      const mev_flow_commit *c);
/* A person's key in the tables: the email, or the name when there is none. */
const char *mev__export_flow_person(const mev_flow_person *p);

/* For the SQLite export (sqlite.c), from export.c: the rows of table t;
 * whether the store has them (clusters, events and lineages need 'maintevo
 * cluster' and 'maintevo track'); MEV_ENOTFOUND with a hint when
 * opt->release, from or to is not a release of h. */
int mev__export_rows(mev_table *w, const mev__export_ctx *x, mev_export_table_id t);
int mev__export_ready(const mev_history *h, mev_export_table_id t);
/* The rosters of the releases a table reads in order, the next one read on
 * a second thread while the caller works on the one it took (rosters.c). */
typedef struct {
	mev_flow_roster_reader *rr;
	const mev_history *h;
	pthread_t th;
	int running, pending; /* pending: release r's roster is read or being read */
	size_t r;
	mev_flow_roster ro;
	int rc;
	char msg[1024], hint[1024];
} mev__rosters;
void mev__rosters_init(mev__rosters *q, mev_flow_roster_reader *rr, const mev_history *h);
/* Start reading the roster of the first release from r on (before end)
 * that has files (a read under way is waited for and dropped). */
void mev__rosters_ahead(mev__rosters *q, size_t r, size_t end);
/* Release r's roster into *out (the caller frees it): the one read ahead,
 * or read now when another (or none) was; errors as mev_flow_roster_read(). */
int mev__rosters_take(mev_flow_roster *out, mev__rosters *q, size_t r);
/* Wait for a read under way and free what it read. */
void mev__rosters_drop(mev__rosters *q);
/* The tables that read each release's M:/R: people through flow's roster (--repo). */
int mev__export_reads_roster(mev_export_table_id t);
int mev__export_check_release(mev_store *s, const mev_history *h, const mev_export_options *opt);

/* The display name of section `title` of release `tag` (NULL for NULL).
 * On an error it is the title, and *rc gets the error unless it has one. */
const char *mev__export_display(const mev__export_ctx *x, const char *tag, const char *title,
				int *rc);

/* qsort() that accepts an empty (possibly NULL) array. */
void mev__export_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

/* Cluster (1-based), representative and lineage of a section of release r:
 * -1 / NULL / -1 when the release is not clustered, not tracked or the
 * section is left out of the clustering. */
typedef struct {
	int64_t cluster;
	const char *representative;
	int64_t lineage;
	const char *lineage_name;
} mev__export_member;

mev__export_member mev__export_member_of(const mev_history *h, int64_t r, const char *title);
/* The member's four columns: cluster, representative, lineage, lineage_name. */
void mev__export_member_row(mev_table *w, const mev__export_member *m);

/* The range of h's releases to export: all, or only `tag`. */
void mev__export_range(size_t *first, size_t *end, const mev_history *h, const char *tag);
/* The error for a store with no patch flow for h's releases (or `tag`):
 * none judged, or judged by rules of an older maintevo. */
int mev__export_no_flow(mev_store *s, const mev_history *h, const char *tag);
/* 1 when some release of h (or `tag` only) has a stored patch flow, 0 when
 * none has, or the store's error. */
int mev__export_any_flow(mev_store *s, const mev_history *h, const char *tag);
/* Own sizes of the sections (their self edges), by section index. */
int mev__export_self_sizes(mev_edge **out, const mev_graph *g, size_t nsec);
/* Sort section indices of `fm` by title (bytewise). */
void mev__export_sort_titles(uint32_t *ids, size_t n, const mev_filemap *fm);
/* Section indices sorted by title (THE REST left out unless keep_rest). */
int mev__export_sorted_sections(uint32_t **out, size_t *n, const mev_filemap *fm, int keep_rest);

/* --- who is listed and who does the work (activity.c, listed.c) ------------------ */

/* What a person did in a commit (bits of mev__act_event.kinds). */
enum {
	MEV_ACT_AUTHORED = 1, MEV_ACT_COMMITTED = 2, MEV_ACT_SIGNED_OFF = 4, MEV_ACT_REVIEWED = 8,
	MEV_ACT_ACKED = 16, MEV_ACT_TESTED = 32
};

/* One person's part in one commit touching one section. */
typedef struct {
	int64_t time;             /* author date for the author, commit date for the others */
	uint32_t person, section; /* ids of mev__activity */
	uint8_t kinds;
} mev__act_event;

/* The identity fold (identity.c): which ids of the activity index (one per
 * address flow keys) are one person, by --fold. */
typedef struct {
	mev_export_fold mode;
	MEV_VEC(uint32_t) parent, size, next; /* per id: union-find parent, its person's
					       * size (roots), next member (a ring) */
	mev_strmap by_address, by_name;       /* folded address / normalised name -> first id */
	mev_buf buf;
} mev__fold;

void mev__fold_free(mev__fold *f);
/* A new id (ids come 0, 1, ...) of person key `key`: joined to the ids of
 * the same address (--fold addresses and names).  Errors: MEV_ENOMEM. */
int mev__fold_add(mev__fold *f, uint32_t id, const char *key);
/* id was seen under `name`: joined to the ids seen under the same full
 * name (--fold names).  Errors: MEV_ENOMEM. */
int mev__fold_name(mev__fold *f, uint32_t id, const char *name);
/* The person (root id) of id; the next id of its ring of members. */
uint32_t mev__fold_root(const mev__fold *f, uint32_t id);
uint32_t mev__fold_next(const mev__fold *f, uint32_t id);
/* The id of address addr in people (the index's key -> id), or else of an
 * id of the same address as the fold folds addresses; -1 when none. */
int64_t mev__fold_find(mev__fold *f, const mev_strmap *people, const char *addr);
/* An id seen under the full name `name` (--fold names), or -1. */
int64_t mev__fold_find_name(mev__fold *f, const char *name);
/* *same: x and y are one address but for case and a "+tag".  Errors: MEV_ENOMEM. */
int mev__fold_same_address(mev__fold *f, const char *x, const char *y, int *same);

/* The activity index: every event of the releases added so far, and the
 * last date of every (section, person) pair and of every person anywhere.
 * Ids are addresses (flow's keys); fold says which are one person. */
typedef struct {
	mev__fold fold;
	mev_strmap people;        /* person key -> id */
	MEV_VEC(const char *) keys, names; /* per id: key; name seen last (NULL: none) */
	MEV_VEC(int64_t) anywhere; /* per id: last date in any commit (INT64_MIN: none) */
	mev_strmap sections;      /* title -> id */
	uint32_t n_sections;
	mev_strmap pairs;         /* (section, person) -> index of pair_last */
	MEV_VEC(int64_t) pair_last;
	MEV_VEC(mev__act_event) ev;
	size_t absorbed;          /* events folded into pair_last */
	mev_arena arena;
	mev_buf others;           /* mev__act_others()'s answer */
	MEV_VEC(const char *) sorted;
} mev__activity;

int mev__act_init(mev__activity *a, mev_export_fold fold);
void mev__act_free(mev__activity *a);
/* Add the commits of a stored flow record (a release's, or the history
 * before the first release). */
int mev__act_add(mev__activity *a, const mev_flow_release *fr);
/* The id of a section title (a repeated title's " #k" left out), UINT32_MAX when none. */
uint32_t mev__act_section_of(const mev__activity *a, const char *title);
/* The id of address addr, or of another address the fold makes one with
 * it (a "+tag" left out); -1 when none. */
int64_t mev__act_find(mev__activity *a, const char *addr);
/* The last date of the person of id in section, INT64_MIN when none; *by
 * gets the id (an address of the person) whose activity that is (id when
 * none; of two at one date, id itself or the one met first). */
int64_t mev__act_last(uint32_t *by, const mev__activity *a, uint32_t section, uint32_t id);
/* The same for the person's last date in any commit. */
int64_t mev__act_anywhere(uint32_t *by, const mev__activity *a, uint32_t id);
/* *out: the addresses of id's person but `except`, sorted, joined with
 * " | " (NULL when there is none); valid until the next call.  Errors:
 * MEV_ENOMEM. */
int mev__act_others(const char **out, mev__activity *a, uint32_t id, const char *except);
/* Whole calendar months from `from` to `to` (UTC). */
int64_t mev__act_months(int64_t from, int64_t to);

/* --people FILE: handle -> address. */
typedef struct mev__export_handles mev__export_handles;
/* Read FILE (lines "HANDLE ADDRESS", '#' comments); MEV_EINVAL "FILE:LINE: ..." on a bad row. */
int mev__export_handles_read(mev__export_handles **out, const char *path);
void mev__export_handles_free(mev__export_handles *p);
int mev__export_listed(mev_table *w, const mev__export_ctx *x);
int mev__export_candidates(mev_table *w, const mev__export_ctx *x);
int mev__export_listed_sections(mev_table *w, const mev__export_ctx *x);
/* A release's stored headline (headline.c): the listed entries, never
 * seen, and quiet and gone at 12 [0] and 24 [1] months; known 0 when none
 * is stored for the store as it is now. */
typedef struct {
	int known;
	uint64_t addresses, never_seen, quiet[2], gone[2];
} mev__export_headline;
/* Every release of h's headline, by index (*out the caller's to free). */
int mev__export_headlines(mev__export_headline **out, mev_store *s, const mev_history *h);
/*
 * The rules the listed states follow, for the headline flow stores
 * (headline.c): bump it whenever activity.c or listed.c change what state
 * a listed entry gets (how people fold, what counts as activity), so that
 * the next flow counts every stored headline again instead of keeping
 * numbers the listed table no longer gives.
 */
#define MEV__LISTED_RULES 1
/* The states of one release's listed entries, counted (the headline, headline.c). */
typedef struct {
	uint64_t addresses;       /* entries not unknown: one per section and address */
	uint64_t never_seen, quiet, gone;
} mev__listed_tally;
/* Add release r's stored flow to the activity index a (release 0: the
 * history before it), as the listed table does; nothing when not stored.
 * *from: the latest time before which the history read is not whole (a
 * shallow clone's cut), raised by r's. */
int mev__listed_add(mev__activity *a, int64_t *from, const mev__export_ctx *x, size_t r);
/* The listed entries of release r (its roster ro; a holding releases 0..r;
 * from as mev__listed_add() left it) counted by their state at
 * x->opt->quiet_months, as the listed table states them. */
int mev__listed_headline_of(mev__listed_tally *out, const mev__export_ctx *x,
			    mev__activity *a, size_t r, int64_t from, const mev_flow_roster *ro);

/* --- paths (paths.c) -------------------------------------------------------------- */

/* `in` with no "./", no repeated '/' and no trailing '/' (*is_dir says there
 * was one) into *out (malloc'ed).  Errors: MEV_ENOMEM. */
int mev__export_canon_path(char **out, int *is_dir, const char *in);
/*
 * The rows of fm that `path` (canonical) names: [*first, *end).  Returns 0
 * for the file of that path (unless dir_only), 1 for the files below it
 * (a directory: "" is the root); an empty range when it names nothing.
 */
int mev__export_path_rows(size_t *first, size_t *end, const mev_filemap *fm, const char *path,
			  int dir_only);
/* MEV_ENOTFOUND: no release of h (or release `tag`, when not NULL) has
 * `path`; the hint names the closest paths of the newest and the oldest
 * release with files (of `tag` alone when given). */
int mev__export_no_path(mev_store *s, const mev_history *h, const char *tag, const char *path,
			int is_dir);

/* --- graphs ---------------------------------------------------------------------- */

/* A vertex or an edge of an exported graph, whatever its level (graph_export.c
 * describes it for the graph writer). */
typedef struct {
	const char *name;         /* the title (the key), or the cluster's representative */
	const char *status;       /* sections only */
	mev__export_member m;     /* cluster, representative, lineage */
	uint64_t lines, bytes, files, maintainers, sections;
	int64_t code;             /* clusters: lines of their files, each once (-1: unknown) */
	const char *display;      /* the display name of `name` */
} mev__export_vertex;

typedef struct {
	uint32_t a, b;
	uint64_t lines, bytes, files;
} mev__export_edge;

typedef struct {
	MEV_VEC(mev__export_vertex) v;
	MEV_VEC(mev__export_edge) e;
	int meta;                 /* vertices are clusters */
} mev__export_graph_desc;

#endif
