/* Inside the tracker: what the files of src/track/ share (exposed for the unit tests too). */
#ifndef MEV_TRACK_INTERNAL_H
#define MEV_TRACK_INTERNAL_H

#include "maintevo/track.h"
#include "maintevo/filemap.h"
#include "maintevo/graph.h"
#include "maintevo/release.h"
#include "util/buf.h"
#include "util/strmap.h"
#include "util/varint.h"

/* Slack for comparing similarities and shares computed in doubles. */
#define MEV__TRACK_EPS 1e-12

/* --- linking two releases' clusters (link.c) ----------------------------- */

typedef struct mev__track_rel mev__track_rel;

/* Common weight of cluster a of the older and cluster b of the newer
 * release (mean lines of the items both cover), and those items' lines in
 * the older (wo) and the newer release (wn). */
typedef struct {
	uint32_t a, b;
	double w, wo, wn;
} mev__overlap;

typedef struct {
	size_t na, nb;                 /* clusters of the older and the newer release */
	const double *ca, *cb;         /* weight of each cluster's items present in both */
	const uint64_t *la, *lb;       /* cluster sizes in lines */
	const char *const *rep_a, *const *rep_b; /* representatives (for ties) */
	const mev__overlap *ov;        /* overlaps on code (or titles weighted by lines) */
	size_t nov;
	const double *ta, *tb;         /* second chance: number of titles present in both */
	const mev__overlap *tov;       /* overlaps in titles (count) */
	size_t ntov;
	const uint32_t *lin_a;         /* lineage of each cluster of the older release */
	uint32_t next_lineage;         /* first unused lineage id */
} mev__pair_in;

typedef struct {
	mev_event_kind kind;
	uint32_t a, b;                 /* MEV_CLUSTER_NONE for the missing side */
	double sim;
	double share;                  /* a link: share of a's lines that b holds */
	uint32_t partner;              /* birth: the older cluster holding most of b's code;
					  death: the newer cluster holding most of a's code;
					  MEV_CLUSTER_NONE: none */
	double partner_share;          /* of b's (birth) or a's (death) lines */
	/* a bridge (a == MEV_CLUSTER_NONE): cluster gap_a of release gap_rel,
	 * the last one the lineage was in before the gap (bridge.c) */
	const mev__track_rel *gap_rel;
	uint32_t gap_a;
} mev__link;

typedef struct {
	mev__link *links;              /* sorted by (a, b), missing sides last */
	size_t nlinks;
	uint32_t *lin_b, *par_b;       /* per cluster of the newer release */
	uint32_t next_lineage;
} mev__pair_out;

/*
 * Link two releases' clusters: a pair is linked when its Jaccard similarity
 * is at least p->link and one is the other's most similar partner holding at
 * least p->match of its weight.  Clusters with no link by code get a second
 * chance on section titles.  Then events and lineages (see
 * docs/tracking.md).  Errors: MEV_ENOMEM.
 */
int mev__track_pair(mev__pair_out *out, const mev__pair_in *in, const mev_track_params *p);
void mev__pair_out_free(mev__pair_out *o);

/* --- a release as the tracker sees it ------------------------------------ */

struct mev__track_rel {
	const char *tag;
	mev_oid commit;
	int has_files;
	mev_clustering *cl;
	uint64_t cl_fp;          /* clustering fingerprint */
	uint64_t rel_fp;         /* graph fingerprint and commit */
	mev_filemap *sec;        /* sections (no rows) and ... */
	mev_graph *g;            /* ... the graph, THE REST left out */
	mev_filemap *fm;         /* file table (loaded when needed) */
	uint64_t *cl_lines;      /* per cluster: lines covered (when computed) */
	const char **reps;       /* per cluster: representative title */
	uint32_t *lineage, *parent; /* per cluster */
	uint32_t next_lineage;   /* after this release */
	mev_release_patterns pat; /* its patterns (pat_state 1) */
	int pat_state;           /* 0: not read yet, 1: read, -1: none stored */
	uint32_t *died;          /* lineages of its clusters that die in the pair after it */
	size_t ndied;            /* (known once that pair is tracked; bridge.c) */
};

/* --- overlaps on code and titles (overlap.c) ----------------------------- */

