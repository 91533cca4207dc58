/* Inside src/flow/: message parsing, MAINTAINERS contexts, the record codec. */
#ifndef MEV_FLOW_INTERNAL_H
#define MEV_FLOW_INTERNAL_H

#include "maintevo/commit.h"
#include "maintevo/flow.h"
#include "maintevo/match.h"
#include "maintevo/release.h"
#include "util/buf.h"
#include "util/strmap.h"

#include <stddef.h>
#include <stdint.h>

/* --- messages (trailers.c) ------------------------------------------------------- */

typedef struct {
	const char *p;
	size_t len;
} mev__flow_span;

typedef int (*mev__flow_trailer_fn)(void *ctx, mev_trailer_kind kind, const char *v, size_t len);

/* Call fn for every kept trailer of the message's trailer block (git
 * interpret-trailers' rules), value trimmed; fn's non-zero return stops. */
int mev__flow_trailers(const char *msg, size_t len, mev__flow_trailer_fn fn, void *ctx);
/* "Name <email>" (or a bare address) into its parts, trimmed. */
void mev__flow_ident(mev__flow_span *name, mev__flow_span *email, const char *v, size_t len);
/* A repository URL normalised: no scheme, no user@, lowercase host, no
 * trailing '/' or '.git'; "host:path" as "host/path". */
int mev__flow_url(mev_buf *out, const char *s, size_t len);
/* The tree a merge subject names, normalised ("" when it names none). */
int mev__flow_merge_tree(mev_buf *out, const char *subject, size_t len);
/* The URL of a T: value ("git URL [branch]"), normalised. */
int mev__flow_tline(mev_buf *out, const char *v, size_t len);

/* --- strings of a run: one intern for emails, URLs ------------------------------- */

typedef struct {
	mev_strmap map;
	MEV_VEC(const char *) v;
	mev_arena arena;
} mev__flow_strings;

int mev__flow_intern(uint32_t *id, mev__flow_strings *s, const char *p, size_t len);
void mev__flow_strings_free(mev__flow_strings *s);

/* --- MAINTAINERS contexts (context.c) -------------------------------------------- */

/* One MAINTAINERS set and what verdicts need of it: parsed whole, or
 * spliced onto a parsed set (splice.c). */
typedef struct mev__flow_ctx mev__flow_ctx;
struct mev__flow_ctx {
	uint32_t id;
	char *key;                /* rules + sources (NULL when spliced) */
	mev_maint *maint;         /* NULL when spliced */
	mev_matcher *matcher;     /* NULL when spliced */
	const char **titles;      /* per section: its title (the key) */
	uint32_t nsec;
	uint32_t rest;            /* index of THE REST (UINT32_MAX: none) */
	/* per section: M:, R: emails (lowercased, raw ids in the run's strings), T: URLs */
	uint32_t *m_off, *r_off, *t_off; /* nsec + 1 */
	uint32_t *m_ids, *r_ids, *t_ids;
	mev_strmap cand;          /* F:/X: values the directory test may turn (no trailing '/');
				     spliced: those of `own`, the base's hold too */
	mev_maint_source *src;    /* the files read, in order, and their blobs */
	size_t nsrc;
	mev_strmap src_paths;     /* path -> index into src */
	uint64_t used;            /* LRU stamp */
	/* per release: person -> sections they are an M: / R: of (built on demand) */
	uint32_t stamp;           /* release the index below is for */
	mev_strmap by_m;          /* canonical email -> index into m_lists */
	MEV_VEC(uint32_t) m_lists; /* n, ids... */
	mev_strmap by_r;
	MEV_VEC(uint32_t) r_lists;
	uint32_t *title_ids;      /* per section: id in the release record's strings (+1; 0 unknown) */
	/* spliced: the sections of the base's files this set still reads, and
	 * those of the files that differ from the base's, numbered in reading
	 * order as a whole parse numbers them */
	mev__flow_ctx *base;      /* the set parsed whole below (pinned); NULL: this one is */
	uint32_t pins;            /* spliced sets on this one (never evicted while > 0) */
	mev_maint *own;           /* the files that differ from the base's, parsed alone */
	mev_matcher *own_matcher;
	uint32_t *base_new;       /* per base section: its number here (UINT32_MAX: gone) */
	uint32_t *own_new;        /* per section of own: its number here */
	MEV_VEC(uint32_t) hits;   /* the last matches (mev__flow_match()) */
	/* a base: its titles -> section (built at the first splice), and
	 * whether every section's lines lie in its own file (-1: not known) */
	mev_strmap title_map;
	int apart;
	mev_strmap known;         /* a set parsed whole: its F:/X: regexes (derive.c; built
				     when a set is first derived from it) */
	int known_built;
};

typedef struct mev__flow_contexts mev__flow_contexts;

