/* Judging one commit: who committed, signed off and reviewed it, what it touches, how it came. */
#include "flow_internal.h"
#include "maintevo/error.h"
#include "util/text.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NOTES 200

int mev__flow_builder_init(mev__flow_builder *b)
{
	memset(b, 0, sizeof *b);
	/* set 0 is the empty set */
	if (MEV_VEC_PUSH(&b->set_off, 0) || MEV_VEC_PUSH(&b->set_off, 0) ||
	    mev__strmap_put(&b->set_map, "", 0, 0))
		return mev_error_oom();
	/* route 0 is "direct" */
	{
		mev_flow_route direct = { { { 0 } }, "", "" };
		if (MEV_VEC_PUSH(&b->routes, direct))
			return mev_error_oom();
	}
	return 0;
}

void mev__flow_builder_free(mev__flow_builder *b)
{
	mev__flow_strings_free(&b->str);
	mev__strmap_free(&b->people_map);
	MEV_VEC_FREE(&b->people);
	MEV_VEC_FREE(&b->people_canon);
	mev__strmap_free(&b->set_map);
	MEV_VEC_FREE(&b->set_off);
	MEV_VEC_FREE(&b->set_ids);
	MEV_VEC_FREE(&b->commits);
	MEV_VEC_FREE(&b->trailers);
	MEV_VEC_FREE(&b->paths);
	MEV_VEC_FREE(&b->routes);
	MEV_VEC_FREE(&b->notes);
	mev__arena_free(&b->arena);
	memset(b, 0, sizeof *b);
}

void mev__flow_view(mev_flow_release *out, mev__flow_builder *b)
{
	memset(out, 0, sizeof *out);
	out->commits = b->commits.v;
	out->n = b->commits.n;
	out->people = b->people.v;
	out->n_people = b->people.n;
	out->strings = b->str.v.v;
	out->n_strings = b->str.v.n;
	out->set_off = b->set_off.v;
	out->set_ids = b->set_ids.v;
	out->n_sets = b->set_off.n - 1;
	out->trailers = b->trailers.v;
	out->n_trailers = b->trailers.n;
	out->paths = b->paths.v;
	out->n_paths = b->paths.n;
	out->routes = b->routes.v;
	out->n_routes = b->routes.n;
	out->notes = b->notes.v;
	out->n_notes = b->notes.n;
	out->merges = b->merges;
}

int mev__flow_note(mev__flow_runner *r, const char *fmt, ...)
{
	mev_buf t = MEV_BUF_INIT;
	va_list ap;
	const char *c;
	int rc;
	if (r->b.notes.n >= MAX_NOTES) {
		r->b.notes_dropped++;
		return 0;
	}
	va_start(ap, fmt);
	rc = mev__buf_vprintf(&t, fmt, ap);
	va_end(ap);
	c = rc ? NULL : mev__arena_strndup(&r->b.arena, t.ptr, t.len);
	mev__buf_free(&t);
	if (!c || MEV_VEC_PUSH(&r->b.notes, c))
		return mev_error_oom();
	return 0;
}

/* The lowercase form of an address, interned in the run's strings. */
static int email_id(uint32_t *id, mev__flow_runner *r, const char *e, size_t len)
{
	mev__buf_clear(&r->buf);
	for (size_t i = 0; i < len; i++)
		if (mev__buf_putc(&r->buf, (char)tolower((unsigned char)e[i])))
			return mev_error_oom();
	return mev__flow_intern(id, &r->strings, r->buf.ptr ? r->buf.ptr : "", len);
}

int mev__flow_canon(mev__flow_runner *r)
{
	/* only the strings added since the last call (every one after a new .mailmap) */
	for (size_t i = r->canon_done; i < r->strings.v.n; i++) {
		char *copy;
		uint32_t id;
		int rc;
		if (i < r->canon.n && r->canon.v[i] != UINT32_MAX)
			continue;
		while (r->canon.n <= i)
			if (MEV_VEC_PUSH(&r->canon, UINT32_MAX))
				return mev_error_oom();
		if (!(copy = strdup(r->strings.v.v[i])))
			return mev_error_oom();
		rc = mev__flow_fold(&id, &r->strings, &r->buf, r->mm, copy);
		free(copy);
		if (rc)
			return rc;
		r->canon.v[i] = id;
	}
	r->canon_done = r->strings.v.n;
	return 0;
}

