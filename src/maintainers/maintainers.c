/*
 * A release's MAINTAINERS as scripts/get_maintainer.pl reads it: the parsed
 * object, parsing given files, and finding and loading them from a tree.
 */
#include "maintevo/maintainers.h"
#include "maintevo/error.h"
#include "maintainers_internal.h"
#include "dialect/dialect_shared.h"

#include <stdlib.h>
#include <string.h>

static mev_maint *maint_new(const mev_rules *rules)
{
	mev_maint *m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	if (rules)
		m->rules = *rules;
	else
		mev_rules_default(&m->rules, MEV_DIALECT_LINUX);
	return m;
}

static int parse_into(mev_maint *m, const mev_maint_input *files, size_t nfiles,
		      const mev_tree *tree)
{
	mev__field_lines tv = { 0 };
	int rc = 0;
	for (size_t i = 0; i < nfiles && !rc; i++) {
		const char *p = mev__arena_strndup(&m->arena, files[i].path, strlen(files[i].path));
		if (!p || MEV_VEC_PUSH(&m->files, p)) {
			rc = mev_error_oom();
			break;
		}
		rc = mev__dialect_has_reader(m->rules.dialect)
			? mev__maint_read_dialect(&tv, m, (uint32_t)i, files[i].data, files[i].len, tree)
			: mev__maint_read_file(&tv, m, (uint32_t)i, files[i].data, files[i].len, tree);
	}
	if (!rc)
		rc = mev__maint_build_sections(m, tv.v, tv.n);
	MEV_VEC_FREE(&tv);
	return rc;
}

int mev_maint_parse(mev_maint **out, const mev_rules *rules, const mev_maint_input *files,
		    size_t nfiles, const mev_tree *tree)
{
	mev_maint *m = maint_new(rules);
	int rc;
	*out = NULL;
	if (!m)
		return mev_error_oom();
	if ((rc = parse_into(m, files, nfiles, tree))) {
		mev_maint_free(m);
		return rc;
	}
	*out = m;
	return 0;
}

int mev_maint_load(mev_maint **out, const mev_rules *rules, mev_repo *repo, const mev_tree *tree)
{
	mev_maint *m = maint_new(rules);
	mev__path_list paths = { 0 };
	mev_maint_input *in = NULL;
	size_t i, nread = 0;
	int rc;

	*out = NULL;
	if (!m)
		return mev_error_oom();
	if ((rc = mev__maint_discover(&paths, m, tree)))
		goto done;
	in = calloc(paths.n + 1, sizeof *in);
	if (!in) {
		rc = mev_error_oom();
		goto done;
	}
	for (i = 0; i < paths.n; i++) {
		char *real = NULL;
		int64_t idx;
		int k = mev_tree_resolve(&real, tree, paths.v[i], strlen(paths.v[i]));
		in[nread].path = paths.v[i];
		if (k != MEV_KIND_FILE || (idx = mev_tree_find(tree, real, strlen(real))) < 0) {
			free(real);
			continue;
		}
		free(real);
		{
			char *data;
			size_t len;
			if ((rc = mev_repo_read_blob(&data, &len, repo, &mev_tree_files(tree)[idx].oid)))
				goto done;
			in[nread].data = data;
			in[nread].len = len;
			nread++;
		}
	}
	rc = parse_into(m, in, nread, tree);
done:
	for (i = 0; in && i < nread; i++)
		free((char *)in[i].data);
	free(in);
	for (i = 0; i < paths.n; i++)
		free(paths.v[i]);
	MEV_VEC_FREE(&paths);
	if (rc) {
		mev_maint_free(m);
		return rc;
	}
	*out = m;
	return 0;
}

int mev_maint_sources(mev_maint_source **out, size_t *n, const mev_rules *rules,
		      const mev_tree *tree)
{
	mev_maint *m = maint_new(rules);
	mev__path_list paths = { 0 };
	mev_maint_source *src = NULL;
	size_t k = 0;
	int rc;
	*out = NULL;
	*n = 0;
	if (!m)
		return mev_error_oom();
	if ((rc = mev__maint_discover(&paths, m, tree)))
		goto done;
	src = calloc(paths.n + 1, sizeof *src);
	if (!src) {
		rc = mev_error_oom();
		goto done;
	}
	for (size_t i = 0; i < paths.n; i++) {
		char *real = NULL;
		int64_t idx;
		if (mev_tree_resolve(&real, tree, paths.v[i], strlen(paths.v[i])) == MEV_KIND_FILE &&
		    (idx = mev_tree_find(tree, real, strlen(real))) >= 0) {
			src[k].path = paths.v[i];
			src[k].oid = mev_tree_files(tree)[idx].oid;
			paths.v[i] = NULL;
			k++;
		}
		free(real);
	}
	*out = src;
	*n = k;
done:
	for (size_t i = 0; i < paths.n; i++)
		free(paths.v[i]);
	MEV_VEC_FREE(&paths);
	mev_maint_free(m);
	return rc;
}

void mev_maint_sources_free(mev_maint_source *s, size_t n)
{
	for (size_t i = 0; s && i < n; i++)
		free(s[i].path);
	free(s);
}

