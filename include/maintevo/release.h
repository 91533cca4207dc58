/* What the store holds per release: headline numbers, file tables, graphs, notes; and whose history it is. */
#ifndef MAINTEVO_RELEASE_H
#define MAINTEVO_RELEASE_H

#include <stddef.h>
#include <stdint.h>
#include "maintevo/filemap.h"
#include "maintevo/graph.h"
#include "maintevo/maintainers.h"
#include "maintevo/repo.h"
#include "maintevo/store.h"

/*
 * Records and tables are described in docs/store-format.md: "releases"
 * (the release record: numbers, sections, graph), "tables" (file tables,
 * delta coded), "diags" (MAINTAINERS notes), "patterns" (each section's
 * F:/X:/N: lines), "health" (what get_maintainer.pl --self-test would say,
 * and the uncovered code), "blobs" (blob sizes) and the identity under "meta".  Writes need a write transaction (mev_store_write).
 */

/*
 * The longest tag a release can have, in bytes.  Tags are keys in the
 * store (LMDB takes keys of at most 511 bytes), also after the clustering
 * parameters in the keys of stored clusterings and events: a walk leaves a
 * longer tag out with a note, mev_release_put refuses it (MEV_EINVAL).
 */
#define MEV_RELEASE_TAG_MAX 255

/* One stored release and its headline numbers. */
typedef struct {
	char *tag;
	mev_oid commit;
	int64_t time;             /* committer time */
	uint64_t files, lines, bytes;
	uint64_t sections;        /* without THE REST */
	uint64_t sections_with_files;
	uint64_t uncovered_files, uncovered_lines; /* no section but THE REST */
	uint64_t edges;           /* graph edges between two sections */
	uint64_t diags;           /* notes about MAINTAINERS content */
	uint64_t maintainer_files;
	uint8_t has_files;        /* a file table is stored (imports have none) */
	uint8_t snapshot;         /* the file table is stored whole */
	char *base;               /* else: the release it is a delta against */
	uint64_t stored_bytes;    /* size of the stored values */
	uint64_t raw_bytes;       /* their size before compression */
	uint32_t rules_version;   /* MEV_RULES_VERSION of the code that built it (0: imported) */
	char *rules;              /* the matching rules it was built with (mev_rules_describe), or "" */
} mev_release;

/* All releases in the store's order (mev_release_order(): tags in version
 * order, snapshots by date, merged by date); free with
 * mev_release_list_free(). */
int mev_release_list(mev_release **out, size_t *n, mev_store *s);
void mev_release_list_free(mev_release *list, size_t n);
/* The date a release stands for: a snapshot's day (its last second, UTC),
 * a tag's commit's committer time. */
int64_t mev_release_date(const mev_release *r);
/* "snapshot" for a snapshot's name (<branch>@YYYY-MM-DD), else "tag". */
const char *mev_release_kind(const char *name);

/*
 * The store's order by name, for readers that compare release names
 * (ranges, pair records): loaded once (mev_release_list), then
 * mev_release_rank() gives 2*i for the i-th stored release, and for a
 * name not stored the odd number after the release it would follow (a tag
 * by version among the tags, a snapshot by its date), -1 before all.
 */
typedef struct mev_release_ranks mev_release_ranks;
int mev_release_ranks_load(mev_release_ranks **out, mev_store *s);
int64_t mev_release_rank(const mev_release_ranks *r, const char *name);
size_t mev_release_ranks_count(const mev_release_ranks *r);
void mev_release_ranks_free(mev_release_ranks *r);

/* One release; MEV_ENOTFOUND (with a hint) when `tag` is not stored.  Free
 * with mev_release_free(). */
int mev_release_find(mev_release **out, mev_store *s, const char *tag);
void mev_release_free(mev_release *r);
/* 1 when `tag` is stored (and *commit, if not NULL, gets its commit), else 0. */
int mev_release_has(mev_oid *commit, mev_store *s, const char *tag);
/* Set the error for a `tag` that is not stored: MEV_ENOTFOUND, "release
 * 'TAG' is not in store 'S'", with the stored release it may be a typo of
 * ("did you mean 'v2023.10'?", mev_suggest()) and a hint; returns
 * MEV_ENOTFOUND. */
int mev_release_not_stored(mev_store *s, const char *tag);
/*
 * A range of releases --from .. --to, the same way for every command that
 * takes one: *lo, *hi get the indices of `from` and `to` (NULL: the first,
 * the last) among the n releases of list (stored, in version order:
 * mev_release_list()).  MEV_ENOTFOUND for a tag not stored
 * (mev_release_not_stored()); MEV_EINVAL for a reversed range (`from`
 * after `to`), or, with `strict`, for from == to, each with a message
 * naming both and a hint.
 */
