/*
 * Cutting MAINTAINERS fields into sections as scripts/get_maintainer.pl
 * does: each maximal run of field lines is a section whose title is the
 * non-field line just before it.  Display titles are made unique.
 */
#include "maint_internal.h"
#include "maintevo/error.h"
#include "util/strmap.h"
#include "util/text.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { TITLE_MAX = 200 };

const char *mev_status_name(mev_status s)
{
	static const char *const names[] = { "", "Supported", "Maintained", "Odd Fixes", "Orphan",
					     "Obsolete", "Buried alive in reporters", "Other" };
	return (unsigned)s < sizeof names / sizeof *names ? names[s] : "Other";
}

static mev_status parse_status(const char *s)
{
	static const struct { const char *prefix; mev_status st; } map[] = {
		{ "supported", MEV_STATUS_SUPPORTED }, { "maintained", MEV_STATUS_MAINTAINED },
		{ "odd fix", MEV_STATUS_ODD_FIXES }, { "orphan", MEV_STATUS_ORPHAN },
		{ "obsolete", MEV_STATUS_OBSOLETE }, { "buried", MEV_STATUS_BURIED },
	};
	for (size_t i = 0; i < sizeof map / sizeof *map; i++)
		if (strncasecmp(s, map[i].prefix, strlen(map[i].prefix)) == 0)
			return map[i].st;
	return MEV_STATUS_OTHER;
}

/* Display form of a raw line: UTF-8, trailing white space and CR removed. */
static char *display_text(mev_maint *m, const char *s, size_t len, int *truncated)
{
	mev_buf b = MEV_BUF_INIT;
	char *out;
	*truncated = 0;
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r' ||
		       s[len - 1] == '\f' || s[len - 1] == '\v'))
		len--;
	if (len > TITLE_MAX) {
		len = TITLE_MAX;
		*truncated = 1;
	}
	if (memchr(s, '\0', len))
		len = strnlen(s, len);
	if (mev__to_utf8(&b, s, len))
		return NULL;
	if (*truncated && mev__buf_puts(&b, "..."))
		return NULL;
	out = mev__arena_strndup(&m->arena, b.ptr, b.len);
	mev__buf_free(&b);
	return out;
}

/* A line of only '-' or '=' (at least three), trailing white space aside. */
static int is_underline(const char *s, size_t len)
{
	size_t n = 0;
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
		len--;
	for (; n < len; n++)
		if (s[n] != '-' && s[n] != '=')
			return 0;
	return n >= 3;
}

/* The title of the section whose fields start at tv[i], and where it is. */
static int section_title(mev_maint *m, mev_section *s, const mev__tv_entry *tv, size_t i)
{
	const mev__tv_entry *t;
	int trunc = 0;
	if (i == 0) {
		s->raw_title = "";
		s->title = "(untitled)";
		s->file = tv[i].file;
		s->line = tv[i].line;
		mev__maint_diag_add(m, tv[i].file, tv[i].line, "fields before any section title");
		return 0;
	}
	t = &tv[i - 1];
	s->raw_title = mev__arena_strndup(&m->arena, t->text, t->text_len);
	if (is_underline(t->text, t->text_len) && i > 1 && !tv[i - 2].is_field) {
		/* QEMU: "Group header" then "------": the script's title is the
		 * underline; show the header instead */
		const mev__tv_entry *h = &tv[i - 2];
		s->title = display_text(m, h->text, h->text_len, &trunc);
		if (s->title)
			mev__maint_diag_add(m, t->file, t->line,
				"section title is an underline; shown as '%s'", s->title);
	} else {
		s->title = display_text(m, t->text, t->text_len, &trunc);
	}
	s->file = t->file;
	s->line = t->line;
	if (!s->raw_title || !s->title)
		return mev_error_oom();
	if (trunc)
		mev__maint_diag_add(m, t->file, t->line,
				    "section title longer than %d bytes; shortened", TITLE_MAX);
	if (t->file != tv[i].file)
		mev__maint_diag_add(m, tv[i].file, tv[i].line,
			"file starts with field lines; get_maintainer.pl adds them to the last section of '%s'",
			m->files.v[t->file]);
	return 0;
}

/* Count the fields of a section by kind; its status is the first S:. */
static int count_fields(mev_maint *m, mev_section *s, const mev__tv_entry *tv, size_t i, size_t j)
{
	for (size_t k = i; k < j; k++) {
		const mev_field *f = &m->fields.v[tv[k].field];
		int tr;
		switch (f->type) {
		case 'M': s->n_maintainers++; break;
		case 'R': s->n_reviewers++; break;
		case 'L': s->n_lists++; break;
		case 'T': s->n_trees++; break;
		case 'F': case 'X': case 'N': s->n_patterns++; break;
		case 'S':
			if (s->status_text)
				break;
			s->status_text = display_text(m, f->value, strlen(f->value), &tr);
			if (!s->status_text)
				return mev_error_oom();
			s->status = parse_status(s->status_text);
			if (s->status == MEV_STATUS_OTHER)
				mev__maint_diag_add(m, f->file, f->line, "unknown status '%s'",
						    s->status_text);
			break;
		default: break;
		}
	}
	if (!s->status_text)
		s->status_text = "";
	return 0;
}

/* The regex is ".*" repeated n/2 times (n = 0: empty). */
static int only_dot_stars(const char *re, size_t n)
{
	if (n % 2)
		return 0;
	for (size_t i = 0; i < n; i += 2)
		if (re[i] != '.' || re[i + 1] != '*')
			return 0;
	return 1;
}

