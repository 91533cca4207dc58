/*
 * The release record (R of docs/store-format.md): headline numbers, the
 * sections and the overlap graph of a release, written with its file table
 * and notes; listing, finding and reading releases back.  The format
 * description is docs/store-format.md; this file is the truth.
 */
#include "release_internal.h"
#include "maintevo/error.h"
#include "maintevo/suggest.h"
#include "maintevo/tags.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- headline numbers --------------------------------------------------------- */

typedef struct {
	uint64_t files, lines, bytes, sections, with_files, unc_files, unc_lines, edges;
} counts;

/* Files a section covers only through THE REST are uncovered; THE REST is
 * not counted as a section, nor are its edges. */
static void compute_counts(counts *c, const mev_filemap *fm, const mev_graph *g)
{
	const mev_file_row *rows = mev_filemap_rows(fm);
	const mev_section_info *secs = mev_filemap_sections(fm);
	size_t nrows = mev_filemap_count(fm), nsec = mev_filemap_section_count(fm);
	const mev_edge *e = mev_graph_edges(g);
	size_t ne = mev_graph_edge_count(g);
	memset(c, 0, sizeof *c);
	for (size_t i = 0; i < nrows; i++) {
		const uint32_t *ids;
		size_t n = mev_filemap_set(&ids, fm, rows[i].set), k;
		c->files++;
		c->lines += rows[i].lines;
		c->bytes += rows[i].bytes;
		for (k = 0; k < n; k++)
			if (!secs[ids[k]].is_rest)
				break;
		if (k == n) {
			c->unc_files++;
			c->unc_lines += rows[i].lines;
		}
	}
	for (size_t i = 0; i < nsec; i++)
		c->sections += !secs[i].is_rest;
	for (size_t i = 0; i < ne; i++) {
		if (secs[e[i].a].is_rest || secs[e[i].b].is_rest)
			continue;
		if (e[i].a == e[i].b)
			c->with_files += e[i].files > 0;
		else
			c->edges++;
	}
}

/* --- sections ------------------------------------------------------------------ */

static int put_sections(mev_buf *b, const mev_filemap *fm)
{
	const mev_section_info *s = mev_filemap_sections(fm);
	size_t n = mev_filemap_section_count(fm);
	int rc = mev__put_uv(b, n);
	for (size_t i = 0; i < n && !rc; i++) {
		rc |= mev__put_cstr(b, s[i].title);
		rc |= mev__put_cstr(b, s[i].status);
		rc |= mev__put_uv(b, s[i].n_maintainers);
		rc |= mev__put_uv(b, s[i].n_reviewers);
		rc |= mev__put_uv(b, s[i].n_lists);
		rc |= mev__put_uv(b, s[i].n_trees);
		rc |= mev__put_uv(b, s[i].n_patterns);
		rc |= mev__put_uv(b, s[i].is_rest);
		/* version 3: the display name ("" when it is the title) and its kind */
		rc |= mev__put_cstr(b, s[i].display && strcmp(s[i].display, s[i].title) ? s[i].display : "");
		rc |= mev__put_uv(b, s[i].title_kind);
	}
	return rc ? mev_error_oom() : 0;
}

/* A string of the record, NUL-terminated in *b. */
static const char *get_cstr(mev_buf *b, mev__record_reader *r)
{
	size_t l;
	const char *p = mev__get_str(r, &l);
	mev__buf_clear(b);
	mev__buf_put(b, p, l);
	return b->ptr ? b->ptr : "";
}

/* The sections of a record of `version`: before 3 each displays as its
 * title, a name. */