int mev_release_range(size_t *lo, size_t *hi, mev_store *s, const mev_release *list, size_t n,
		      const char *from, const char *to, int strict);

typedef struct mev_release_memo mev_release_memo;

/* What a release is stored with besides its file table and graph. */
typedef struct {
	const char *tag;
	mev_oid commit;
	int64_t time;
	uint64_t maintainer_files;
	const char *const *diags; /* "file:line: message" texts */
	size_t ndiags;
	uint32_t rules_version;   /* see mev_release */
	const char *rules;        /* NULL: "" */
	const mev_maint *maint;   /* the MAINTAINERS read: each section's F:/X:/N: lines are
				     stored as the release's patterns; NULL leaves the stored
				     patterns (if any) as they are */
	const mev_tree *tree;     /* with maint: the release's tree, for its health record
				     (mev_release_load_health); NULL leaves the stored one */
	mev_release_memo *memo;   /* with tree: what the puts of a walk's releases found, carried
				     from one to the next (NULL: all computed afresh) */
	const uint8_t *changed;   /* with memo: per file of tree, 1 when it was added or modified
				     since the tree `since` (mev_tree_update()); NULL: not known */
	const mev_oid *since;
	/* with tree: the health record already encoded by the caller
	 * (mev_release_health_encode(), on a thread of its own while the
	 * rest is stored), called when it is put: 0 and *data, *len (the
	 * caller's), or an error; NULL: encoded here */
	int (*health)(void *ctx, const void **data, size_t *len);
	void *health_ctx;
} mev_release_input;

/* The health record mev_release_put() stores for `in` and fm (in->maint
 * and in->tree set): *data (malloc'ed) and *len.  Errors: MEV_ENOMEM. */
int mev_release_health_encode(void **data, size_t *len, const mev_release_input *in,
			      const mev_filemap *fm);

/*
 * What storing a release's health found that the next release of a walk
 * can start from: which F:/X:/N: lines match some path, and the path
 * that says so (mev_match_pattern_use_since()).  The answers are the same
 * as without it.
 */
int mev_release_memo_new(mev_release_memo **out);
void mev_release_memo_free(mev_release_memo *m);

/*
 * Store a release: headline numbers (computed from fm and g), the sections,
 * the graph (built with keep_rest), the MAINTAINERS notes and the file
 * table, as a delta against `base` (the previous release, with its tag) or
 * whole when base is NULL or the chain of deltas behind it is long.
 * Replaces a release of the same tag.  MEV_EINVAL for a tag longer than
 * MEV_RELEASE_TAG_MAX.
 */
int mev_release_put(mev_store *s, const mev_release_input *in, const mev_filemap *fm,
		    const mev_graph *g, const mev_filemap *base, const char *base_tag);
/* Store a release that has only a graph (imported; no file table): its
 * files, lines and bytes are those of THE REST's own size in g. */
int mev_release_put_graph(mev_store *s, const mev_release_input *in, const mev_filemap *sections,
			  const mev_graph *g);
/*
 * Store `tag` as a repeat of release `target` (or of the release target
 * repeats): a period with no new commit.  Only its name, commit and time
 * are stored; every reader reads target's records under its name.  A
 * release stored under `tag` before is replaced.  When target is stored
 * again with another commit, its repeats are deleted with it.
 */
int mev_release_put_alias(mev_store *s, const char *tag, const char *target, const mev_oid *commit,
			  int64_t time);
/* 1 when `tag` is stored as a repeat of another release (mev_release_put_alias). */
int mev_release_is_alias(mev_store *s, const char *tag);

/* A stored release whose file table is a delta against another's. */
typedef struct {
	char *tag;
	char *base;          /* the release its table is made against */
} mev_release_base;
/*
 * Every stored release whose file table is a delta, with its base (*out,
 * *n, in no order; free with mev_release_bases_free): a release whose
 * table is replaced, or that becomes a repeat, re-encodes those made
 * against it in the same transaction first, else they would be decoded
 * against another base.  Reads every release record: load it once.
 */
int mev_release_bases(mev_release_base **out, size_t *n, mev_store *s);
void mev_release_bases_free(mev_release_base *v, size_t n);

