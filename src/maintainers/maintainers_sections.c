/*
 * Cutting MAINTAINERS fields into sections as scripts/get_maintainer.pl
 * does: each maximal run of field lines is a section whose title is the
 * non-field line just before it.  Titles (the keys) and display names are
 * made unique.
 */
#include "maintainers_internal.h"
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

/* A commented-out field line: white space, '#', white space, a letter and
 * ':' ("#M:\t-", "# S: Maintained"). */
static int is_comment_field(const char *s, size_t len)
{
	size_t k = 0;
	while (k < len && (s[k] == ' ' || s[k] == '\t'))
		k++;
	if (k == len || s[k++] != '#')
		return 0;
	while (k < len && (s[k] == ' ' || s[k] == '\t'))
		k++;
	return k + 1 < len && ((s[k] >= 'A' && s[k] <= 'Z') || (s[k] >= 'a' && s[k] <= 'z')) &&
	       s[k + 1] == ':';
}

static mev_title_kind title_kind(const char *s, size_t len)
{
	if (is_underline(s, len))
		return MEV_TITLE_UNDERLINE;
	return is_comment_field(s, len) ? MEV_TITLE_COMMENT : MEV_TITLE_NAME;
}

/* A title line that is a name and no comment at all. */
static int is_name_line(const char *s, size_t len)
{
	size_t k = 0;
	while (k < len && (s[k] == ' ' || s[k] == '\t'))
		k++;
	return k < len && s[k] != '#' && title_kind(s, len) == MEV_TITLE_NAME;
}

const char *mev_title_kind_name(mev_title_kind k)
{
	static const char *const names[MEV_TITLE_KINDS] = { "name", "comment", "underline" };
	return (unsigned)k < MEV_TITLE_KINDS ? names[k] : names[0];
}

/*
 * The display name of a title that is not a name, from the line above it
 * (tv[i - 2]): an underline's group header ("Alpha Machines" over
 * "--------------"); the name line above a commented-out field line
 * ("NET2BIG_V2 BOARD" over "#M:\t-", the title later scripts read), when
 * that is a name itself, not a comment.  NULL when there is no such line.
 */
static const char *display_above(mev_maint *m, const mev_section *s, const mev__field_line *tv,
				 size_t i, int *oom)
{
	const mev__field_line *h = i > 1 ? &tv[i - 2] : NULL;
	const char *d;
	int trunc;
	*oom = 0;
	if (!h || h->is_field || h->file != tv[i - 1].file ||
	    (s->title_kind == MEV_TITLE_COMMENT && !is_name_line(h->text, h->text_len)))
		return NULL;
	d = display_text(m, h->text, h->text_len, &trunc);
	*oom = !d;
	return d && *d ? d : NULL;
}

