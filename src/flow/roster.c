/* Who a release's own MAINTAINERS names, per section, folded as flow folds people. */
#include "flow_internal.h"
#include "maintevo/error.h"
#include "maintevo/release.h"
#include "context_internal.h"
#include "util/buf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct mev_flow_roster_reader {
	mev_repo *repo;
	mev__flow_env env;
	mev__flow_strings strings;
	mev__flow_contexts *ctxs;
	mev_buf buf;
};

void mev_flow_roster_reader_free(mev_flow_roster_reader *rr)
{
	if (!rr)
		return;
	mev__flow_contexts_free(rr->ctxs);
	mev__flow_strings_free(&rr->strings);
	mev__buf_free(&rr->buf);
	mev__buf_free(&rr->env.note);
	mev_repo_free(rr->repo);
	free(rr);
}

int mev_flow_roster_reader_new(mev_flow_roster_reader **out, mev_store *s, const char *repo)
{
	mev_flow_roster_reader *rr = calloc(1, sizeof *rr);
	mev_identity id;
	int rc;
	*out = NULL;
	if (!rr)
		return mev_error_oom();
	if ((rc = mev_release_identity_get(&id, s)) == MEV_ENOTFOUND ||
	    (!rc && strcmp(id.dialect, MEV_IMPORT_DIALECT) == 0)) {
		rc = mev_error_set(MEV_ESTORE, "store '%s' was not walked from a repository",
				   mev_store_dir(s));
		mev_error_hint("maintainers and commits need a store made by 'maintevo walk'");
	}
	if (!rc && (rc = mev_repo_open(&rr->repo, repo && *repo ? repo : id.repo)) != 0)
		mev_error_hint("give the repository with --repo PATH");
	if (!rc)
		rc = mev_release_repo_holds(rr->repo, repo && *repo ? repo : id.repo, s);
	if (rc)
		goto fail;
	if ((rc = mev__flow_env_rules(&rr->env, rr->repo, &id)))
		goto fail;
	rr->env.strings = &rr->strings;
	rr->env.whole_trees = 1; /* every set parsed whole: its L: lines are needed too */
	if ((rc = mev__flow_contexts_new(&rr->ctxs, &rr->env)))
		goto fail;
	*out = rr;
	return 0;
fail:
	mev_flow_roster_reader_free(rr);
	return rc;
}