static int get_sections(mev__record_reader *r, mev_filemap *fm, uint64_t version)
{
	uint64_t n = mev__get_uv(r);
	mev_buf t = MEV_BUF_INIT, st = MEV_BUF_INIT, d = MEV_BUF_INIT;
	int rc = 0;
	for (uint64_t i = 0; i < n && !r->bad && !rc; i++) {
		mev_section_info si = { 0 };
		si.title = get_cstr(&t, r);
		si.status = get_cstr(&st, r);
		si.n_maintainers = (uint32_t)mev__get_uv(r);
		si.n_reviewers = (uint32_t)mev__get_uv(r);
		si.n_lists = (uint32_t)mev__get_uv(r);
		si.n_trees = (uint32_t)mev__get_uv(r);
		si.n_patterns = (uint32_t)mev__get_uv(r);
		si.is_rest = (uint8_t)mev__get_uv(r);
		if (version >= 3) {
			uint64_t kind;
			si.display = get_cstr(&d, r);
			kind = mev__get_uv(r);
			if (kind >= MEV_TITLE_KINDS)
				r->bad = 1;
			si.title_kind = (uint8_t)kind;
			if (!si.display[0])
				si.display = NULL;   /* the title */
		}
		if (!r->bad)
			rc = mev_filemap_add_section(fm, &si);
	}
	mev__buf_free(&t);
	mev__buf_free(&st);
	mev__buf_free(&d);
	return rc;
}

/* --- the record ------------------------------------------------------------------ */

static int encode_release(mev_buf *b, const mev_release_input *in, const counts *c, int has_files,
			  int snapshot, const char *base, const mev_filemap *fm, const mev_graph *g,
			  uint64_t table_stored, uint64_t table_raw)
{
	const mev_edge *e = mev_graph_edges(g);
	size_t ne = mev_graph_edge_count(g);
	int rc = 0;
	rc |= mev__put_uv(b, MEV__RECORD_VERSION);
	rc |= mev__put_cstr(b, in->tag);
	rc |= mev__buf_put(b, in->commit.id, 20);
	rc |= mev__put_sv(b, in->time);
	rc |= mev__put_uv(b, c->files);
	rc |= mev__put_uv(b, c->lines);
	rc |= mev__put_uv(b, c->bytes);
	rc |= mev__put_uv(b, c->sections);
	rc |= mev__put_uv(b, c->with_files);
	rc |= mev__put_uv(b, c->unc_files);
	rc |= mev__put_uv(b, c->unc_lines);
	rc |= mev__put_uv(b, c->edges);
	rc |= mev__put_uv(b, in->ndiags);
	rc |= mev__put_uv(b, in->maintainer_files);
	rc |= mev__put_uv(b, (uint64_t)has_files);
	rc |= mev__put_uv(b, (uint64_t)snapshot);
	rc |= mev__put_cstr(b, base ? base : "");
	rc |= mev__put_uv(b, table_stored);
	rc |= mev__put_uv(b, table_raw);
	rc |= mev__put_uv(b, in->rules_version);
	rc |= mev__put_cstr(b, in->rules ? in->rules : "");
	if (rc)
		return mev_error_oom();
	if ((rc = put_sections(b, fm)))
		return rc;
	rc = mev__put_uv(b, ne);
	for (size_t i = 0; i < ne && !rc; i++) {
		rc |= mev__put_uv(b, e[i].a);
		rc |= mev__put_uv(b, e[i].b);
		rc |= mev__put_uv(b, e[i].lines);
		rc |= mev__put_uv(b, e[i].bytes);
		rc |= mev__put_uv(b, e[i].files);
	}
	return rc ? mev_error_oom() : 0;
}

/* The head of a record into *m; *version gets the record's version. */
static int decode_head(mev_release *m, uint64_t *version_out, mev__record_reader *r)
{
	size_t n;
	const char *p;
	uint64_t version = mev__get_uv(r);
	memset(m, 0, sizeof *m);
	*version_out = version;
	if (version < 1 || version > MEV__RECORD_VERSION)
		return mev_error_set(MEV_ECORRUPT, "release record of an unknown version");
	p = mev__get_str(r, &n);
	m->tag = strndup(p, n);
	mev__get_bytes(m->commit.id, r, 20);
	m->time = mev__get_sv(r);
	m->files = mev__get_uv(r);
	m->lines = mev__get_uv(r);
	m->bytes = mev__get_uv(r);
	m->sections = mev__get_uv(r);
	m->sections_with_files = mev__get_uv(r);
	m->uncovered_files = mev__get_uv(r);
	m->uncovered_lines = mev__get_uv(r);
	m->edges = mev__get_uv(r);
	m->diags = mev__get_uv(r);
	m->maintainer_files = mev__get_uv(r);
	m->has_files = (uint8_t)mev__get_uv(r);
	m->snapshot = (uint8_t)mev__get_uv(r);
	p = mev__get_str(r, &n);
	m->base = strndup(p, n);
	m->stored_bytes = mev__get_uv(r);
	m->raw_bytes = mev__get_uv(r);
	if (version >= 2) {
		m->rules_version = (uint32_t)mev__get_uv(r);
		p = mev__get_str(r, &n);
		m->rules = strndup(p, n);
	} else {
		m->rules_version = m->has_files;   /* walked (1) or imported (0) before records kept it */
		m->rules = strdup("");
	}
	if (r->bad || !m->tag || !m->base || !m->rules) {
		mev__release_clear(m);
		return r->bad ? mev_error_set(MEV_ECORRUPT, "a release record is damaged") : mev_error_oom();
	}
	return 0;
}