/* Delete a release as mev_release_delete(), and the releases that repeat
 * it (mev_release_put_alias): a snapshot of a rewritten branch whose
 * period is no longer walked.  The tables that are deltas against it
 * (mev_release_bases) are the caller's to re-encode first. */
int mev_release_drop(mev_store *s, const char *tag);
/* Delete a release's record, file table, notes and patterns (absent is no error). */
int mev_release_delete(mev_store *s, const char *tag);

/*
 * Read back a release's file table (rebuilt from its snapshot and deltas).
 * MEV_ENOTFOUND for an unknown release or one imported as a graph,
 * MEV_ECORRUPT when a table of the chain is damaged or missing.
 */
int mev_release_load_filemap(mev_filemap **out, mev_store *s, const char *tag);
/*
 * Read back a release's graph: *sections gets a file map with its sections
 * (no rows), *g the graph over it (THE REST kept when keep_rest).
 */
int mev_release_load_graph(mev_filemap **sections, mev_graph **g, mev_store *s, const char *tag,
			   int keep_rest);
/*
 * The display names of the sections of stored releases, for readers that
 * hold a release's titles but not its sections (clusterings, events,
 * section changes, lineages).  A title is the section's key (the script's
 * title line); its display name differs only for titles that are not
 * names (mev_title_kind), so a title whose first character other than
 * white space is none of '#', '-' and '=' is its own display name and
 * reads nothing; for the others the release's sections are read once, the
 * first time one is asked for.  Reads see the store as it is then: a
 * reader that needs them to agree with others holds a read snapshot
 * (mev_store_read_begin) while it asks.
 */
typedef struct mev_release_names mev_release_names;

/* An empty cache over `s` (which must outlive it).  Errors: MEV_ENOMEM. */
int mev_release_names_new(mev_release_names **out, mev_store *s);
void mev_release_names_free(mev_release_names *n);

/*
 * The display name of the section titled `title` in release `tag` into
 * *out: valid as long as n (or as `title`, which it may be).  A release
 * not stored, or without a section of that title, gives `title` itself.
 * Errors: MEV_ECORRUPT (the release record is damaged), MEV_ENOMEM.
 */
int mev_release_display(const char **out, mev_release_names *n, const char *tag, const char *title);

/* The stored notes about MAINTAINERS content (none: *n 0); free with
 * mev_release_diags_free(). */
int mev_release_load_diags(char ***out, size_t *n, mev_store *s, const char *tag);
void mev_release_diags_free(char **v, size_t n);

/* One F:, X: or N: line of a section, and where MAINTAINERS has it. */
typedef struct {
	char type;                /* 'F', 'X' or 'N' */
	const char *value;        /* as written (after the colon and white space) */
	const char *file;         /* the MAINTAINERS file, a path in the tree */
	uint32_t line;            /* 1-based */
	const char *regex;        /* the regex the release's get_maintainer.pl matches with
				     (F/X: converted, '/' added by its directory test; N:
				     the value); NULL when the script ignores the line (no
				     N: handling) or the record has none (has_regex 0) */
} mev_pattern_line;

/* The pattern lines of one section, in the order MAINTAINERS has them. */
typedef struct {
	const char *title;        /* the section's title (its key) */
	const char *display;      /* its display name */
	const mev_pattern_line *v;
	size_t n;
} mev_section_patterns;

/* The patterns of a release: its sections (those with pattern lines) in
 * bytewise title order. */
typedef struct {
	mev_section_patterns *v;
	size_t n;
	int has_regex;            /* the lines have their regexes (walked by a maintevo that
				     stores them; 'walk --rebuild' stores them for older ones) */
	int utf8;                 /* the script decodes MAINTAINERS as UTF-8 (mev_rules.utf8), or'ed
				     with MEV_MATCH_RAW for a dialect's whole regexes
				     (mev_rules.regex_patterns): as mev_match_why() takes it */
	void *mem_;               /* owns the strings and lines */
} mev_release_patterns;

/*
 * The stored patterns of `tag` into *out (free with
 * mev_release_patterns_free(), also after a failure).  MEV_ENOTFOUND (no
 * message) when the release has none stored: it was walked by a maintevo
 * before they were kept ('walk --rebuild' stores them), or imported.
 * MEV_ECORRUPT when damaged.
 */
int mev_release_load_patterns(mev_release_patterns *out, mev_store *s, const char *tag);
void mev_release_patterns_free(mev_release_patterns *p);
/* 1 when patterns of `tag` are stored, else 0 (nothing is unpacked). */
int mev_release_has_patterns(mev_store *s, const char *tag);
/* The patterns of the section titled `title` (a binary search), or NULL. */
const mev_section_patterns *mev_release_patterns_find(const mev_release_patterns *p,
						      const char *title);