/*
 * The catch-all (Linux's THE REST, QEMU's "All patches CC here"), found by
 * what it covers, whatever its title: a section without X: lines whose F:
 * lines by themselves cover every path.  Under file_match_pattern() a
 * pattern without a trailing '/' covers only paths with as many '/' as it
 * has, so that takes one made of ".*" alone for the top-level files
 * ("F: *", or an empty "F:") and one of ".*" then a single trailing '/'
 * for all the others (the "F: * /" of THE REST, without the space).
 * N: lines are not considered: docs/matching.md says why.
 */
static int covers_everything(const mev_maint *m, const mev_section *s)
{
	int top = 0, deep = 0;
	for (uint32_t k = 0; k < s->field_count; k++) {
		const mev_field *f = &m->fields.v[s->field_begin + k];
		size_t n;
		if (f->type == 'X')
			return 0;
		if (f->type != 'F' || !f->regex)
			continue;
		n = strlen(f->regex);
		if (only_dot_stars(f->regex, n))
			top = 1;
		else if (n >= 3 && f->regex[n - 1] == '/' && only_dot_stars(f->regex, n - 1))
			deep = 1;
	}
	return top && deep;
}

/*
 * Give the section a display title "TITLE #k" no other section has, k from
 * *next on; *next becomes k + 1.  A title once taken stays taken, so every
 * k below *next is still taken when the next repeat of TITLE comes: it
 * starts where the one before stopped, and n repeats cost O(n), not O(n^2)
 * (the titles are exactly those of a search from 2 each time).
 */
static int rename_repeat(mev_maint *m, mev_strmap *taken, uint32_t i, uint32_t first,
			 uint32_t *next)
{
	mev_section *s = &m->sections.v[i];
	const mev_section *f0 = &m->sections.v[first];
	const char *base = s->title;
	mev_buf b = MEV_BUF_INIT;
	uint32_t k = *next;
	int rc = 0;
	for (;; k++) {
		mev__buf_clear(&b);
		if (mev__buf_printf(&b, "%s #%u", base, k)) {
			rc = mev_error_oom();
			goto done;
		}
		if (mev__strmap_get(taken, b.ptr, b.len) < 0)
			break;
	}
	*next = k + 1;
	mev__maint_diag_add(m, s->file, s->line,
		"duplicate section title '%s' (first at %s:%u); kept apart as '%s'",
		base, m->files.v[f0->file], f0->line, b.ptr);
	if ((rc = mev__strmap_intern(taken, b.ptr, b.len, i, NULL, NULL)))
		goto done;
	s->title = mev__arena_strndup(&m->arena, b.ptr, b.len);
	if (!s->title)
		rc = mev_error_oom();
done:
	mev__buf_free(&b);
	return rc;
}

/* Unique display titles: repeats become "TITLE #2", "TITLE #3", ... */
static int unique_titles(mev_maint *m)
{
	mev_strmap seen = MEV_STRMAP_INIT, taken = MEV_STRMAP_INIT;
	MEV_VEC(uint32_t) next = { 0 };   /* by first section of a title: its next k */
	int rc = 0;
	for (size_t i = 0; i < m->sections.n && !rc; i++) {
		const char *t = m->sections.v[i].title;
		rc = mev__strmap_intern(&taken, t, strlen(t), (uint32_t)i, NULL, NULL);
	}
	if (!rc)
		rc = MEV_VEC_RESERVE(&next, m->sections.n + 1);
	for (size_t i = 0; i < m->sections.n && !rc; i++) {
		const char *t = m->sections.v[i].title;
		uint32_t first;
		int added;
		if ((rc = mev__strmap_intern(&seen, t, strlen(t), (uint32_t)i, &first, &added)))
			break;
		if (added)
			next.v[i] = 2;
		else
			rc = rename_repeat(m, &taken, (uint32_t)i, first, &next.v[first]);
	}
	MEV_VEC_FREE(&next);
	mev__strmap_free(&seen);
	mev__strmap_free(&taken);
	return rc;
}

int mev__maint_build_sections(mev_maint *m, const mev__tv_entry *tv, size_t n)
{
	size_t i = 0;
	int rc;

	while (i < n) {
		mev_section s = { 0 };
		size_t j;
		if (!tv[i].is_field) {
			if (i + 1 < n && !tv[i + 1].is_field && m->sections.n)
				mev__maint_diag_add(m, tv[i].file, tv[i].line,
					"line is not followed by fields; the next title line wins");
			i++;
			continue;
		}
		for (j = i; j < n && tv[j].is_field; j++)
			/* the script concatenates the files: a file that starts
			 * with field lines extends the section read before it */
			if (j > i && tv[j].file != tv[j - 1].file)
				mev__maint_diag_add(m, tv[j].file, tv[j].line,
					"file starts with field lines; get_maintainer.pl adds them to the last section of '%s'",
					m->files.v[tv[j - 1].file]);
		s.field_begin = tv[i].field;
		s.field_count = (uint32_t)(j - i);
		if ((rc = section_title(m, &s, tv, i)))
			return rc;
		if (s.title[0] == '\0')
			s.title = "(untitled)";
		if ((rc = count_fields(m, &s, tv, i, j)))
			return rc;
		s.is_rest = covers_everything(m, &s);
		if (MEV_VEC_PUSH(&m->sections, s))
			return mev_error_oom();
		i = j;
	}
	return unique_titles(m);
}
