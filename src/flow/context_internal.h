/*
 * Inside the MAINTAINERS contexts of patch flow (context.c, derive.c): the
 * sets kept, the states of commits, and the plans to derive a set from its
 * parent's.
 */
#ifndef MEV_FLOW_CONTEXT_INTERNAL_H
#define MEV_FLOW_CONTEXT_INTERNAL_H

#include "flow_internal.h"

/* The directory test's answer for an F:/X: value, in mev__flow_ctx.cand. */
enum { CAND_NOT = 1, CAND_DIR = 2, CAND_OTHER = 3 };
/* Flags of a derived set's known answers (known_dirs()). */
enum { KNOWN_ADDED = 1, KNOWN_RETEST = 8 };

/* Parsed sets kept at a time (a U-Boot set takes some megabytes). */
#define KEEP_PARSED 48
#define STATE_DIRTY 0xffffffffu
/* MAINTAINERS bytes kept read (U-Boot: about 1 MB a set, mostly shared) */
#define BLOB_CACHE ((size_t)32 << 20)

/* A set to derive: from context `from`, with edits[first..first+n). */
struct plan {
	uint32_t from, first, n;
};

/* A file of the parent's set read from another blob ('M'), no longer read
 * ('D'), a file the set now reads too ('A', at its place in File::Find's
 * order), or a path whose directory test answers otherwise now ('T'). */
struct edit {
	char status;
	uint32_t src;  /* 'M', 'D': index into the parent's sources */
	uint32_t path; /* 'A', 'T': offset into edit_paths */
	mev_oid oid;   /* 'M', 'A': the blob */
};

struct mev__flow_contexts {
	mev__flow_env *env;
	MEV_VEC(mev__flow_ctx *) ctxs; /* by id; NULL once evicted */
	MEV_VEC(mev_rules) rules;      /* by id */
	mev_strmap states;             /* 20-byte commit id -> ctx id or STATE_DIRTY */
	mev_tree *cursor;              /* the last tree read whole */
	/* MAINTAINERS blobs read before: a new set mostly reads the same ones */
	mev_strmap blob_ids;           /* 20-byte blob id -> index into blobs */
	MEV_VEC(mev_maint_input) blobs; /* data owned (malloc'ed), path unused */
	size_t blob_bytes;
	uint64_t clock;
	size_t alive;
	/* commits whose set can be derived: 20-byte id -> index into plans */
	mev_strmap plan_of;
	MEV_VEC(struct plan) plans;
	MEV_VEC(struct edit) edits;
	mev_buf edit_paths;       /* NUL-terminated paths of 'A' and 'T' edits */
	mev_pattern_pool *pool;   /* the patterns of every set, compiled once */
};

/* --- context.c ------------------------------------------------------------------- */

/* Parse the files src[0..n) (tree: the directory test; NULL: none), their
 * blobs read once for the run. */
int mev__flow_parse_set(mev_maint **out, mev__flow_contexts *c, const mev_rules *rules,
			const mev_tree *tree, const mev_maint_source *src, size_t n);
/* A context of the parsed set `maint` (taken over, also on failure). */
int mev__flow_ctx_build(mev__flow_ctx **out, mev__flow_contexts *c, mev_maint *maint,
			const char *key, const mev_maint_source *src, size_t n);
/* Per section of m: the ids of its fields of `type` (M, R: lowercased
 * emails; T: URLs) into *off (section count + 1) and *ids. */
int mev__flow_field_lists(uint32_t **off, uint32_t **ids, const mev_maint *m,
			  mev__flow_strings *s, char type);
/* The F:/X: values of m without a trailing '/' and without glob or dot (the
 * paths the directory test could turn into "value/"), with its answer. */
int mev__flow_candidates(mev_strmap *cand, const mev_maint *m);
/* Copy the sources src[0..n) into x, with a path index. */
int mev__flow_keep_sources(mev__flow_ctx *x, const mev_maint_source *src, size_t n);
/* Free context x (not kept: one that failed, or evicted). */
void mev__flow_ctx_discard(mev__flow_ctx *x);
/* Keep the new context x (rules r) as *id (the least used may be evicted). */
int mev__flow_ctx_add(uint32_t *id, mev__flow_contexts *c, mev__flow_ctx *x, const mev_rules *r);
/* The key of a MAINTAINERS set: its files and blobs in reading order. */
int mev__flow_sources_key(mev_buf *key, const mev_maint_source *src, size_t n);
/* 1 when the path of ch is below a path the directory test looked at. */
int mev__flow_below_tested(const mev__flow_ctx *x, const mev_change *ch);

/* The directory test of a derived set (mev__flow_lazy_is_dir()). */
typedef struct {
	mev_repo *repo;
	const mev_oid *commit;
	/* the parent set's F:/X: regexes -> KNOWN_* flags: those of the set
	 * parsed whole below it (kept with it), and those of its own files and
	 * the paths to test again */
	const mev_strmap *base_known;
	mev_strmap known;
	int whole;                /* a test needs the whole tree */
} mev__flow_dir_test;

/* --- derive.c -------------------------------------------------------------------- */

/* The set of `commit` from plan pl: *id, or UINT32_MAX when the whole tree
 * must be read after all. */
int mev__flow_derive(uint32_t *id, mev__flow_contexts *c, const struct plan *pl,
		     const mev_oid *commit);
/* Change ch (it matters) as an edit of x's set (rules r) in commit
 * `child`: 1 added to the edits, 0 not derivable, negative on failure. */
int mev__flow_derivable_edit(mev__flow_contexts *c, const mev__flow_ctx *x, const mev_rules *r,
			     const mev_change *ch, const mev_oid *child);
/* The directory test of a derived set, for mev_maint_set_dirs() (ctx: a
 * mev__flow_dir_test): the parent's answers where they hold, else the
 * commit's git tree; -1 with d->whole set when the whole tree must answer. */
int mev__flow_lazy_is_dir(void *ctx, const char *path, size_t len);
/* A file added or deleted below tested paths: 0 the same answers in child,
 * 1 'T' edits added, -1 the whole tree must answer, below -1 a failure. */
int mev__flow_retest(mev__flow_contexts *c, const mev__flow_ctx *x, const mev_change *ch,
		     const mev_oid *child);

/* --- splice.c -------------------------------------------------------------------- */

/* The set of plan pl spliced onto the set parsed whole below p, when the
 * plan only edits files and their sections still line up with the base's
 * (src[0..n): the edited sources; dt: the directory test): *id, or *id
 * UINT32_MAX when it cannot be spliced (derive it whole).  Negative on
 * failure. */
int mev__flow_splice(uint32_t *id, mev__flow_contexts *c, const mev__flow_ctx *p,
		     const mev_rules *r, const struct plan *pl, const mev_maint_source *src,
		     size_t n, mev__flow_dir_test *dt);

#endif