/* Cluster sizes into r->cl_lines: each file's lines once per cluster
 * covering it when r has a file table (r->fm loaded), else the sum of the
 * sections' lines.  Errors: MEV_ENOMEM. */
int mev__cluster_lines(mev__track_rel *r);

/* Sparse accumulation of weights per (a, b). */
typedef struct {
	mev_strmap idx;
	MEV_VEC(mev__overlap) v;
} mev__overlap_sums;

#define MEV__OVERLAP_SUMS_INIT { MEV_STRMAP_INIT, { 0 } }
int mev__overlap_sums_add(mev__overlap_sums *acc, uint32_t a, uint32_t b, double w, double wo, double wn);
void mev__overlap_sums_free(mev__overlap_sums *acc);

/* Per pair of section sets (older, newer): the files they share. */
typedef struct {
	uint32_t sa, sb;
	double w;          /* mean lines */
	uint64_t old_lines, new_lines;
} mev__set_pair;

typedef MEV_VEC(mev__set_pair) mev__set_pair_vec;

/* The set pairs of the files present in both releases (by path; both file
 * tables loaded).  Errors: MEV_ENOMEM. */
int mev__set_pairs(mev__set_pair_vec *out, const mev__track_rel *ra, const mev__track_rel *rb);

/* Overlaps on code: every common file adds its weight to each pair of
 * clusters covering it in the two releases (and to each one's ca, cb). */
int mev__overlaps_code(mev__overlap_sums *acc, double *ca, double *cb, const mev__track_rel *ra,
		       const mev__track_rel *rb, const mev__set_pair *sp, size_t nsp);

/* Titles present in both releases (THE REST left out): index pairs. */
typedef struct {
	uint32_t a, b;
} mev__title_pair;

typedef MEV_VEC(mev__title_pair) mev__title_pair_vec;

int mev__common_titles(mev__title_pair_vec *out, const mev__track_rel *ra, const mev__track_rel *rb);

/* Overlaps on titles: weighted by the mean of the sections' lines, or by 1. */
int mev__overlaps_titles(mev__overlap_sums *acc, double *ca, double *cb, const mev__track_rel *ra,
			 const mev__track_rel *rb, const mev__title_pair *tp, size_t ntp, int by_lines);

/*
 * Link the clusters of ra to those of rb (both with cl, cl_lines, reps,
 * sec and, for code, fm loaded; ra with lineage and next_lineage): the
 * overlaps on code (code: sp holds the set pairs) or on section titles, a
 * second chance on titles, then mev__track_pair().  Errors: MEV_ENOMEM.
 */
int mev__pair_link(mev__pair_out *po, const mev__track_rel *ra, const mev__track_rel *rb,
		   const mev__set_pair_vec *sp, int code, const mev_track_params *tp);

/* --- bridging short gaps (bridge.c; docs/tracking.md "Gaps") ------------- */

/*
 * Turn births of po (the pair ra -> rb) into bridges: older[g - 1] is the
 * release g releases before ra (g = 1 .. nolder, nolder <= tp->gap), with
 * cl, cl_lines, reps, lineage, died and, when it and rb have file tables,
 * fm.  A born cluster of
 * rb continues the lineage of a cluster of older[g - 1] that died in the
 * pair after it and has not come back since, when the two are linked by
 * the tracker's rule (Jaccard >= link, one holding >= match of the other)
 * on what the two releases share (files when both fm are loaded, else
 * titles weighted by lines); the closest
 * release first, then the most similar pairs.  The lineages po gave the
 * clusters of rb are renumbered so that ids stay consecutive
 * (first_new: ra->next_lineage).  Errors: MEV_ENOMEM.
 */
int mev__bridge(mev__pair_out *po, const mev__track_rel *ra, const mev__track_rel *rb,
		const mev__track_rel *const *older, size_t nolder, const mev_track_params *tp);

/* r->died from the events record (data) of the pair after r.  Errors:
 * MEV_ECORRUPT, MEV_ENOMEM. */
int mev__bridge_died(mev__track_rel *r, const void *data, size_t len, const char *tag);

/* --- support (support.c) ---------------------------------------------------- */