/* A person of the release from a name and an address (after .mailmap):
 * *idx the release's index, *canon the run's canonical id. */
static int person(uint32_t *idx, uint32_t *canon, mev__flow_runner *r, const char *name,
		  size_t nl, const char *email, size_t el)
{
	char *n = strndup(name, nl), *e = strndup(email, el);
	const char *rn, *re;
	char key[4];
	uint32_t pos;
	int added, rc = 0;

	if (!n || !e) {
		rc = mev_error_oom();
		goto done;
	}
	mev_mailmap_resolve(&rn, &re, r->mm, n, e);
	if (*re) {
		rc = email_id(canon, r, re, strlen(re));
	} else {
		/* no address: the name is the key, marked so it meets no address */
		mev__buf_clear(&r->buf);
		rc = mev__buf_putc(&r->buf, '\001') || mev__buf_puts(&r->buf, rn) ? mev_error_oom()
			: mev__flow_intern(canon, &r->strings, r->buf.ptr, r->buf.len);
	}
	if (rc)
		goto done;
	memcpy(key, canon, 4);
	if (mev__strmap_intern(&r->b.people_map, key, 4, (uint32_t)r->b.people.n, &pos, &added)) {
		rc = mev_error_oom();
		goto done;
	}
	if (added) {
		mev_flow_person p = { 0 };
		mev_buf u = MEV_BUF_INIT;
		if (mev__to_utf8(&u, rn, strlen(rn)) || mev__buf_puts(&u, "")) {
			mev__buf_free(&u);
			rc = mev_error_oom();
			goto done;
		}
		p.name = mev__arena_strndup(&r->b.arena, u.ptr, u.len);
		mev__buf_free(&u);
		p.email = *re ? r->strings.v.v[*canon] : "";
		/* the email may hold bytes that are not UTF-8 */
		if (*re && !mev__utf8_valid(p.email, strlen(p.email))) {
			mev_buf v = MEV_BUF_INIT;
			if (mev__to_utf8(&v, p.email, strlen(p.email)) || mev__buf_puts(&v, "")) {
				mev__buf_free(&v);
				rc = mev_error_oom();
				goto done;
			}
			p.email = mev__arena_strndup(&r->b.arena, v.ptr, v.len);
			mev__buf_free(&v);
		} else if (*re) {
			p.email = mev__arena_strndup(&r->b.arena, p.email, strlen(p.email));
		}
		if (!p.name || !p.email || MEV_VEC_PUSH(&r->b.people, p) ||
		    MEV_VEC_PUSH(&r->b.people_canon, *canon)) {
			rc = mev_error_oom();
			goto done;
		}
	}
	*idx = pos;
done:
	free(n);
	free(e);
	return rc;
}