/* --- the health of a release's MAINTAINERS (record H, table "health") ------- */

/* An F:, X: or N: line that matches no path of the release. */
typedef struct {
	const char *section;      /* the title of its section */
	char type;                /* 'F', 'X' or 'N' */
	const char *value;        /* as written */
	const char *file;         /* the MAINTAINERS file and line it is on */
	uint32_t line;
	uint8_t prefix;           /* 1: some path starts with it, but none has its depth (F/X
				     without a trailing '/': file_match_pattern() takes none, while
				     get_maintainer.pl --self-test passes it); 0: no path even
				     starts with it (what --self-test reports as "no file
				     matches"); for N: always 0 (found in no path) */
} mev_health_pattern;

/* Where a section starts, and whether its title line repeats an earlier one. */
typedef struct {
	const char *title;        /* the section's title (its key) */
	const char *file;
	uint32_t line;
	uint8_t duplicate;        /* its title line is that of an earlier section (--self-test's
				     "duplicate section header"; its key is "TITLE #2") */
} mev_health_section;

/* The code of a directory no section covers (THE REST aside). */
typedef struct {
	const char *dir;          /* "." (files at the top), "drivers/" (level 1) or
				     "drivers/net/" (level 2: the files below it, at any depth) */
	uint8_t level;            /* 0, 1 or 2 */
	uint64_t files, lines;    /* of the directory */
	uint64_t uncovered_files, uncovered_lines;
} mev_health_dir;

typedef struct {
	mev_health_pattern *patterns; /* in MAINTAINERS order */
	size_t npatterns;
	mev_health_section *sections; /* every section, in MAINTAINERS order */
	size_t nsections;
	mev_health_dir *dirs;     /* "." and every level-1 directory; the level-2 ones with
				     uncovered code; by path */
	size_t ndirs;
	/* code of sections whose S: starts with "Orphan" / "Obsolete" (any case): the files
	 * such a section covers (each once), and those no other section covers (THE REST
	 * aside) */
	uint64_t orphan_files, orphan_lines, orphan_only_files, orphan_only_lines;
	uint64_t obsolete_files, obsolete_lines, obsolete_only_files, obsolete_only_lines;
	/* the MAINTAINERS files of the tree (files named exactly MAINTAINERS, in any
	 * folder) that the release's script does not read, in tree order: their
	 * sections are not the release's (U-Boot v2021.10: board/ (511 files);
	 * `walk --files-as` reads them); unread_known 0 when the record does not say
	 * (written before issue 40: 'walk --rebuild' writes it) */
	const char **unread;
	size_t nunread;
	uint8_t unread_known;
	void *mem_;
} mev_release_health;

/*
 * The health record of `tag` into *out (free with mev_release_health_free(),
 * also after a failure): written by the walk with the release (it needs the
 * tree: the lines that match no path are tested on every path of it, and
 * their regexes carry the script's directory test).  MEV_ENOTFOUND (no
 * message) when the release has none: walked by a maintevo before issue 12
 * ('walk --rebuild' writes it), or imported.  MEV_ECORRUPT when damaged.
 */
int mev_release_load_health(mev_release_health *out, mev_store *s, const char *tag);
void mev_release_health_free(mev_release_health *h);

/* Whose history a store holds; checked by every walk. */
typedef struct {
	uint32_t schema;
	char repo[1024];     /* repository path when created (informational) */
	mev_oid root;        /* a root commit of the first walked release */
	char dialect[16];    /* as chosen or detected */
	char tags[512];      /* --tags globs, '\n'-separated ("" = dialect default) */
	char exclude[512];   /* --exclude globs, '\n'-separated */
	int rc;              /* -rc tags included */
	int top_level_only;
	char files_as[64];   /* walk --files-as: every release's MAINTAINERS files found as
				this release's script finds them ("": each release's own) */
	int64_t created;     /* seconds since the epoch */
	char version[32];    /* maintevo version that created it */
	/* dated snapshots (walk --branch): none when branch is "" */
	char branch[256];    /* the branch followed */
	int every;           /* mev_every: how often */
	int64_t since;       /* the first day's first second (UTC), 0: from the first commit */
	int tags_too;        /* the release tags are walked too */
	char line[64];       /* walk --line: the maintenance line walked ("" = the line of development) */
} mev_identity;