/* The head of a stored (packed) record, its own sizes added. */
static int head_of_stored(mev_release *m, const void *data, size_t len)
{
	void *rec;
	size_t n;
	mev__record_reader r;
	uint64_t version;
	int rc = mev_store_unpack(&rec, &n, 'R', data, len);
	if (rc)
		return rc;
	mev__record_reader_init(&r, rec, n);
	if (!(rc = decode_head(m, &version, &r))) {
		m->stored_bytes += len;
		m->raw_bytes += n;
	}
	free(rec);
	return rc;
}

int mev_release_not_stored(mev_store *s, const char *tag)
{
	mev_release *list = NULL;
	size_t n = 0;
	const char **tags;
	const char *near = NULL;
	char guess[300] = "";
	if (mev_release_list(&list, &n, s) == 0 && (tags = malloc((n + 1) * sizeof *tags))) {
		for (size_t i = 0; i < n; i++)
			tags[i] = list[i].tag;
		if ((near = mev_suggest(tag, tags, n)))
			snprintf(guess, sizeof guess, "; did you mean '%.250s'?", near);
		free(tags);
	}
	mev_release_list_free(list, n);
	mev_error_set(MEV_ENOTFOUND, "release '%s' is not in store '%s'%s", tag, mev_store_dir(s),
		      guess);
	mev_error_hint("list the stored releases with 'maintevo releases --store %s'", mev_store_dir(s));
	return MEV_ENOTFOUND;
}

void mev__release_clear(mev_release *m)
{
	free(m->tag);
	free(m->base);
	free(m->rules);
	m->tag = m->base = m->rules = NULL;
}

/* A repeat: the head of the release it repeats, under its own name,
 * commit and time; the target with another commit is damage. */
static int alias_head(mev_release *m, mev_store *s, const char *tag, const mev__alias *a)
{
	int rc;
	char *name;
	if (strcmp(a->target, tag) == 0 || (rc = mev__release_get(m, s, a->target)) == MEV_ENOTFOUND) {
		mev_error_set(MEV_ECORRUPT, "release '%s' repeats '%s', which is not stored", tag, a->target);
		return MEV_ECORRUPT;
	}
	if (rc)
		return rc;
	if (!mev_oid_equal(&m->commit, &a->commit)) {
		mev__release_clear(m);
		return mev_error_set(MEV_ECORRUPT, "release '%s' repeats '%s', which has another commit now",
				     tag, a->target);
	}
	if (!(name = strdup(tag))) {
		mev__release_clear(m);
		return mev_error_oom();
	}
	free(m->tag);
	m->tag = name;
	m->time = a->time;
	m->stored_bytes = m->raw_bytes = 0;
	return 0;
}

int mev__release_get(mev_release *m, mev_store *s, const char *tag)
{
	void *raw;
	size_t len;
	int rc = mev_store_get_record(&raw, &len, s, "releases", MEV_STORE_RAW, tag, strlen(tag));
	memset(m, 0, sizeof *m);
	if (rc == MEV_ENOTFOUND) {
		mev__alias a;
		int ar = mev__alias_get(&a, s, tag);
		if (ar == 0)
			return alias_head(m, s, tag, &a);
		if (ar != MEV_ENOTFOUND)
			return ar;
		return mev_release_not_stored(s, tag);
	}
	if (rc)
		return rc;
	if ((rc = head_of_stored(m, raw, len)))
		mev_error_prefix("release record of '%s'", tag);
	free(raw);
	return rc;
}