void mev_flow_roster_free(mev_flow_roster *r)
{
	if (!r)
		return;
	free(r->v);
	if (r->mem_) {
		mev__arena_free(r->mem_);
		free(r->mem_);
	}
	memset(r, 0, sizeof *r);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* v[0..k) sorted bytewise, repeats dropped, as *out (v itself) and *nout. */
static void sort_distinct(const char ***out, size_t *nout, const char **v, size_t k)
{
	if (k > 1)
		qsort(v, k, sizeof *v, str_cmp);
	*nout = 0;
	for (size_t i = 0; i < k; i++)
		if (!*nout || strcmp(v[*nout - 1], v[i]))
			v[(*nout)++] = v[i];
	*out = v;
}

/* The distinct strings ids[0..n) (canonical through canon when given),
 * sorted, into the arena. */
static int distinct(const char ***out, size_t *nout, mev_arena *a, mev_flow_roster_reader *rr,
		    const uint32_t *ids, size_t n, const mev_mailmap *mm)
{
	const char **v = mev__arena_alloc(a, (n + 1) * sizeof *v, sizeof(void *));
	size_t k = 0;
	if (!v)
		return mev_error_oom();
	for (size_t i = 0; i < n; i++) {
		uint32_t id = ids[i];
		int rc;
		if (mm && (rc = mev__flow_fold(&id, &rr->strings, &rr->buf, mm, rr->strings.v.v[ids[i]])))
			return rc;
		v[k++] = rr->strings.v.v[id];
	}
	sort_distinct(out, nout, v, k);
	return 0;
}

/* The position of s in the sorted v[0..n), or -1. */
static int64_t find_sorted(const char *const *v, size_t n, const char *s)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(v[mid], s);
		if (c == 0)
			return (int64_t)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* Per address of addrs[0..n) (section i's `type` entries, as distinct()
 * made them), the name of the first such line that gives one, into the
 * arena: each line's address lowercased and folded as distinct() folds it. */
static int names_of(const char ***out, mev_arena *a, mev_flow_roster_reader *rr, const mev_maint *m,
		    size_t i, char type, const char *const *addrs, size_t n, const mev_mailmap *mm)
{
	const mev_section *sec = &mev_maint_sections(m)[i];
	const mev_field *f = mev_maint_fields(m);
	const char **v = mev__arena_alloc(a, (n + 1) * sizeof *v, sizeof(void *));
	if (!v)
		return mev_error_oom();
	memset(v, 0, (n + 1) * sizeof *v);
	for (uint32_t j = 0; j < sec->field_count; j++) {
		const mev_field *fl = &f[sec->field_begin + j];
		mev__flow_span name, email;
		uint32_t id;
		int64_t at;
		int rc;
		if (fl->type != type)
			continue;
		mev__flow_ident(&name, &email, fl->value, strlen(fl->value));
		if (!email.len || !name.len)
			continue;
		mev__buf_clear(&rr->buf);
		for (size_t k = 0; k < email.len; k++)
			if (mev__buf_putc(&rr->buf, (char)tolower((unsigned char)email.p[k])))
				return mev_error_oom();
		if ((rc = mev__flow_intern(&id, &rr->strings, rr->buf.ptr, rr->buf.len)) ||
		    (rc = mev__flow_fold(&id, &rr->strings, &rr->buf, mm, rr->strings.v.v[id])))
			return rc;
		at = find_sorted(addrs, n, rr->strings.v.v[id]);
		if (at >= 0 && !v[at] && !(v[at] = mev__arena_strndup(a, name.p, name.len)))
			return mev_error_oom();
	}
	*out = v;
	return 0;
}

/* The distinct `type` (M or R) values of section i of m that hold no
 * address, trimmed and lowercased, sorted, into the arena. */
static int handles(const char ***out, size_t *nout, mev_arena *a, const mev_maint *m, size_t i,
		   char type)
{
	const mev_section *sec = &mev_maint_sections(m)[i];
	const mev_field *f = mev_maint_fields(m);
	const char **v = mev__arena_alloc(a, (sec->field_count + 1) * sizeof *v, sizeof(void *));
	size_t k = 0;
	if (!v)
		return mev_error_oom();
	for (uint32_t j = 0; j < sec->field_count; j++) {
		const mev_field *fl = &f[sec->field_begin + j];
		mev__flow_span name, email;
		char *h;
		if (fl->type != type)
			continue;
		mev__flow_ident(&name, &email, fl->value, strlen(fl->value));
		if (email.len || !name.len)
			continue;
		if (!(h = mev__arena_strndup(a, name.p, name.len)))
			return mev_error_oom();
		for (char *c = h; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		v[k++] = h;
	}
	sort_distinct(out, nout, v, k);
	return 0;
}

int mev_flow_roster_read(mev_flow_roster *out, mev_flow_roster_reader *rr, const mev_oid *commit)
{
	mev_arena *a = calloc(1, sizeof *a);
	mev_mailmap *mm = NULL;
	mev__flow_ctx *x = NULL;
	uint32_t *l_off = NULL, *l_ids = NULL;
	char *data = NULL;
	size_t len = 0;
	int rc;

	memset(out, 0, sizeof *out);
	if (!a)
		return mev_error_oom();
	out->mem_ = a;
	rc = mev_commit_read_file(&data, &len, rr->repo, commit, ".mailmap");
	if (rc && rc != MEV_ENOTFOUND)
		goto done;
	mev_error_clear();
	if ((rc = mev_mailmap_new(&mm, data, len)) || (rc = mev__flow_context_of(&x, rr->ctxs, commit)))
		goto done;
	if (!x->maint) {
		rc = mev_error_set(MEV_EINVAL, "internal: a roster's MAINTAINERS set was not parsed whole");
		goto done;
	}
	if ((rc = mev__flow_field_lists(&l_off, &l_ids, x->maint, &rr->strings, 'L')))
		goto done;
	if (!(out->v = calloc(x->nsec + 1, sizeof *out->v))) {
		rc = mev_error_oom();
		goto done;
	}
	for (uint32_t i = 0; i < x->nsec && !rc; i++) {
		mev_flow_roster_section *sec = &out->v[out->n++];
		sec->title = x->titles[i];
		sec->is_rest = i == x->rest;
		if (!(rc = distinct(&sec->maintainers, &sec->n_maintainers, a, rr, x->m_ids + x->m_off[i],
				    x->m_off[i + 1] - x->m_off[i], mm)) &&
		    !(rc = distinct(&sec->reviewers, &sec->n_reviewers, a, rr, x->r_ids + x->r_off[i],
				    x->r_off[i + 1] - x->r_off[i], mm)))
			rc = distinct(&sec->lists, &sec->n_lists, a, rr, l_ids + l_off[i],
				      l_off[i + 1] - l_off[i], NULL);
		if (!rc && !(rc = handles(&sec->maintainer_handles, &sec->n_maintainer_handles, a,
					  x->maint, i, 'M')))
			rc = handles(&sec->reviewer_handles, &sec->n_reviewer_handles, a, x->maint, i, 'R');
		if (!rc && !(rc = names_of(&sec->maintainer_names, a, rr, x->maint, i, 'M',
					   sec->maintainers, sec->n_maintainers, mm)))
			rc = names_of(&sec->reviewer_names, a, rr, x->maint, i, 'R', sec->reviewers,
				      sec->n_reviewers, mm);
	}
	/* the titles point into the parsed set, which a later read may evict: copy them */
	for (size_t i = 0; i < out->n && !rc; i++)
		if (!(out->v[i].title = mev__arena_strndup(a, out->v[i].title, strlen(out->v[i].title))))
			rc = mev_error_oom();
done:
	free(l_off);
	free(l_ids);
	free(data);
	mev_mailmap_free(mm);
	if (rc)
		mev_flow_roster_free(out);
	return rc;
}
