/*
 * Routes: which merge on the first-parent line brought each commit in.
 * The merges of that line are taken oldest first; the commits reachable
 * from a merge's other parents and not yet assigned are those it brought
 * (everything reachable from its first parent was assigned before it).
 */
#include "flow_internal.h"
#include "maintevo/error.h"
#include "util/text.h"

#include <stdlib.h>
#include <string.h>

/* The first line of a message, as UTF-8, into the builder's arena. */
static const char *subject(mev__flow_runner *r, const mev_commit *c)
{
	const char *nl = memchr(c->message, '\n', c->message_len);
	size_t len = nl ? (size_t)(nl - c->message) : c->message_len;
	mev_buf u = MEV_BUF_INIT;
	const char *s = NULL;
	if (!mev__to_utf8(&u, c->message, len) && !mev__buf_puts(&u, ""))
		s = mev__arena_strndup(&r->b.arena, u.ptr, u.len);
	mev__buf_free(&u);
	return s;
}

static int add_route(uint32_t *id, mev__flow_runner *r, const mev_commit *m)
{
	mev_flow_route rt;
	mev_buf tree = MEV_BUF_INIT;
	uint32_t sid;
	int rc;
	rt.merge = m->id;
	rt.subject = subject(r, m);
	if (!rt.subject)
		return mev_error_oom();
	if ((rc = mev__flow_merge_tree(&tree, rt.subject, strlen(rt.subject))))
		goto done;
	rt.tree = mev__arena_strndup(&r->b.arena, tree.ptr ? tree.ptr : "", tree.len);
	/* the tree is compared with the T: lines through the run's strings */
	if (!rt.tree || (tree.len && (rc = mev__flow_intern(&sid, &r->strings, tree.ptr, tree.len)))) {
		rc = rc ? rc : mev_error_oom();
		goto done;
	}
	*id = (uint32_t)r->b.routes.n;
	rc = MEV_VEC_PUSH(&r->b.routes, rt) ? mev_error_oom() : 0;
done:
	mev__buf_free(&tree);
	return rc;
}

int mev__flow_routes(uint32_t *route_of, mev__flow_runner *r, const mev_commit *commits, size_t n)
{
	mev_strmap idx = MEV_STRMAP_INIT;
	MEV_VEC(uint32_t) chain = { 0 }, stack = { 0 };
	uint8_t *main_line = calloc(n + 1, 1);
	size_t unassigned = 0;
	int64_t x;
	int rc = 0;

	if (!main_line)
		return mev_error_oom();
	for (size_t i = 0; i < n; i++) {
		route_of[i] = UINT32_MAX;
		if (mev__strmap_put(&idx, (const char *)commits[i].id.id, 20, (uint32_t)i)) {
			rc = mev_error_oom();
			goto done;
		}
	}
	/* the first-parent line from the tip (the last commit) down to the range's end */
	for (x = n ? (int64_t)n - 1 : -1; x >= 0;) {
		main_line[x] = 1;
		if (MEV_VEC_PUSH(&chain, (uint32_t)x)) {
			rc = mev_error_oom();
			goto done;
		}
		x = commits[x].n_parents ? mev__strmap_get(&idx, (const char *)commits[x].parents[0].id, 20) : -1;
		if (x >= 0 && main_line[x])
			break; /* cannot happen in a history; no loop either way */
	}
	for (size_t j = chain.n; j-- > 0;) {
		const mev_commit *m = &commits[chain.v[j]];
		uint32_t rid = 0;
		route_of[chain.v[j]] = 0;
		if (m->n_parents < 2)
			continue;
		if ((rc = add_route(&rid, r, m)))
			goto done;
		stack.n = 0;
		for (size_t p = 1; p < m->n_parents; p++) {
			int64_t k = mev__strmap_get(&idx, (const char *)m->parents[p].id, 20);
			if (k >= 0 && MEV_VEC_PUSH(&stack, (uint32_t)k)) {
				rc = mev_error_oom();
				goto done;
			}
		}
		while (stack.n) {
			uint32_t k = stack.v[--stack.n];
			if (route_of[k] != UINT32_MAX || main_line[k])
				continue;
			route_of[k] = rid;
			for (size_t p = 0; p < commits[k].n_parents; p++) {
				int64_t q = mev__strmap_get(&idx, (const char *)commits[k].parents[p].id, 20);
				if (q >= 0 && route_of[q] == UINT32_MAX && MEV_VEC_PUSH(&stack, (uint32_t)q)) {
					rc = mev_error_oom();
					goto done;
				}
			}
		}
	}
	for (size_t i = 0; i < n; i++)
		if (route_of[i] == UINT32_MAX) {
			route_of[i] = 0;
			unassigned++;
		}
	if (unassigned)
		rc = mev__flow_note(r, "%zu commits reached by no merge of the first-parent line: "
				    "counted as direct", unassigned);
done:
	mev__strmap_free(&idx);
	MEV_VEC_FREE(&chain);
	MEV_VEC_FREE(&stack);
	free(main_line);
	return rc;
}