int mev_maint_dirs_changed(const mev_maint *m, const mev_tree *tree)
{
	mev_buf conv = MEV_BUF_INIT;
	int changed = 0;
	if (m->rules.regex_patterns)
		return 0; /* no directory test */
	for (size_t i = 0; i < m->fields.n && !changed; i++) {
		const mev_field *f = &m->fields.v[i];
		if ((f->type != 'F' && f->type != 'X') || f->regex == mev__maint_never_regex)
			continue;
		if (mev__maint_convert_pattern(&conv, f->value, strlen(f->value), &m->rules, tree)) {
			changed = 1;
			break;
		}
		changed = strcmp(conv.ptr ? conv.ptr : "", f->regex) != 0;
	}
	mev__buf_free(&conv);
	return changed;
}

int mev_maint_set_dirs(mev_maint *m, int (*is_dir)(void *ctx, const char *path, size_t len),
		       void *ctx)
{
	if (m->rules.regex_patterns)
		return 0; /* no directory test */
	for (size_t i = 0; i < m->fields.n; i++) {
		mev_field *f = &m->fields.v[i];
		size_t len;
		char *p;
		int k;
		if ((f->type != 'F' && f->type != 'X') || f->regex == mev__maint_never_regex)
			continue;
		len = strlen(f->regex);
		if (!len || f->regex[len - 1] == '/')
			continue;
		if ((k = is_dir(ctx, f->regex, len)) < 0)
			return k;
		if (!k)
			continue;
		if (!(p = mev__arena_alloc(&m->arena, len + 2, 1)))
			return mev_error_oom();
		memcpy(p, f->regex, len);
		p[len] = '/';
		p[len + 1] = '\0';
		f->regex = p;
	}
	return 0;
}

void mev_maint_free(mev_maint *m)
{
	if (!m)
		return;
	MEV_VEC_FREE(&m->files);
	MEV_VEC_FREE(&m->fields);
	MEV_VEC_FREE(&m->sections);
	MEV_VEC_FREE(&m->diags);
	mev__arena_free(&m->arena);
	free(m);
}

size_t mev_maint_section_count(const mev_maint *m) { return m->sections.n; }
const mev_section *mev_maint_sections(const mev_maint *m) { return m->sections.v; }
size_t mev_maint_field_count(const mev_maint *m) { return m->fields.n; }
const mev_field *mev_maint_fields(const mev_maint *m) { return m->fields.v; }
size_t mev_maint_file_count(const mev_maint *m) { return m->files.n; }
const char *mev_maint_file(const mev_maint *m, uint32_t i) { return i < m->files.n ? m->files.v[i] : ""; }
const mev_rules *mev_maint_rules(const mev_maint *m) { return &m->rules; }

int mev_maint_unreadable(const mev_maint *m) { return m->unreadable; }

/* A copy of s in m's arena ("" stays a static ""); NULL stays NULL. */
static int dup_into(mev_maint *m, const char **s)
{
	const char *c;
	if (!*s || !**s)
		return 0;
	if (*s == mev__maint_never_regex)
		return 0;
	if (!(c = mev__arena_strndup(&m->arena, *s, strlen(*s))))
		return mev_error_oom();
	*s = c;
	return 0;
}

int mev_maint_carry(mev_maint **out, const mev_maint *from, const mev_maint *failed)
{
	mev_maint *m = maint_new(&failed->rules);
	int rc = 0;
	*out = NULL;
	if (!m)
		return mev_error_oom();
	for (size_t i = 0; i < from->files.n && !rc; i++) {
		const char *p = from->files.v[i];
		rc = dup_into(m, &p) || MEV_VEC_PUSH(&m->files, p) ? mev_error_oom() : 0;
	}
	for (size_t i = 0; i < from->fields.n && !rc; i++) {
		mev_field f = from->fields.v[i];
		if ((rc = dup_into(m, &f.value)) || (f.regex != f.value && (rc = dup_into(m, &f.regex))))
			break;
		if (f.regex && f.regex != mev__maint_never_regex && from->fields.v[i].regex == from->fields.v[i].value)
			f.regex = f.value;
		rc = MEV_VEC_PUSH(&m->fields, f) ? mev_error_oom() : 0;
	}
	for (size_t i = 0; i < from->sections.n && !rc; i++) {
		mev_section s = from->sections.v[i];
		int same = s.display == s.title;
		if ((rc = dup_into(m, &s.title)) || (rc = dup_into(m, &s.raw_title)) ||
		    (!same && (rc = dup_into(m, &s.display))) || (rc = dup_into(m, &s.status_text)))
			break;
		if (same)
			s.display = s.title;
		rc = MEV_VEC_PUSH(&m->sections, s) ? mev_error_oom() : 0;
	}
	for (size_t i = 0; i < failed->diags.n && !rc; i++) {
		const mev_diag *d = &failed->diags.v[i];
		const char *path = d->file < failed->files.n ? failed->files.v[d->file] : NULL;
		uint32_t j = 0;
		/* the same file in the sections kept: its line numbers are this one's */
		while (path && j < m->files.n && strcmp(m->files.v[j], path) != 0)
			j++;
		if (!path || j < m->files.n)
			rc = mev__maint_diag_add(m, path ? j : UINT32_MAX, d->line, "%s", d->message);
		else
			rc = mev__maint_diag_add(m, UINT32_MAX, 0, "%s:%u: %s", path, d->line, d->message);
	}
	if (!rc)
		rc = mev__maint_diag_add(m, UINT32_MAX, 0,
			"a file could not be read: the sections of the release before are kept");
	if (rc) {
		mev_maint_free(m);
		return rc;
	}
	*out = m;
	return 0;
}