/* The release's string id of section s of ctx. */
static int title_id(uint32_t *id, mev__flow_runner *r, mev__flow_ctx *x, uint32_t s)
{
	int rc;
	if (x->title_ids[s]) {
		*id = x->title_ids[s] - 1;
		return 0;
	}
	const char *t = x->titles[s];
	if ((rc = mev__flow_intern(id, &r->b.str, t, strlen(t))))
		return rc;
	x->title_ids[s] = *id + 1;
	return 0;
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* Intern the set of sections ids[0..n) of ctx as release title ids. */
static int title_set(uint32_t *set, mev__flow_runner *r, mev__flow_ctx *x, const uint32_t *ids,
		     size_t n)
{
	uint32_t *t = malloc((n + 1) * sizeof *t);
	size_t k = 0;
	int added, rc = 0;
	if (!t)
		return mev_error_oom();
	for (size_t i = 0; i < n && !rc; i++)
		if (ids[i] != x->rest)
			rc = title_id(&t[k++], r, x, ids[i]);
	if (!rc) {
		if (k > 1)
			qsort(t, k, sizeof *t, u32_cmp);
		if (mev__strmap_intern(&r->b.set_map, (const char *)t, k * sizeof *t,
				       (uint32_t)r->b.set_off.n - 1, set, &added))
			rc = mev_error_oom();
		else if (added) {
			for (size_t i = 0; i < k && !rc; i++)
				rc = MEV_VEC_PUSH(&r->b.set_ids, t[i]);
			if (rc || MEV_VEC_PUSH(&r->b.set_off, (uint32_t)r->b.set_ids.n))
				rc = mev_error_oom();
		}
	}
	free(t);
	return rc;
}

/* 1 when the sorted lists a[0..na) and b[0..nb) share an element. */
static int meet(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
	size_t i = 0, j = 0;
	while (i < na && j < nb) {
		if (a[i] == b[j])
			return 1;
		if (a[i] < b[j])
			i++;
		else
			j++;
	}
	return 0;
}

typedef struct {
	mev__flow_runner *r;
	mev_flow_commit *c;
	MEV_VEC(uint32_t) sob, rev;  /* canonical ids */
	int rc;
} trailer_ctx;

static int on_trailer(void *vctx, mev_trailer_kind kind, const char *v, size_t len)
{
	trailer_ctx *t = vctx;
	mev_flow_trailer tr = { (uint8_t)kind, 0 };
	int rc;
	if (kind == MEV_TRAILER_LINK) {
		mev_buf u = MEV_BUF_INIT;
		rc = mev__to_utf8(&u, v, len) || mev__buf_puts(&u, "") ? mev_error_oom()
		     : mev__flow_intern(&tr.value, &t->r->b.str, u.ptr, u.len);
		mev__buf_free(&u);
	} else {
		mev__flow_span name, email;
		uint32_t canon;
		mev__flow_ident(&name, &email, v, len);
		if (!name.len && !email.len)
			return 0;
		rc = person(&tr.value, &canon, t->r, name.p, name.len, email.p, email.len);
		if (!rc && kind == MEV_TRAILER_SIGNED_OFF && MEV_VEC_PUSH(&t->sob, canon))
			rc = mev_error_oom();
		if (!rc && (kind == MEV_TRAILER_ACKED || kind == MEV_TRAILER_REVIEWED) &&
		    MEV_VEC_PUSH(&t->rev, canon))
			rc = mev_error_oom();
	}
	if (!rc && MEV_VEC_PUSH(&t->r->b.trailers, tr))
		rc = mev_error_oom();
	t->c->trailer_count += !rc;
	return t->rc = rc;
}

/* The sections covering the paths of ch (sorted, unique) into r->scratch;
 * *rest when THE REST covers one. */
static int cover(int *rest, mev__flow_runner *r, mev__flow_ctx *x, const mev_change_list *ch)
{
	r->scratch.n = 0;
	*rest = 0;
	for (size_t i = 0; i < ch->n; i++) {
		const uint32_t *ids;
		size_t n;
		int rc = mev__flow_match(&ids, &n, x, ch->v[i].path, ch->v[i].path_len);
		if (rc)
			return rc;
		for (size_t k = 0; k < n; k++) {
			if (ids[k] == x->rest) {
				*rest = 1;
				continue;
			}
			if (MEV_VEC_PUSH(&r->scratch, ids[k]))
				return mev_error_oom();
		}
	}
	if (r->scratch.n > 1) {
		size_t k = 1;
		qsort(r->scratch.v, r->scratch.n, sizeof *r->scratch.v, u32_cmp);
		for (size_t i = 1; i < r->scratch.n; i++)
			if (r->scratch.v[i] != r->scratch.v[k - 1])
				r->scratch.v[k++] = r->scratch.v[i];
		r->scratch.n = k;
	}
	return 0;
}

/* The verdicts of a covered commit (sections S in r->scratch). */
static uint8_t verdicts(mev__flow_runner *r, const mev__flow_ctx *x, uint32_t committer,
			const trailer_ctx *t, uint32_t route)
{
	const uint32_t *S = r->scratch.v, *l;
	size_t ns = r->scratch.n, n;
	uint8_t v = 0;
	n = mev__flow_person_sections(&l, x, committer, 0);
	if (meet(l, n, S, ns))
		v |= 1u << MEV_FLOW_COMMITTER_IS_MAINTAINER;
	for (size_t i = 0; i < t->sob.n; i++) {
		n = mev__flow_person_sections(&l, x, t->sob.v[i], 0);
		if (meet(l, n, S, ns))
			v |= 1u << MEV_FLOW_SIGNOFF_BY_MAINTAINER;
	}
	for (size_t i = 0; i < t->rev.n; i++) {
		n = mev__flow_person_sections(&l, x, t->rev.v[i], 0);
		if (meet(l, n, S, ns))
			v |= 1u << MEV_FLOW_REVIEWED_BY_LISTED;
		n = mev__flow_person_sections(&l, x, t->rev.v[i], 1);
		if (meet(l, n, S, ns))
			v |= 1u << MEV_FLOW_REVIEWED_BY_LISTED;
	}
	if (route) {
		const char *tree = r->b.routes.v[route].tree;
		int64_t id = *tree ? mev__strmap_get(&r->strings.map, tree, strlen(tree)) : -1;
		for (size_t i = 0; id >= 0 && i < ns; i++)
			for (uint32_t k = x->t_off[S[i]]; k < x->t_off[S[i] + 1]; k++)
				if (x->t_ids[k] == (uint32_t)id)
					v |= 1u << MEV_FLOW_VIA_LISTED_TREE;
	}
	return v;
}

int mev__flow_judge(mev__flow_runner *r, const mev_commit *c, uint32_t route, mev__flow_ctx *x,
		    const mev_change_list *ch)
{
	mev_flow_commit fc = { 0 };
	trailer_ctx t = { r, &fc, { 0 }, { 0 }, 0 };
	uint32_t committer, author_canon;
	int rc, rest = 0;

	fc.id = c->id;
	fc.author_time = c->author.time;
	fc.commit_time = c->committer.time;
	fc.route = route;
	if ((rc = person(&fc.author, &author_canon, r, c->author.name, strlen(c->author.name),
			 c->author.email, strlen(c->author.email))) ||
	    (rc = person(&fc.committer, &committer, r, c->committer.name, strlen(c->committer.name),
			 c->committer.email, strlen(c->committer.email))))
		goto done;
	fc.trailer_begin = (uint32_t)r->b.trailers.n;
	if ((rc = mev__flow_trailers(c->message, c->message_len, on_trailer, &t)))
		goto done;
	fc.path_begin = (uint32_t)r->b.paths.n;
	fc.path_count = (uint32_t)ch->n;
	for (size_t i = 0; i < ch->n; i++) {
		uint32_t id;
		if ((rc = mev__flow_intern(&id, &r->b.str, ch->v[i].path, ch->v[i].path_len)) ||
		    (rc = MEV_VEC_PUSH(&r->b.paths, id) ? mev_error_oom() : 0))
			goto done;
		fc.added += ch->v[i].added;
		fc.removed += ch->v[i].removed;
	}
	fc.has_churn = (uint8_t)r->churn;
	fc.coverage = MEV_FLOW_UNCOVERED;
	if (x) {
		const uint32_t *l;
		size_t n;
		if ((rc = mev__flow_canon(r)) || (rc = mev__flow_ctx_prepare(x, r->stamp, r->canon.v)) ||
		    (rc = cover(&rest, r, x, ch)))
			goto done;
		fc.coverage = r->scratch.n ? MEV_FLOW_COVERED : rest ? MEV_FLOW_REST_ONLY : MEV_FLOW_UNCOVERED;
		if (r->scratch.n)
			fc.verdicts = verdicts(r, x, committer, &t, route);
		if ((rc = title_set(&fc.sections, r, x, r->scratch.v, r->scratch.n)))
			goto done;
		n = mev__flow_person_sections(&l, x, committer, 0);
		if ((rc = title_set(&fc.committer_sections, r, x, l, n)))
			goto done;
	}
	rc = MEV_VEC_PUSH(&r->b.commits, fc) ? mev_error_oom() : 0;
done:
	MEV_VEC_FREE(&t.sob);
	MEV_VEC_FREE(&t.rev);
	return rc;
}

int mev__flow_workload(mev__flow_runner *r, mev__flow_ctx *x)
{
	int rc;
	if ((rc = mev__flow_canon(r)) || (rc = mev__flow_ctx_prepare(x, r->stamp, r->canon.v)))
		return rc;
	for (size_t i = 0; i < r->b.people.n; i++) {
		const uint32_t *l;
		size_t n, k;
		for (int rev = 0; rev < 2; rev++) {
			n = mev__flow_person_sections(&l, x, r->b.people_canon.v[i], rev);
			for (k = 0; k < n && l[k] != x->rest; k++)
				;
			n -= k < n; /* THE REST is not counted */
			if (rev)
				r->b.people.v[i].reviews = (uint32_t)n;
			else
				r->b.people.v[i].maintains = (uint32_t)n;
		}
	}
	return 0;
}