/* The dialect recorded in the identity of a store made by an import
 * (mev_import_pasta): such a store has no repository, and walks refuse it. */
#define MEV_IMPORT_DIALECT "imported"

/* MEV_ENOTFOUND (no message) when the store has no identity yet (never walked). */
int mev_release_identity_get(mev_identity *out, mev_store *s);
/* 1 when the store was walked with --top-level-only: its releases leave the
 * other MAINTAINERS files unread because the user asked, so readers do not
 * mark them (mev_release_health.unread); 0 otherwise, also without an
 * identity or with a damaged one (the error is cleared). */
int mev_release_reads_top_level_only(mev_store *s);
/* Inside a write transaction; `created` 0 is now, `version` "" this build's. */
int mev_release_identity_set(mev_store *s, const mev_identity *id);
/*
 * The repository `repo`, opened from `path` (a command's --repo), holds the
 * commits of every release of store s: 0.  Else MEV_ESTORE with a message
 * naming the repository, how many commits it lacks and the first release
 * whose commit it lacks (with the commit), and a hint naming the
 * repository the store was walked from: a command reading the releases'
 * trees said "object not found" before.  Errors: those of
 * mev_release_list().
 */
int mev_release_repo_holds(mev_repo *repo, const char *path, mev_store *s);

/* --- checking and repairing what the release module stores ---------------- */

/* The tables the release module writes (and checks): the records above,
 * the identity under "meta", the blob sizes.  NULL-terminated. */
extern const char *const mev_release_tables[];

/* One damaged record. */
typedef struct {
	char *table;     /* "releases", "tables", "diags", "patterns", "blobs" or "meta" */
	char *key;       /* its key as text: a tag, a blob id in hex, "identity" */
	char *tag;       /* the release it takes out (a repair drops it), or NULL */
	char *what;      /* what is wrong */
	size_t order;    /* found as the order-th */
} mev_release_damage;

typedef struct {
	mev_release_damage *v;   /* by release in version order, then the others */
	size_t n;
	size_t releases;         /* release records checked */
	uint64_t records;        /* records checked, blob sizes included */
	uint64_t blobs_unchecked;/* blob sizes without a check (from before it): not used */
	int identity;            /* the identity is damaged: a repair drops every release */
	size_t dropped;          /* releases a repair dropped */
} mev_release_check_result;

/* Also rebuild every file table from its chain, and check every blob size. */
#define MEV_RELEASE_CHECK_FULL 1u

/*
 * Check what the release module stores, record by record, and list the
 * damaged records in *out (free with mev_release_check_free()).  Every
 * release record is read whole (numbers, sections, graph), its notes, its
 * file table unpacked and parsed; a release whose file table is a delta
 * against a damaged (or absent) one is listed too, as is a file table or
 * notes record without its release.  With MEV_RELEASE_CHECK_FULL every
 * file table is also rebuilt from its chain and every blob size checked.
 * All is read from one snapshot (a walk may write meanwhile).
 * Damage is no error: the function fails only when the store cannot be
 * read (MEV_ESTORE, MEV_ENOMEM).
 */
int mev_release_check(mev_release_check_result *out, mev_store *s, unsigned flags);
void mev_release_check_free(mev_release_check_result *r);

/*
 * mev_release_check(), then drop, in one write transaction, every release
 * it lists (all its records) and every damaged blob size, so that the next
 * walk computes them again; a damaged identity drops every release with it.
 * out->dropped says how many releases went.  Needs the writer's lock.
 */
int mev_release_repair(mev_release_check_result *out, mev_store *s, unsigned flags);

/*
 * Lines and bytes of a blob measured before ("blobs", each value with a
 * check of its own): 1 and the sizes, or 0 when unknown (never measured,
 * or stored by a maintevo before the check: measure it).  MEV_ECORRUPT,
 * the message naming the blob, when the stored value is damaged: the
 * sizes are not to be used; measure the blob again and put them anew.
 */
int mev_release_blob_get(uint64_t *lines, uint64_t *bytes, mev_store *s, const mev_oid *oid);
/* The same through a view of table "blobs" (mev_store_view, begun):
 * 1 and the sizes, 0 when unknown, -1 when damaged (left to a
 * mev_release_blob_get, which says so). */
int mev_release_blob_peek(uint64_t *lines, uint64_t *bytes, mev_store_view *v, const mev_oid *oid);
/* Inside a write transaction. */
int mev_release_blob_put(mev_store *s, const mev_oid *oid, uint64_t lines, uint64_t bytes);

#endif