/* "<result key>/support:runs=R:noise=X\0<tag>" (table "events"); tag NULL:
 * the prefix.  Record: uv version, uv hash of the events record, uv n, n
 * times uv runs that found the event. */
int mev__support_key(mev_buf *k, const mev_cluster_params *cp, const mev_track_params *tp,
		     const char *tag);

/*
 * Compute and store the support of every pair of the chain whose events
 * record has no fitting support record (docs/tracking.md "Support"), the
 * perturbed runs shared out over `jobs` worker processes (each opens the
 * store read-only itself; only the caller writes).
 * *computed: pairs computed.  Errors: the store's, the clustering's,
 * MEV_EINTR when *stop is set.
 */
int mev__track_support(size_t *computed, mev_store *s, const mev_cluster_params *cp,
		       const mev_track_params *tp, const mev_release *const *chain, size_t n, int jobs,
		       int lockfd, volatile int *stop);

/* --- section changes (sections.c) ---------------------------------------- */

typedef struct {
	mev_section_change_kind kind;
	const char *section, *new_section;
	uint64_t lines;
	double coverage;
} mev__change;

typedef MEV_VEC(mev__change) mev__change_vec;

/*
 * Sections added, removed and renamed from ra to rb, sorted by kind and
 * title (strings borrowed from ra and rb).  sp: the set pairs when both
 * have file tables (rename by code), NULL for rename by titles.
 * Errors: MEV_ENOMEM.
 */
int mev__section_changes(mev__change_vec *out, const mev__track_rel *ra, const mev__track_rel *rb,
			 const mev__set_pair *sp, size_t nsp, const mev_track_params *p);

/* --- causes (cause.c, cause_rec.c; docs/tracking.md "Causes") ------------------ */

/* What the causes of a pair's events are computed from. */
typedef struct {
	const mev__track_rel *ra, *rb;  /* cl, sec, reps, cl_lines, lineage; fm when code */
	const mev__link *links;         /* the pair's events, in the order stored */
	size_t nlinks;
	const mev__change *ch;          /* the pair's section changes */
	size_t nch;
	const mev_release_patterns *pa, *pb; /* NULL: not stored */
	int code;                       /* both file tables loaded */
} mev__cause_in;

/* Cause kinds as stored (uv kind + 1; 0: no cause computed for the event). */
enum {
	MEV__CAUSE_NONE = 0,
	MEV__CAUSE_MAINTAINERS,
	MEV__CAUSE_CODE,
	MEV__CAUSE_BOTH,
	MEV__CAUSE_UNKNOWN,
	MEV__CAUSE_KINDS
};
const char *mev__cause_kind_name(int kind);

/* The cause of one event as computed (items and strings borrowed from the
 * pair's inputs or owned by the builder). */
typedef struct {
	int wanted;                     /* 0: no cause for this kind of event */
	int kind;                       /* MEV__CAUSE_* */
	int code_counts;                /* the code part explains the event */
	mev_cause c;                    /* items in c.v */
	char *sentence;
} mev__event_cause;

/* The display name of a section title of the older (newer = 0) or newer release. */
typedef const char *(*mev__show_fn)(const void *ctx, int newer, const char *title);

/*
 * The causes of every link of `in` (out[i] for in->links[i]; free with
 * mev__causes_free()).  Errors: MEV_ENOMEM.
 */
int mev__causes(mev__event_cause **out, const mev__cause_in *in);
void mev__causes_free(mev__event_cause *c, size_t n);
/* The sentence of one cause (into *out, malloc'ed); show (may be NULL:
 * the titles) names the sections and clusters. */
int mev__cause_sentence(char **out, const mev__event_cause *ec, mev__show_fn show, const void *ctx);

/* "<result key>/cause:rename=R\0<tag>" (table "events"); tag NULL: the prefix. */
int mev__cause_key(mev_buf *k, const mev_cluster_params *cp, const mev_track_params *tp,
		   const char *tag);

/* What a causes record was computed from: the events record (its hash),
 * the two releases (rel_fp) and whether their patterns were stored. */
typedef struct {
	uint64_t events_hash, fp_from, fp_to;
	unsigned patterns;              /* bit 0: the older release's, bit 1: the newer's */
} mev__cause_head;