int mev__release_sections(mev_filemap **sections, mev__record_reader *r, void **rec, mev_store *s,
			  const char *tag)
{
	mev_filemap *fm = NULL;
	mev_release m;
	size_t len;
	uint64_t version = 0;
	char real[MEV_RELEASE_TAG_MAX + 1];
	int rc;
	tag = mev__release_resolve(real, sizeof real, s, tag);
	rc = mev_store_get_record(rec, &len, s, "releases", 'R', tag, strlen(tag));
	*sections = NULL;
	if (rc == MEV_ENOTFOUND)
		return mev_release_not_stored(s, tag);
	if (rc) {
		mev_error_prefix("release record of '%s'", tag);
		return rc;
	}
	mev__record_reader_init(r, *rec, len);
	if (!(rc = decode_head(&m, &version, r)))
		mev__release_clear(&m);
	if (!rc && !(rc = mev_filemap_new(&fm)) && !(rc = get_sections(r, fm, version)) && r->bad)
		rc = mev_error_set(MEV_ECORRUPT, "release record of '%s' is damaged", tag);
	if (rc) {
		mev_filemap_free(fm);
		free(*rec);
		*rec = NULL;
		return rc;
	}
	*sections = fm;
	return 0;
}

/* --- writing ------------------------------------------------------------------- */

/* The notes ("diags", record D); *stored and *raw grow by their sizes. */
static int put_diags(uint64_t *stored, uint64_t *raw, mev_store *s, const mev_release_input *in)
{
	mev_buf b = MEV_BUF_INIT;
	size_t packed = 0;
	int rc = mev__put_uv(&b, in->ndiags);
	for (size_t i = 0; i < in->ndiags && !rc; i++)
		rc = mev__put_cstr(&b, in->diags[i]);
	if (rc)
		rc = mev_error_oom();
	else
		rc = mev_store_put_record(&packed, s, "diags", 'D', MEV__RELEASE_LEVEL, in->tag,
					  strlen(in->tag), b.ptr, b.len);
	if (!rc) {
		*stored += packed;
		*raw += b.len;
	}
	mev__buf_free(&b);
	return rc;
}

static int put_release(mev_store *s, const mev_release_input *in, const counts *c,
		       const mev_filemap *fm, const mev_graph *g, int has_files,
		       const mev_filemap *base, const char *base_tag)
{
	mev_buf rec = MEV_BUF_INIT;
	int snapshot = 1, rc;
	uint64_t stored = 0, raw = 0;
	size_t tl = strlen(in->tag);

	if (tl > MEV_RELEASE_TAG_MAX) {
		mev_error_set(MEV_EINVAL, "cannot store release '%.60s...': its tag has %zu bytes, a release "
			      "tag at most %d", in->tag, tl, MEV_RELEASE_TAG_MAX);
		mev_error_hint("give the release a shorter name");
		return MEV_EINVAL;
	}
	/* no longer a repeat; its repeats of another commit go with its old tree */
	if ((rc = mev_store_delete(s, MEV__ALIAS_TABLE, in->tag, tl)) ||
	    (rc = mev__alias_drop_stale(s, in->tag, &in->commit)))
		return rc;
	if (has_files)
		rc = mev__filetable_put(&snapshot, &stored, &raw, s, in->tag, fm, base);
	else
		rc = mev_store_delete(s, "tables", in->tag, tl);
	if (!rc)
		rc = put_diags(&stored, &raw, s, in);
	if (!rc && in->maint)
		rc = mev__patterns_put(&stored, &raw, s, in->tag, in->maint);
	/* the health needs the tree; without it, none rather than a stale one */
	if (!rc && in->maint && in->tree && has_files)
		rc = mev__health_put(&stored, &raw, s, in, fm);
	else if (!rc && in->maint)
		rc = mev_store_delete(s, "health", in->tag, tl);
	if (!rc)
		rc = encode_release(&rec, in, c, has_files, snapshot, base_tag, fm, g, stored, raw);
	if (!rc)
		rc = mev_store_put_record(NULL, s, "releases", 'R', MEV__RELEASE_LEVEL, in->tag, tl,
					  rec.ptr, rec.len);
	mev__buf_free(&rec);
	return rc;
}