/* What the contexts need of the run. */
typedef struct {
	mev_repo *repo;
	mev_rules_options rules;
	mev_rules files_as;       /* the store's walk --files-as rules (rules.files_as) */
	mev__flow_strings *strings;
	int whole_trees;          /* never derive a set (--whole-trees) */
	uint64_t parses, full, derived, spliced; /* counters */
	mev_buf note;             /* the last note, for the caller ("" when none) */
} mev__flow_env;

int mev__flow_contexts_new(mev__flow_contexts **out, mev__flow_env *env);
/* env->repo and env->rules as the store's walk read its releases: its
 * dialect, --top-level-only and --files-as (identity `id`).  Errors: as
 * mev_rules_files_as(). */
int mev__flow_env_rules(mev__flow_env *env, mev_repo *repo, const mev_identity *id);
void mev__flow_contexts_free(mev__flow_contexts *c);
/*
 * The context of `commit` (the MAINTAINERS its get_maintainer.pl reads) into
 * *out; NULL-free: a tree without MAINTAINERS has a context with no sections.
 * Known states are reused; otherwise the tree is read.
 */
int mev__flow_context_of(mev__flow_ctx **out, mev__flow_contexts *c, const mev_oid *commit);
/* The sections of x covering `path` (sorted; valid until the next call). */
int mev__flow_match(const uint32_t **ids, size_t *n, mev__flow_ctx *x, const char *path,
		    size_t len);
/* The F:/X: value `p` the directory test of x looked at: its answer, or -1. */
int64_t mev__flow_cand(const mev__flow_ctx *x, const char *p, size_t len);
/* Record the state of `child` from its first parent's and the changes
 * between them (the child is read whole later when a change may matter). */
int mev__flow_inherit(mev__flow_contexts *c, const mev_oid *child, const mev_oid *parent,
		      const mev_change_list *changes);
/* (people_index.c) Make ctx ready for release `stamp`: its person -> sections index with
 * canon[] (raw email id -> canonical id, covering every id ctx holds), and
 * its title ids cleared. */
int mev__flow_ctx_prepare(mev__flow_ctx *x, uint32_t stamp, const uint32_t *canon);
/* (people_index.c) The canonical id of raw address `raw` (a lowercased M:/R:
 * address or a commit's email): through .mailmap mm by address alone, then
 * lowercased and interned in s (buf: scratch).  The one folding of flow:
 * verdicts, people and rosters all go through it. */
int mev__flow_fold(uint32_t *id, mev__flow_strings *s, mev_buf *buf, const mev_mailmap *mm,
		   const char *raw);
/* The sorted sections ctx lists canonical person `person` as M: (reviewer:
 * R:) of (after mev__flow_ctx_prepare()): *ids, their number returned. */
size_t mev__flow_person_sections(const uint32_t **ids, const mev__flow_ctx *x, uint32_t person,
				 int reviewer);

/* --- one release being judged (judge.c, routes.c) ---------------------------------- */

typedef struct {
	mev__flow_strings str;           /* titles, paths, trees, links of the release */
	mev_strmap people_map;           /* canonical id (4 bytes) -> person */
	MEV_VEC(mev_flow_person) people;
	MEV_VEC(uint32_t) people_canon;  /* per person: the canonical id (run strings) */
	mev_strmap set_map;              /* sorted string ids -> set */
	MEV_VEC(uint32_t) set_off;
	MEV_VEC(uint32_t) set_ids;
	MEV_VEC(mev_flow_commit) commits;
	MEV_VEC(mev_flow_trailer) trailers;
	MEV_VEC(uint32_t) paths;
	MEV_VEC(mev_flow_route) routes;
	MEV_VEC(const char *) notes;
	size_t notes_dropped;
	uint64_t merges;
	mev_arena arena;
} mev__flow_builder;

/* What a run keeps from release to release. */
typedef struct {
	mev_repo *repo;
	mev__flow_env env;
	mev__flow_strings strings;       /* emails (raw and canonical), URLs */
	mev__flow_contexts *ctxs;
	mev_mailmap *mm;                 /* the release's .mailmap */
	MEV_VEC(uint32_t) canon;         /* string id -> canonical email id (UINT32_MAX: not yet) */
	size_t canon_done;               /* canon[0..canon_done) are computed */
	uint32_t stamp;                  /* the release being judged (1, 2, ...) */
	int churn;
	mev__flow_builder b;
	MEV_VEC(uint32_t) scratch;
	mev_buf buf;
} mev__flow_runner;