/* Record: uv version, the head, uv n, per event uv kind + 1 (0: none) and,
 * when not 0, str sentence, uv flags (1 patterns, 2 code), uv code share
 * bits, uv files and uv lines per file kind, uv more patterns, uv items,
 * per item uv kind, str section, str new section, uv field, str value,
 * str file, uv line, str path, str old path, uv lines, uv old lines, str
 * from cluster, str to cluster. */
int mev__encode_causes(mev_buf *b, const mev__cause_head *h, const mev__event_cause *c, size_t n);
/* 1 when the record is made for h, else 0. */
int mev__causes_fresh(const void *data, size_t len, const mev__cause_head *h);

/* One event's cause as read back (strings and items in the arena). */
typedef struct {
	const char *kind, *sentence;
	const mev_cause *detail;
} mev__read_cause;

/*
 * Decode a causes record made for the events record whose hash is
 * events_hash into *out (n entries, malloc'ed; strings, items and details
 * in arena).  Returns 1 when it was made for other events (nothing
 * decoded), 0 when decoded; MEV_ECORRUPT naming tag, MEV_ENOMEM.
 */
int mev__causes_decode(mev__read_cause **out, size_t *n, mev_arena *arena, const void *data,
		       size_t len, uint64_t events_hash, const char *tag);

/* --- the records (records.c; docs/tracking.md "What is stored") ---------- */

/*
 * MEV__TRACK_REC_VERSION is the record format; MEV__TRACK_ALGORITHM is
 * bumped whenever a change of the tracker gives other results for the same
 * clusters, so that stored results of an older build are computed again.
 */
enum {
	MEV__TRACK_REC_VERSION = 2,
	MEV__TRACK_ALGORITHM = 6,
	MEV__TRACK_MODE_FIRST = 0,
	MEV__TRACK_MODE_CODE = 1,
	MEV__TRACK_MODE_TITLES = 2
};

/* The thresholds an events record (5: link, match, growth, absorb, gap) or a
 * section changes record (1: rename) depends on, as stored. */
#define MEV__EVENT_PARAMS 5
#define MEV__CHANGE_PARAMS 1
void mev__event_params(uint64_t out[MEV__EVENT_PARAMS], const mev_track_params *p);
void mev__change_params(uint64_t out[MEV__CHANGE_PARAMS], const mev_track_params *p);

/* Keys: "<result key>\0<tag>" (events; mev_track_result_key()),
 * "sections:rename=R\0<tag>" (section changes); tag NULL gives the prefix
 * of all of them. */
int mev__events_key(mev_buf *k, const mev_cluster_params *cp, const mev_track_params *tp,
		     const char *tag);
int mev__sections_key(mev_buf *k, const mev_track_params *tp, const char *tag);
/* The prefix "<parameter key>\0" under which maintevo before record
 * version 2 kept the events of a clustering (dropped by the next track). */
int mev__legacy_events_key(mev_buf *k, const mev_cluster_params *cp);
/* The key of the lineages record: the result key alone, no NUL. */
int mev__lineages_key(mev_buf *k, const mev_cluster_params *cp, const mev_track_params *tp);

/* The head of a stored pair: what it was computed from. */
typedef struct {
	uint64_t algorithm;
	char from[256];
	uint64_t fp_from, fp_to;
	uint64_t params[MEV__EVENT_PARAMS];
} mev__rec_head;

/* Read the head off r (nparams thresholds); -1 when it is damaged or of
 * another record version. */
int mev__rec_head_get(mev__rec_head *h, mev__record_reader *r, size_t nparams);

/* Is the stored record under key k computed from these inputs?  *data gets
 * the record (malloc'ed, NULL when absent) either way. */
int mev__rec_fresh(void **data, size_t *len, mev_store *s, const mev_buf *k, const char *from,
		   uint64_t fp_from, uint64_t fp_to, const uint64_t *params, size_t nparams);

/* Events record of the pair ra -> rb (ra NULL: rb is the first release, po
 * NULL: no events). */
int mev__encode_events(mev_buf *b, const mev__track_rel *ra, const mev__track_rel *rb,
		       const mev_track_params *p, int mode, const mev__pair_out *po);