/* How many tables are read to rebuild the table of `tag` (from the memo
 * when it put that release last), at most MEV__SNAPSHOT_EVERY (also when
 * they cannot be read): at that, the next table is stored whole, so that
 * reading any reads at most MEV__SNAPSHOT_EVERY tables. */
static size_t chain_depth(mev_store *s, const char *tag, const mev_release_memo *mm)
{
	size_t depth = 0;
	char *t;
	if (mm && mm->chain && strcmp(mm->chain_tag, tag) == 0)
		return mm->chain < MEV__SNAPSHOT_EVERY ? mm->chain : MEV__SNAPSHOT_EVERY;
	t = strdup(tag);
	while (t && depth < MEV__SNAPSHOT_EVERY) {
		mev_release m;
		int rc = mev__release_get(&m, s, t);
		depth++;
		free(t);
		t = NULL;
		if (rc) {
			depth = MEV__SNAPSHOT_EVERY;
			break;
		}
		if (!m.snapshot)
			t = strdup(m.base);
		mev__release_clear(&m);
	}
	free(t);
	return depth < MEV__SNAPSHOT_EVERY ? depth : MEV__SNAPSHOT_EVERY;
}

int mev_release_put(mev_store *s, const mev_release_input *in, const mev_filemap *fm,
		    const mev_graph *g, const mev_filemap *base, const char *base_tag)
{
	counts c;
	char real[MEV_RELEASE_TAG_MAX + 1];
	size_t depth;
	int rc;
	/* a delta is against a release with a table, never a repeat */
	if (base_tag)
		base_tag = mev__release_resolve(real, sizeof real, s, base_tag);
	depth = base ? chain_depth(s, base_tag, in->memo) : 0;
	compute_counts(&c, fm, g);
	if (depth >= MEV__SNAPSHOT_EVERY)
		base = NULL;
	rc = put_release(s, in, &c, fm, g, 1, base, base ? base_tag : NULL);
	if (in->memo) { /* kept: a failed transaction ends the walk */
		snprintf(in->memo->chain_tag, sizeof in->memo->chain_tag, "%s", rc ? "" : in->tag);
		in->memo->chain = base ? depth + 1 : 1;
	}
	return rc;
}

int mev_release_put_graph(mev_store *s, const mev_release_input *in, const mev_filemap *sections,
			  const mev_graph *g)
{
	const mev_section_info *secs = mev_filemap_sections(sections);
	const mev_edge *e = mev_graph_edges(g);
	counts c;
	compute_counts(&c, sections, g);
	/* no file table: the sizes come from the graph (THE REST covers all) */
	for (size_t i = 0; i < mev_graph_edge_count(g); i++)
		if (e[i].a == e[i].b && secs[e[i].a].is_rest) {
			c.files = e[i].files;
			c.lines = e[i].lines;
			c.bytes = e[i].bytes;
		}
	return put_release(s, in, &c, sections, g, 0, NULL, NULL);
}

int mev_release_delete(mev_store *s, const char *tag)
{
	size_t l = strlen(tag);
	int rc = mev_store_delete(s, "releases", tag, l);
	if (!rc)
		rc = mev_store_delete(s, MEV__ALIAS_TABLE, tag, l);
	if (!rc)
		rc = mev_store_delete(s, "tables", tag, l);
	if (!rc)
		rc = mev_store_delete(s, "diags", tag, l);
	if (!rc)
		rc = mev_store_delete(s, "patterns", tag, l);
	if (!rc)
		rc = mev_store_delete(s, "health", tag, l);
	return rc;
}

/* --- reading ------------------------------------------------------------------- */

typedef MEV_VEC(mev_release) release_vec;

static int list_cb(void *c, const void *key, size_t klen, const void *data, size_t len)
{
	release_vec *list = c;
	mev_release m;
	int rc = head_of_stored(&m, data, len);
	if (rc) {
		mev_error_prefix("release record of '%.*s'", (int)klen, (const char *)key);
		return rc;
	}
	if (MEV_VEC_PUSH(list, m)) {
		mev__release_clear(&m);
		return mev_error_oom();
	}
	return 0;
}