/* The title of the section whose fields start at tv[i], its kind, and where it is. */
static int section_title(mev_maint *m, mev_section *s, const mev__field_line *tv, size_t i)
{
	const mev__field_line *t;
	int trunc = 0, oom;
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
	s->title = display_text(m, t->text, t->text_len, &trunc);
	s->title_kind = (uint8_t)title_kind(t->text, t->text_len);
	s->file = t->file;
	s->line = t->line;
	if (!s->raw_title || !s->title)
		return mev_error_oom();
	if (s->title_kind != MEV_TITLE_NAME) {
		s->display = display_above(m, s, tv, i, &oom);
		if (oom)
			return mev_error_oom();
	}
	/* QEMU: "Group header" then "------": the script's title is the underline */
	if (s->title_kind == MEV_TITLE_UNDERLINE && s->display)
		mev__maint_diag_add(m, t->file, t->line,
			"section title is an underline; displayed as '%s'", s->display);
	else if (s->title_kind == MEV_TITLE_UNDERLINE)
		mev__maint_diag_add(m, t->file, t->line,
			"section title is an underline without a header above it");
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
static int count_fields(mev_maint *m, mev_section *s, const mev__field_line *tv, size_t i, size_t j)
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
 * N: lines are not considered: docs/matching.md says why.  A section that
 * covers only the top-level files (edk2's "Tianocore Stewards", "F: *")
 * is not one, though edk2's script also falls back to it (the path
 * "<default>") for the paths whose sections name no maintainer: it has
 * maintainers and files of its own, so it is a vertex like any section.
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
		if (m->rules.regex_patterns) {
			/* a dialect's own script: "F: *" and "F: * /" (no space) is the
			 * catch-all of every one of them (OP-TEE's THE REST, edk2's
			 * "All patches CC:d here") */
			top |= strcmp(f->value, "*") == 0;
			deep |= strcmp(f->value, "*/") == 0;
			continue;
		}
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

/*
 * The folder an F: value names, ending in '/', into *out: the value up to
 * its last '/' before any glob character ("board/a/b/" of "board/a/b/" and
 * of "board/a/b/x*.c"), all of it when the script's directory test made it
 * one ("board/a/b" whose regex ends in '/'); "" for a top-level pattern.
 */
static int pattern_dir(mev_buf *out, const mev_field *f)
{
	size_t len = strlen(f->value), n = strcspn(f->value, "*?[{(|\\");
	size_t rl = f->regex ? strlen(f->regex) : 0;
	mev__buf_clear(out);
	if (n == len && len && f->value[len - 1] != '/' && rl && f->regex[rl - 1] == '/')
		return mev__buf_put(out, f->value, len) || mev__buf_putc(out, '/') ? mev_error_oom() : 0;
	while (n && f->value[n - 1] != '/')
		n--;
	return mev__buf_put(out, f->value, n) ? mev_error_oom() : 0;
}

/* The deepest folder the F: patterns of s share (only those under board/
 * when `board`), ending in '/', into *common; "" when none. */
static int shared_dir(mev_buf *common, const mev_maint *m, const mev_section *s, int board)
{
	mev_buf dir = MEV_BUF_INIT;
	int any = 0, rc = 0;
	mev__buf_clear(common);
	for (uint32_t k = 0; k < s->field_count && !rc; k++) {
		const mev_field *f = &m->fields.v[s->field_begin + k];
		size_t c = 0;
		if (f->type != 'F' || (rc = pattern_dir(&dir, f)))
			continue;
		if (board && strncmp(dir.ptr, "board/", 6) != 0)
			continue;
		if (!any++) {
			rc = mev__buf_put(common, dir.ptr, dir.len) ? mev_error_oom() : 0;
			continue;
		}
		while (c < common->len && c < dir.len && common->ptr[c] == dir.ptr[c])
			c++;
		while (c && common->ptr[c - 1] != '/')
			c--;
		common->len = c;
	}
	mev__buf_free(&dir);
	return rc;
}

/*
 * The display name of a title that is not a name and has no line above to
 * show (display_above()): the deepest folder its F: patterns under board/
 * share (U-Boot's board sections), else the one all of them share, else
 * its first F: value; the title when it has no F: line.
 */
static int display_from_patterns(mev_maint *m, mev_section *s)
{
	mev_buf common = MEV_BUF_INIT;
	int rc = 0, trunc;
	for (int board = 1; board >= 0 && !rc && !s->display; board--)
		if (!(rc = shared_dir(&common, m, s, board)) && common.len > (board ? 6u : 0u) &&
		    !(s->display = display_text(m, common.ptr, common.len - 1, &trunc)))
			rc = mev_error_oom();
	for (uint32_t k = 0; k < s->field_count && !rc && !s->display; k++) {
		const mev_field *f = &m->fields.v[s->field_begin + k];
		if (f->type == 'F' && f->value[0] &&
		    !(s->display = display_text(m, f->value, strlen(f->value), &trunc)))
			rc = mev_error_oom();
	}
	mev__buf_free(&common);
	if (!rc && (!s->display || !s->display[0]))
		s->display = s->title;
	return rc;
}

/*
 * Unique display names: a name's is its (unique) title; the others take
 * theirs in reading order, "NAME #2", "NAME #3", ... when it is taken.
 * next: per display name met, the k to try from (every one below is taken).
 */
static int unique_displays(mev_maint *m)
{
	mev_strmap taken = MEV_STRMAP_INIT, next = MEV_STRMAP_INIT;
	mev_buf b = MEV_BUF_INIT;
	int rc = 0;
	for (size_t i = 0; i < m->sections.n && !rc; i++) {
		mev_section *s = &m->sections.v[i];
		if (s->title_kind == MEV_TITLE_NAME || !s->display)
			s->display = s->title;
		if (s->title_kind == MEV_TITLE_NAME)
			rc = mev__strmap_put(&taken, s->title, strlen(s->title), 1);
	}
	for (size_t i = 0; i < m->sections.n && !rc; i++) {
		mev_section *s = &m->sections.v[i];
		size_t l = strlen(s->display);
		int64_t k0;
		uint32_t k;
		int added;
		if (s->title_kind == MEV_TITLE_NAME)
			continue;
		if ((rc = mev__strmap_intern(&taken, s->display, l, 1, &k, &added)) || added)
			continue;
		k0 = mev__strmap_get(&next, s->display, l);
		for (k = k0 < 0 ? 2 : (uint32_t)k0;; k++) {
			mev__buf_clear(&b);
			if (mev__buf_printf(&b, "%s #%u", s->display, k)) {
				rc = mev_error_oom();
				break;
			}
			if (mev__strmap_get(&taken, b.ptr, b.len) < 0)
				break;
		}
		if (rc || (rc = mev__strmap_put(&next, s->display, l, k + 1)) ||
		    (rc = mev__strmap_put(&taken, b.ptr, b.len, 1)))
			break;
		if (!(s->display = mev__arena_strndup(&m->arena, b.ptr, b.len)))
			rc = mev_error_oom();
	}
	mev__buf_free(&b);
	mev__strmap_free(&taken);
	mev__strmap_free(&next);
	return rc ? mev_error_oom() : 0;
}

/*
 * Whether the title line tv[i] is passed over by the next title line
 * (a note): not when that is the underline of its group header (DPDK,
 * QEMU) and a line follows the underline, whose own note (passed over in
 * turn, or the section's title) then says it for the pair, so that each
 * underline gives one note.
 */
static int title_passed_over(const mev__field_line *tv, size_t i, size_t n)
{
	const mev__field_line *next = i + 1 < n ? &tv[i + 1] : NULL;
	return next && !next->is_field &&
	       !(i + 2 < n && next->file == tv[i].file && is_underline(next->text, next->text_len));
}

int mev__maint_build_sections(mev_maint *m, const mev__field_line *tv, size_t n)
{
	size_t i = 0;
	int rc;

	while (i < n) {
		mev_section s = { 0 };
		size_t j;
		if (!tv[i].is_field) {
			if (m->sections.n && title_passed_over(tv, i, n))
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
		if (s.title_kind != MEV_TITLE_NAME && !s.display && (rc = display_from_patterns(m, &s)))
			return rc;
		if (MEV_VEC_PUSH(&m->sections, s))
			return mev_error_oom();
		i = j;
	}
	if ((rc = unique_titles(m)))
		return rc;
	return unique_displays(m);
}