/* Section changes record of the pair ra -> rb. */
int mev__encode_changes(mev_buf *b, const mev__track_rel *ra, const mev__track_rel *rb,
			const mev_track_params *p, const mev__change *c, size_t n);

/* An events record, decoded; strings point into the record's bytes. */
typedef struct {
	uint32_t lineage, parent;
	uint64_t lines;
	const char *rep;
	size_t rep_len;
} mev__rec_cluster;

typedef struct {
	mev_event_kind kind;
	double sim;
	int64_t from_lines, to_lines; /* -1 for the missing side */
	uint32_t lineage;
	const char *from_rep, *to_rep;
	size_t from_len, to_len;
	double share, partner_share;
	uint32_t from_lineage, partner_lineage;
	const char *partner;
	size_t partner_len;
	const char *gap_from;         /* a bridge: the release before the gap */
	size_t gap_from_len;
} mev__rec_event;

typedef struct {
	mev__rec_head head;
	uint64_t mode;
	uint32_t next_lineage;
	MEV_VEC(mev__rec_cluster) clusters; /* the clusters of the record's release */
	MEV_VEC(mev__rec_event) events;
} mev__events_rec;

/*
 * The one reader of events records.  Errors: MEV_ECORRUPT "the events of
 * 'tag' are damaged", MEV_ENOMEM.  Free with mev__events_rec_free() either
 * way.
 */
int mev__events_rec_decode(mev__events_rec *out, const void *data, size_t len, const char *tag);
void mev__events_rec_free(mev__events_rec *r);

/* A section changes record, decoded (strings into the record's bytes). */
typedef struct {
	mev_section_change_kind kind;
	const char *section, *new_section;
	size_t section_len, new_len;
	uint64_t lines;
	double coverage;
} mev__rec_change;

typedef struct {
	mev__rec_head head;
	MEV_VEC(mev__rec_change) changes;
} mev__changes_rec;

/* Errors: MEV_ECORRUPT "the section changes of 'tag' are damaged", MEV_ENOMEM. */
int mev__changes_rec_decode(mev__changes_rec *out, const void *data, size_t len, const char *tag);
void mev__changes_rec_free(mev__changes_rec *r);

/* Lineages record: uv version, uv n, per lineage uv id, str name, str
 * first, str last, uv parent, uv peak, uv releases.  The lineage with id i
 * is lin[i - 1]. */
int mev__encode_lineages(mev_buf *b, const mev_lineage *lin, size_t n);
/* *out malloc'ed (free it also on failure), its strings copied into
 * arena.  Errors: MEV_ECORRUPT naming `key` (the parameter key), MEV_ENOMEM. */
int mev__lineages_decode(mev_lineage **out, size_t *n, mev_arena *arena, const void *data,
			 size_t len, const char *key);

/* --- reading the results back (read.c) ----------------------------------- */

/*
 * Every key a reader of one parameter set needs, made once: the prefixes of
 * the events, support, cause and section changes records (mev__events_key()
 * and the others with tag NULL), the lineages record's key and the result
 * key the messages name.
 */
typedef struct {
	mev_buf events, support, causes, sections, lineages;
	char result[256]; /* mev_track_result_key() */
	int support_runs; /* the runs the support records count */
} mev__track_keys;

/* tp NULL: the default thresholds.  Errors: MEV_ENOMEM (*k freed). */
int mev__track_keys_init(mev__track_keys *k, const mev_cluster_params *cp, const mev_track_params *tp);
void mev__track_keys_free(mev__track_keys *k);

/* mev_track_events(), mev_track_section_changes(), mev_track_lineages()
 * and mev_track_clusters() on keys made once; names: the lineages of the
 * result, by id, for the clusters' names (NULL: read them here). */
int mev__read_events(mev_event_list *out, mev_store *s, const mev__track_keys *k, const char *from,
		     const char *to);
int mev__read_section_changes(mev_section_change_list *out, mev_store *s, const mev__track_keys *k,
			      const char *from, const char *to);
int mev__read_lineages(mev_lineage_list *out, mev_store *s, const mev__track_keys *k);
int mev__read_clusters(mev_tracked_cluster_list *out, mev_store *s, const mev__track_keys *k,
		       const mev_lineage_list *names, const char *release);

#endif