/* list in the store's order (mev_release_order) */
static int release_sort(release_vec *list)
{
	mev_release_key *k = malloc(list->n * sizeof *k);
	mev_release *v = malloc(list->n * sizeof *v);
	int rc = k && v ? 0 : mev_error_oom();
	for (size_t i = 0; i < list->n && !rc; i++)
		k[i] = (mev_release_key){ list->v[i].tag, list->v[i].time, i };
	if (!rc && !(rc = mev_release_order(k, list->n))) {
		for (size_t i = 0; i < list->n; i++)
			v[i] = list->v[k[i].index];
		memcpy(list->v, v, list->n * sizeof *v);
	}
	free(k);
	free(v);
	return rc;
}

/* The repeats, each as the release it repeats under its own name. */
typedef struct {
	release_vec *list;
	size_t nreal;        /* list[0..nreal): the stored releases */
} alias_list;

static int alias_cb(void *c, const char *tag, const mev__alias *a)
{
	alias_list *x = c;
	const mev_release *t = NULL;
	mev_release m;
	for (size_t i = 0; i < x->nreal && !t && !a->damaged; i++)
		if (strcmp(x->list->v[i].tag, a->target) == 0)
			t = &x->list->v[i];
	if (!t || !mev_oid_equal(&t->commit, &a->commit))
		return mev_error_set(MEV_ECORRUPT, "release '%s' %s", tag,
				     a->damaged ? "is damaged (its alias record)"
				     : !t ? "repeats a release that is not stored"
					  : "repeats a release that has another commit now");
	m = *t;
	m.tag = strdup(tag);
	m.base = strdup(t->base);
	m.rules = strdup(t->rules);
	m.time = a->time;
	m.stored_bytes = m.raw_bytes = 0;
	if (!m.tag || !m.base || !m.rules || MEV_VEC_PUSH(x->list, m)) {
		mev__release_clear(&m);
		return mev_error_oom();
	}
	return 0;
}

int mev_release_list(mev_release **out, size_t *n, mev_store *s)
{
	release_vec list = { 0 };
	int rc = mev_store_scan_raw(s, "releases", NULL, 0, list_cb, &list);
	alias_list al = { &list, list.n };
	*out = NULL;
	*n = 0;
	if (!rc) {
		al.nreal = list.n;
		rc = mev__alias_scan(s, alias_cb, &al);
	}
	if (rc) {
		mev_release_list_free(list.v, list.n);
		return mev__release_damaged(s, rc, NULL);
	}
	if (list.n > 1 && (rc = release_sort(&list))) {
		mev_release_list_free(list.v, list.n);
		return rc;
	}
	*out = list.v;
	*n = list.n;
	return 0;
}

void mev_release_list_free(mev_release *list, size_t n)
{
	for (size_t i = 0; list && i < n; i++)
		mev__release_clear(&list[i]);
	free(list);
}

int mev_release_find(mev_release **out, mev_store *s, const char *tag)
{
	mev_release *r = malloc(sizeof *r);
	int rc;
	*out = NULL;
	if (!r)
		return mev_error_oom();
	if ((rc = mev__release_get(r, s, tag))) {
		free(r);
		return mev__release_damaged(s, rc, tag);
	}
	*out = r;
	return 0;
}

void mev_release_free(mev_release *r)
{
	if (!r)
		return;
	mev__release_clear(r);
	free(r);
}

int mev_release_has(mev_oid *commit, mev_store *s, const char *tag)
{
	void *raw;
	size_t len;
	mev_release m;
	mev__alias a;
	int found = 0;
	if (mev__alias_get(&a, s, tag) == 0) {
		if (commit)
			*commit = a.commit;
		return 1;
	}
	mev_error_clear();
	if (mev_store_get_record(&raw, &len, s, "releases", MEV_STORE_RAW, tag, strlen(tag)) == 0) {
		if (head_of_stored(&m, raw, len) == 0) {
			found = 1;
			if (commit)
				*commit = m.commit;
			mev__release_clear(&m);
		}
		free(raw);
	}
	return found;
}