int mev__flow_builder_init(mev__flow_builder *b);
void mev__flow_builder_free(mev__flow_builder *b);
/* A note about the release (kept up to a limit, then counted). */
int mev__flow_note(mev__flow_runner *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Canonical ids for every string of the run (after the release's .mailmap). */
int mev__flow_canon(mev__flow_runner *r);
/*
 * The route of every commit of the range commits[0..n) (topological order,
 * parents first; the tip last): route_of[i] gets 0 for a commit on the
 * first-parent line of the tip, else the index (in r->b.routes) of the
 * merge on that line that brought it in.  Adds the routes.
 */
int mev__flow_routes(uint32_t *route_of, mev__flow_runner *r, const mev_commit *commits, size_t n);
/* Judge non-merge commit c (its parent's context ctx, NULL when unknown)
 * and add it to the release. */
int mev__flow_judge(mev__flow_runner *r, const mev_commit *c, uint32_t route, mev__flow_ctx *ctx,
		    const mev_change_list *ch);
/* The M: and R: counts of every person of the release, from ctx (the
 * release's own MAINTAINERS). */
int mev__flow_workload(mev__flow_runner *r, mev__flow_ctx *ctx);
/* The builder's arrays as a release (borrowed: valid while the builder is). */
void mev__flow_view(mev_flow_release *out, mev__flow_builder *b);

/* --- each release's commits and their changes, read ahead (readahead.c) ---------- */

typedef struct mev__flow_ahead mev__flow_ahead;
/* A second thread with its own handle of the repository at repo_path
 * (its libgit2 cache emptied past `trim` bytes: mev_repo_trim_cache()). */
int mev__flow_ahead_new(mev__flow_ahead **out, const char *repo_path, int churn, size_t trim);
/* Start reading the ranges r < n, in order: the commits reachable from
 * cur[r] and from none of hide[hide_off[r] .. hide_off[r + 1]) (as 'git log
 * CUR --not HIDE...' lists them, topological, parents first) and their
 * changes against their first parents (with churn for non-merges when
 * asked), at most one range ahead of the judging. */
int mev__flow_ahead_start(mev__flow_ahead *a, const mev_oid *hide, const size_t *hide_off,
			  const mev_oid *cur, size_t n);
/* The commits of range r (waiting for them; r = 0, 1, ... in turn): valid
 * until the next call.  The range before is freed. */
int mev__flow_ahead_commits(const mev_commit **commits, size_t *n, mev__flow_ahead *a, size_t r);
/* Store (or, when it left nothing out, delete) what the cut left out of a
 * range: the value mev_flow_load_cut() reads. */
int mev__flow_cut_put(mev_store *s, const char *tag, int before, const mev_range_cut *cut);
/* What a shallow clone's cut left out of range r (after its commits). */
void mev__flow_ahead_cut(mev_range_cut *cut, const mev__flow_ahead *a, size_t r);
/* The changes of commit i of the range asked for last (waiting for them)
 * into *ch, owned by the caller; *no_churn 1 when a missing blob made them
 * lose their churn.  Returns what computing them returned, with its
 * message. */
int mev__flow_ahead_take(mev_change_list *ch, int *no_churn, mev__flow_ahead *a, size_t i);
/* Stop the thread and free what was not taken (the handle stays). */
void mev__flow_ahead_finish(mev__flow_ahead *a);
void mev__flow_ahead_free(mev__flow_ahead *a);

/* --- the record (flow_record.c) --------------------------------------------------- */

/* What the index (MEV_FLOW_INDEX_TABLE) holds of a release's stored flow. */
typedef struct {
	char *prev;          /* the release before it */
	int rules_ok;        /* judged by MEV_FLOW_RULES */
	uint64_t earlier;    /* mev__flow_earlier() of the releases before it */
	mev_oid *hidden;     /* the commits its range hid, sorted */
	size_t n_hidden;
	mev_oid commit;      /* the release's own commit, when has_commit (since
			      * issue 38: a moved tag, a rewritten branch) */
	int has_commit;
} mev__flow_index;
/* 1 and *x when stored, 0 when not; MEV_ECORRUPT when it does not decode. */
int mev__flow_index_read(mev__flow_index *x, mev_store *s, const char *tag);
void mev__flow_index_clear(mev__flow_index *x);
int mev__flow_index_encode(mev_buf *b, const char *prev, uint64_t earlier, const mev_oid *hidden,
			   size_t n_hidden, const mev_oid *commit);

/* --- the commits no earlier release holds (hidden.c) ------------------------------ */

/* The fingerprint of a list of commits, one added at a time (FNV-1a);
 * start with MEV__FLOW_EARLIER_INIT. */
#define MEV__FLOW_EARLIER_INIT 14695981039346656037ULL
uint64_t mev__flow_earlier(uint64_t h, const mev_oid *commit);
/*
 * Add release commit t to the sorted set (*set, *n) of the earlier
 * releases' commits that no other of them holds (the tips a range hides):
 * those t descends from leave, t comes in unless one of them holds it.
 */
int mev__flow_hidden_add(mev_oid **set, size_t *n, mev_repo *repo, const mev_oid *t);

/* Encode a release's flow (r's arrays) into b. */
int mev__flow_encode(mev_buf *b, const mev_flow_release *r);
/* Decode a record; MEV_ECORRUPT when it does not decode. */
int mev__flow_decode(mev_flow_release **out, const void *data, size_t len);

#endif