/* The stored edges of a release record, read as a mev_edge_source. */
typedef struct {
	mev__record_reader start, cur;
	uint64_t n, i;
} edge_reader;

/* mev__get_uv() for the edges, one byte numbers (most) without a call:
 * a dense graph's millions of edges are read twice a load. */
static inline uint64_t edge_uv(mev__record_reader *r)
{
	if (r->p < r->end && !(*r->p & 0x80))
		return *r->p++;
	return mev__get_uv(r);
}

static int edge_next(void *ctx, mev_edge *e)
{
	edge_reader *er = ctx;
	if (er->i == er->n)
		return 0;
	er->i++;
	e->a = (uint32_t)edge_uv(&er->cur);
	e->b = (uint32_t)edge_uv(&er->cur);
	e->lines = edge_uv(&er->cur);
	e->bytes = edge_uv(&er->cur);
	e->files = edge_uv(&er->cur);
	return er->cur.bad ? MEV_ECORRUPT : 1;
}

static void edge_rewind(void *ctx)
{
	edge_reader *er = ctx;
	er->cur = er->start;
	er->i = 0;
}

int mev_release_load_graph(mev_filemap **sections, mev_graph **g, mev_store *s, const char *tag,
			   int keep_rest)
{
	mev_filemap *fm = NULL;
	mev_graph_options go = { keep_rest };
	edge_reader er;
	mev_edge_source src = { edge_next, edge_rewind, &er };
	void *rec = NULL;
	mev__record_reader r;
	int rc;

	*sections = NULL;
	*g = NULL;
	if ((rc = mev_store_read_begin(s)))
		return rc;
	rc = mev__release_sections(&fm, &r, &rec, s, tag);
	mev_store_read_end(s);
	if (rc)
		return mev__release_damaged(s, rc, tag);
	er.n = mev__get_uv(&r);
	er.i = 0;
	er.start = er.cur = r;
	if (r.bad || er.n > (uint64_t)(r.end - r.p)) {
		rc = mev_error_set(MEV_ECORRUPT, "release record of '%s' is damaged", tag);
		goto done;
	}
	/* twins kept as classes (a dense graph stays small: graph.h) */
	rc = mev_graph_from_source(g, fm, &src, &go);
	if (rc == MEV_ECORRUPT)
		rc = mev_error_set(MEV_ECORRUPT, "release record of '%s' is damaged", tag);
	else if (rc == MEV_EINVAL)
		rc = mev_error_set(MEV_ECORRUPT, "graph of '%s' is damaged", tag);
done:
	free(rec);
	if (rc) {
		mev_filemap_free(fm);
		return mev__release_damaged(s, rc, tag);
	}
	*sections = fm;
	return 0;
}

int mev_release_load_diags(char ***out, size_t *n, mev_store *s, const char *tag)
{
	void *raw = NULL, *val = NULL;
	size_t rlen = 0, vlen = 0;
	mev__record_reader r;
	uint64_t k;
	char real[MEV_RELEASE_TAG_MAX + 1];
	const char *key = mev__release_resolve(real, sizeof real, s, tag);
	int rc = mev_store_get_record(&raw, &rlen, s, "diags", MEV_STORE_RAW, key, strlen(key));
	*out = NULL;
	*n = 0;
	if (rc == MEV_ENOTFOUND)
		rc = 0;
	if (rc || !rlen || (rc = mev_store_unpack(&val, &vlen, 'D', raw, rlen))) {
		if (rc)
			mev_error_prefix("notes of '%s'", tag);
		goto done;
	}
	mev__record_reader_init(&r, val, vlen);
	k = mev__get_uv(&r);
	if (r.bad || k > vlen) {
		rc = mev_error_set(MEV_ECORRUPT, "notes of '%s' are damaged", tag);
		goto done;
	}
	if (!(*out = calloc(k + 1, sizeof **out))) {
		rc = mev_error_oom();
		goto done;
	}
	for (uint64_t i = 0; i < k; i++) {
		size_t l;
		const char *p = mev__get_str(&r, &l);
		(*out)[i] = strndup(p, l);
	}
	*n = (size_t)k;
done:
	free(raw);
	free(val);
	return mev__release_damaged(s, rc, tag);
}

void mev_release_diags_free(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}
