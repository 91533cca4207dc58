/*
 * The release-over-release report.  The facts are gathered once (two
 * releases, their sections and file tables, the series over all releases),
 * then written through a tiny document layer that has a Markdown and an
 * HTML form, so both formats always carry the same facts.  HTML adds inline
 * SVG charts (chart.c).
 */
#include "maintevo/report.h"
#include "maintevo/error.h"
#include "maintevo/export.h"
#include "maintevo/csv.h"
#include "maintevo/version.h"
#include "util/buf.h"
#include "util/strmap.h"
#include "chart.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

enum { LIST_MAX = 60, TOP_N = 10, SERIES_MD = 12 };

int mev_report_format_parse(const char *name)
{
	if (strcmp(name, "md") == 0 || strcmp(name, "markdown") == 0)
		return MEV_REPORT_MD;
	if (strcmp(name, "html") == 0)
		return MEV_REPORT_HTML;
	return -1;
}

/* --- the facts ------------------------------------------------------------------ */

/* One of the two releases compared. */
typedef struct {
	const mev_release *rel;    /* borrowed from report.list */
	mev_filemap *secs;         /* its sections (no rows) */
	mev_graph *g;
	mev_edge *size;            /* own size per section index */
	mev_filemap *files;        /* its file table; NULL when it has none */
	mev_section_census census;
	int64_t clusters;          /* -1 when not clustered */
	mev_strmap by_title;       /* title -> section index */
} side;

/* A section in both releases (same title, or renamed). */
typedef struct {
	uint32_t a, b;             /* index in the older / newer release */
	uint64_t overlap;          /* renames: lines of a's code b covers now */
} pair;

typedef struct {
	mev_store *store;
	const mev_report_options *opt;
	mev_release *list;
	size_t nlist, ia, ib;      /* the two releases: list[ia] older, list[ib] newer */
	side a, b;
	MEV_VEC(uint32_t) added;   /* indices in b */
	MEV_VEC(uint32_t) removed; /* indices in a */
	MEV_VEC(pair) renamed;
	MEV_VEC(pair) kept;        /* same title, and renamed ones */
	int renames_known;         /* both releases have file tables */
	const char *project;
	char project_buf[64];
} report;

static int64_t sec_lines(const side *s, uint32_t i) { return (int64_t)s->size[i].lines; }
static const char *sec_title(const side *s, uint32_t i)
{
	return mev_filemap_sections(s->secs)[i].title;
}

static int side_load(report *r, side *s, size_t idx)
{
	const mev_section_info *si;
	const mev_edge *e;
	size_t nsec;
	int rc;
	s->rel = &r->list[idx];
	s->clusters = -1;
	if ((rc = mev_store_load_graph(r->store, s->rel->tag, 0, &s->secs, &s->g)))
		return rc;
	si = mev_filemap_sections(s->secs);
	nsec = mev_filemap_section_count(s->secs);
	if (!(s->size = calloc(nsec + 1, sizeof *s->size)))
		return mev_error_oom();
	e = mev_graph_edges(s->g);
	for (size_t i = 0; i < mev_graph_edge_count(s->g); i++)
		if (e[i].a == e[i].b)
			s->size[e[i].a] = e[i];
	for (size_t i = 0; i < nsec; i++) {
		if (si[i].is_rest)
			continue;
		s->census.sections++;
		s->census.no_maintainer += si[i].n_maintainers == 0;
		s->census.orphan += strncasecmp(si[i].status, "orphan", 6) == 0;
		if (mev_strmap_put(&s->by_title, si[i].title, strlen(si[i].title), (uint32_t)i))
			return MEV_ENOMEM;
	}
	if (s->rel->has_files && (rc = mev_store_load_filemap(r->store, s->rel->tag, &s->files)))
		return rc;
	return 0;
}

static void side_free(side *s)
{
	mev_filemap_free(s->files);
	free(s->size);
	mev_graph_free(s->g);
	mev_filemap_free(s->secs);
	mev_strmap_free(&s->by_title);
}

static const report *sort_report; /* qsort has no context argument */

/* Biggest first, then by title. */
static int by_lines_a(const void *x, const void *y)
{
	uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
	int64_t li = sec_lines(&sort_report->a, i), lj = sec_lines(&sort_report->a, j);
	return li != lj ? (li < lj ? 1 : -1) : strcmp(sec_title(&sort_report->a, i), sec_title(&sort_report->a, j));
}

static int by_lines_b(const void *x, const void *y)
{
	uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
	int64_t li = sec_lines(&sort_report->b, i), lj = sec_lines(&sort_report->b, j);
	return li != lj ? (li < lj ? 1 : -1) : strcmp(sec_title(&sort_report->b, i), sec_title(&sort_report->b, j));
}

static int by_overlap(const void *x, const void *y)
{
	const pair *p = x, *q = y;
	int c;
	if (p->overlap != q->overlap)
		return p->overlap < q->overlap ? 1 : -1;
	c = strcmp(sec_title(&sort_report->a, p->a), sec_title(&sort_report->a, q->a));
	return c ? c : strcmp(sec_title(&sort_report->b, p->b), sec_title(&sort_report->b, q->b));
}

/*
 * Renames: a removed section whose code (lines of the files it covered)
 * is now covered for at least 80% by one added section, counting files
 * present in both releases by path.  Pairs are taken one to one, largest
 * overlap first.
 */
static int find_renames(report *r, uint8_t *gone, uint8_t *born)
{
	const mev_file_row *ra = mev_filemap_rows(r->a.files), *rb = mev_filemap_rows(r->b.files);
	size_t na = mev_filemap_count(r->a.files), nb = mev_filemap_count(r->b.files), i = 0, j = 0;
	mev_strmap index = MEV_STRMAP_INIT;
	MEV_VEC(pair) cand = { 0 };
	int rc = 0;
	while (i < na && j < nb && !rc) {
		size_t m = ra[i].path_len < rb[j].path_len ? ra[i].path_len : rb[j].path_len;
		int c = memcmp(ra[i].path, rb[j].path, m);
		const uint32_t *ida, *idb;
		size_t ka, kb;
		if (!c)
			c = ra[i].path_len < rb[j].path_len ? -1 : ra[i].path_len > rb[j].path_len;
		if (c) {
			c < 0 ? i++ : j++;
			continue;
		}
		ka = mev_filemap_set(r->a.files, ra[i].set, &ida);
		kb = mev_filemap_set(r->b.files, rb[j].set, &idb);
		for (size_t x = 0; x < ka && !rc; x++) {
			if (!gone[ida[x]])
				continue;
			for (size_t y = 0; y < kb && !rc; y++) {
				uint32_t key[2] = { ida[x], idb[y] }, at;
				int fresh;
				if (!born[idb[y]])
					continue;
				if (mev_strmap_intern(&index, (const char *)key, sizeof key, (uint32_t)cand.n, &at,
						      &fresh)) {
					rc = MEV_ENOMEM;
					break;
				}
				if (fresh) {
					pair p = { ida[x], idb[y], 0 };
					if (MEV_VEC_PUSH(&cand, p)) {
						rc = mev_error_oom();
						break;
					}
				}
				cand.v[at].overlap += ra[i].lines;
			}
		}
		i++;
		j++;
	}
	if (!rc && cand.n) {
		sort_report = r;
		qsort(cand.v, cand.n, sizeof *cand.v, by_overlap);
		for (size_t k = 0; k < cand.n && !rc; k++) {
			pair p = cand.v[k];
			uint64_t code = r->a.size[p.a].lines;
			if (!gone[p.a] || !born[p.b] || code == 0 || p.overlap * 10 < code * 8)
				continue;
			gone[p.a] = born[p.b] = 0;
			if (MEV_VEC_PUSH(&r->renamed, p) || MEV_VEC_PUSH(&r->kept, p))
				rc = mev_error_oom();
		}
	}
	MEV_VEC_FREE(&cand);
	mev_strmap_free(&index);
	return rc;
}

/* Sections added, removed, renamed and kept between the two releases. */
static int compare_sections(report *r)
{
	const mev_section_info *sa = mev_filemap_sections(r->a.secs), *sb = mev_filemap_sections(r->b.secs);
	size_t na = mev_filemap_section_count(r->a.secs), nb = mev_filemap_section_count(r->b.secs);
	uint8_t *gone = calloc(na + 1, 1), *born = calloc(nb + 1, 1);
	int rc = 0;
	if (!gone || !born) {
		rc = mev_error_oom();
		goto done;
	}
	for (size_t i = 0; i < na && !rc; i++) {
		int64_t k;
		if (sa[i].is_rest)
			continue;
		k = mev_strmap_get(&r->b.by_title, sa[i].title, strlen(sa[i].title));
		if (k < 0) {
			gone[i] = 1;
		} else {
			pair p = { (uint32_t)i, (uint32_t)k, 0 };
			if (MEV_VEC_PUSH(&r->kept, p))
				rc = mev_error_oom();
		}
	}
	for (size_t i = 0; i < nb; i++)
		born[i] = !sb[i].is_rest && mev_strmap_get(&r->a.by_title, sb[i].title, strlen(sb[i].title)) < 0;
	r->renames_known = r->a.files && r->b.files;
	if (!rc && r->renames_known)
		rc = find_renames(r, gone, born);
	for (size_t i = 0; i < na && !rc; i++)
		if (gone[i] && MEV_VEC_PUSH(&r->removed, (uint32_t)i))
			rc = mev_error_oom();
	for (size_t i = 0; i < nb && !rc; i++)
		if (born[i] && MEV_VEC_PUSH(&r->added, (uint32_t)i))
			rc = mev_error_oom();
	sort_report = r;
	qsort(r->removed.v, r->removed.n, sizeof *r->removed.v, by_lines_a);
	qsort(r->added.v, r->added.n, sizeof *r->added.v, by_lines_b);
done:
	free(gone);
	free(born);
	return rc;
}

static const char *dialect_project(const char *d)
{
	if (strcmp(d, "uboot") == 0)
		return "U-Boot";
	if (strcmp(d, "xen") == 0)
		return "Xen";
	if (strcmp(d, "qemu") == 0)
		return "QEMU";
	if (strcmp(d, "linux") == 0)
		return "Linux";
	return "maintevo";
}

static int find_release(report *r, const char *tag, size_t *idx)
{
	for (size_t i = 0; i < r->nlist; i++)
		if (strcmp(r->list[i].tag, tag) == 0) {
			*idx = i;
			return 0;
		}
	mev_error_set(MEV_ENOTFOUND, "release '%s' is not in store '%s'", tag, mev_store_dir(r->store));
	mev_error_hint("list the stored releases with 'maintevo releases --store %s'",
		       mev_store_dir(r->store));
	return MEV_ENOTFOUND;
}

static int gather(report *r)
{
	mev_store_identity id;
	int rc;
	if ((rc = mev_store_releases(r->store, &r->list, &r->nlist)))
		return rc;
	if (r->nlist < 2 && !(r->opt->from && r->opt->to)) {
		rc = mev_error_set(MEV_ENOTFOUND, "store '%s' holds %zu release%s; a report compares two",
				   mev_store_dir(r->store), r->nlist, r->nlist == 1 ? "" : "s");
		mev_error_hint("walk a repository with two release tags or more into it ('maintevo walk')");
		return rc;
	}
	r->ib = r->nlist - 1;
	if (r->opt->to && (rc = find_release(r, r->opt->to, &r->ib)))
		return rc;
	if (r->opt->from) {
		if ((rc = find_release(r, r->opt->from, &r->ia)))
			return rc;
	} else {
		if (r->ib == 0) {
			rc = mev_error_set(MEV_EINVAL, "release '%s' is the oldest stored: nothing to compare it with",
					   r->list[r->ib].tag);
			mev_error_hint("name an older release with --from, or a newer one with --to");
			return rc;
		}
		r->ia = r->ib - 1;
	}
	if (r->ia >= r->ib) {
		rc = mev_error_set(MEV_EINVAL, "--from '%s' is not older than --to '%s'", r->list[r->ia].tag,
				   r->list[r->ib].tag);
		mev_error_hint("releases are in version order: see 'maintevo releases --store %s'",
			       mev_store_dir(r->store));
		return rc;
	}
	r->project = r->opt->title;
	if (!r->project) {
		r->project = "maintevo";
		if (mev_store_get_identity(r->store, &id) == 0) {
			snprintf(r->project_buf, sizeof r->project_buf, "%s", dialect_project(id.dialect));
			r->project = r->project_buf;
		}
	}
	if ((rc = side_load(r, &r->a, r->ia)) || (rc = side_load(r, &r->b, r->ib)))
		return rc;
	return compare_sections(r);
}

/* --- the document layer ----------------------------------------------------------- */

typedef struct {
	FILE *out;
	mev_report_format fmt;
	const char *align;  /* of the open table: 'l' or 'r' per column */
	size_t col;
} doc;

/*
 * Markdown text: characters that would make markup are backslash-escaped;
 * '&' only where it could start an entity, so "A & B" stays readable.
 */
static void md_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (strchr("\\`*_[]<>|", *s) ||
		    (*s == '&' && (isalnum((unsigned char)s[1]) || s[1] == '#')))
			putc('\\', out);
		if (*s == '\n' || *s == '\r')
			putc(' ', out);
		else
			putc(*s, out);
	}
}

/* Text in the document's format, escaped. */
static void doc_text(doc *d, const char *s)
{
	if (d->fmt == MEV_REPORT_HTML)
		mev_xml_str(d->out, s, strlen(s));
	else
		md_text(d->out, s);
}

static void doc_printf(doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Formatted text (escaped). */
static void doc_printf(doc *d, const char *fmt, ...)
{
	mev_buf b = MEV_BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	if (mev_buf_vprintf(&b, fmt, ap) == 0)
		doc_text(d, b.ptr);
	va_end(ap);
	mev_buf_free(&b);
}

static void doc_heading(doc *d, int level, const char *s)
{
	if (d->fmt == MEV_REPORT_HTML) {
		fprintf(d->out, "<h%d", level);
		if (level == 2) {
			/* an anchor: "Sections per release" -> id="sections-per-release" */
			fputs(" id=\"", d->out);
			for (const char *p = s; *p; p++)
				putc(isalnum((unsigned char)*p) ? tolower((unsigned char)*p) : '-', d->out);
			putc('"', d->out);
		}
		putc('>', d->out);
		doc_text(d, s);
		fprintf(d->out, "</h%d>\n", level);
	} else {
		fprintf(d->out, "%.*s ", level, "######");
		doc_text(d, s);
		fputs("\n\n", d->out);
	}
}

static void doc_para_begin(doc *d, const char *cls)
{
	if (d->fmt == MEV_REPORT_HTML) {
		if (cls)
			fprintf(d->out, "<p class=\"%s\">", cls);
		else
			fputs("<p>", d->out);
	} else if (cls && strcmp(cls, "note") == 0) {
		fputs("_", d->out);
	}
}

static void doc_para_end(doc *d, const char *cls)
{
	if (d->fmt == MEV_REPORT_HTML)
		fputs("</p>\n", d->out);
	else
		fputs(cls && strcmp(cls, "note") == 0 ? "_\n\n" : "\n\n", d->out);
}

static void doc_para(doc *d, const char *cls, const char *s)
{
	doc_para_begin(d, cls);
	doc_text(d, s);
	doc_para_end(d, cls);
}

/* `code` inline. */
static void doc_code(doc *d, const char *s)
{
	if (d->fmt == MEV_REPORT_HTML) {
		fputs("<code>", d->out);
		mev_xml_str(d->out, s, strlen(s));
		fputs("</code>", d->out);
	} else {
		fprintf(d->out, "`%s`", s);
	}
}

/* A table: headers (escaped) and the alignment of each column. */
static void doc_table(doc *d, const char *const *headers, const char *align)
{
	size_t n = strlen(align);
	d->align = align;
	d->col = 0;
	if (d->fmt == MEV_REPORT_HTML) {
		fputs("<table>\n<thead><tr>", d->out);
		for (size_t i = 0; i < n; i++) {
			fputs(align[i] == 'r' ? "<th class=\"n\">" : "<th>", d->out);
			doc_text(d, headers[i]);
			fputs("</th>", d->out);
		}
		fputs("</tr></thead>\n<tbody>\n", d->out);
	} else {
		fputs("|", d->out);
		for (size_t i = 0; i < n; i++) {
			putc(' ', d->out);
			doc_text(d, headers[i]);
			fputs(" |", d->out);
		}
		fputs("\n|", d->out);
		for (size_t i = 0; i < n; i++)
			fputs(align[i] == 'r' ? "--:|" : ":--|", d->out);
		putc('\n', d->out);
	}
}

/* Open the next cell (cls: an extra HTML class, or NULL). */
static void doc_cell_begin(doc *d, const char *cls)
{
	int num = d->align[d->col] == 'r';
	if (d->fmt == MEV_REPORT_HTML) {
		if (d->col == 0)
			fputs("<tr>", d->out);
		if (num || cls)
			fprintf(d->out, "<td class=\"%s%s%s\">", num ? "n" : "", num && cls ? " " : "",
				cls ? cls : "");
		else
			fputs("<td>", d->out);
	} else {
		fputs(d->col == 0 ? "| " : " ", d->out);
	}
}

static void doc_cell_end(doc *d)
{
	d->col++;
	if (d->fmt == MEV_REPORT_HTML) {
		fputs("</td>", d->out);
		if (d->col == strlen(d->align)) {
			fputs("</tr>\n", d->out);
			d->col = 0;
		}
	} else {
		fputs(" |", d->out);
		if (d->col == strlen(d->align)) {
			putc('\n', d->out);
			d->col = 0;
		}
	}
}

static void doc_cell(doc *d, const char *s)
{
	doc_cell_begin(d, NULL);
	doc_text(d, s);
	doc_cell_end(d);
}

static void doc_table_end(doc *d)
{
	if (d->fmt == MEV_REPORT_HTML)
		fputs("</tbody>\n</table>\n", d->out);
	else
		putc('\n', d->out);
}

/* "1,234,567" */
static void fmt_count(char out[32], int64_t v)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof tmp, "%" PRIu64, (uint64_t)(v < 0 ? -v : v)), o = 0;
	if (v < 0)
		out[o++] = '-';
	for (int i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = tmp[i];
	}
	out[o] = 0;
}

static void doc_cell_count(doc *d, int64_t v)
{
	char buf[32];
	fmt_count(buf, v);
	doc_cell(d, buf);
}

/* The HTML class of a change: "good" or "bad" when `worse` says which way
 * is worse (1: up, -1: down, 0: neither). */
static const char *change_class(int64_t dlt, int worse)
{
	if (!dlt || !worse)
		return NULL;
	return (dlt > 0) == (worse > 0) ? "bad" : "good";
}

/* "+1,234 (+2.1%)", coloured in HTML by `worse`; "0" when equal. */
static void doc_cell_change(doc *d, int64_t from, int64_t to, int percent, int worse)
{
	char buf[32], out[64];
	int64_t dlt = to - from;
	fmt_count(buf, dlt);
	if (dlt == 0)
		snprintf(out, sizeof out, "0");
	else if (percent && from > 0)
		snprintf(out, sizeof out, "%s%s (%+.1f%%)", dlt > 0 ? "+" : "", buf,
			 100.0 * (double)dlt / (double)from);
	else
		snprintf(out, sizeof out, "%s%s", dlt > 0 ? "+" : "", buf);
	doc_cell_begin(d, change_class(dlt, worse));
	doc_text(d, out);
	doc_cell_end(d);
}

/* "… and 12 more: see `cmd`" below a cut list. */
static void doc_more(doc *d, size_t more, const char *cmd)
{
	if (!more)
		return;
	doc_para_begin(d, "note");
	doc_printf(d, "\xe2\x80\xa6 and %zu more; all of them: ", more);
	doc_code(d, cmd);
	doc_para_end(d, "note");
}

/* --- the report's parts ------------------------------------------------------------- */

static void fmt_date(char out[16], int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	gmtime_r(&tt, &tm);
	strftime(out, 16, "%Y-%m-%d", &tm);
}

static void part_title(doc *d, const report *r)
{
	const char *ta = r->a.rel->tag, *tb = r->b.rel->tag;
	char da[16], db[16];
	mev_buf t = MEV_BUF_INIT;
	size_t between = r->ib - r->ia - 1;
	fmt_date(da, r->a.rel->time);
	fmt_date(db, r->b.rel->time);
	mev_buf_printf(&t, "%s: %s \xe2\x86\x92 %s", r->project, ta, tb);
	if (d->fmt == MEV_REPORT_HTML) {
		fputs("<header>\n<h1>", d->out);
		doc_text(d, t.ptr ? t.ptr : "");
		fputs("</h1>\n<p class=\"sub\">", d->out);
	} else {
		fputs("# ", d->out);
		doc_text(d, t.ptr ? t.ptr : "");
		fputs("\n\n", d->out);
	}
	doc_printf(d, "How the MAINTAINERS sections and subsystems changed from release %s (%s) to %s "
		      "(%s)", ta, da, tb, db);
	if (between)
		doc_printf(d, ", %zu release%s in between", between, between == 1 ? "" : "s");
	doc_text(d, ". Lines are newline characters of every file in the tree; a section's "
		    "lines are those of the files it covers.");
	if (d->fmt == MEV_REPORT_HTML)
		fputs("</p>\n</header>\n", d->out);
	else
		fputs("\n\n", d->out);
	mev_buf_free(&t);
}

typedef struct {
	const char *label;
	int64_t a, b;
	int percent;  /* show the change in percent too */
	int worse;    /* which way is worse: 1 up, -1 down, 0 neither */
	int missing;  /* no value (not clustered) */
} headline;

static void part_headline(doc *d, const report *r)
{
	const mev_release *a = r->a.rel, *b = r->b.rel;
	const headline rows[] = {
		{ "Sections", (int64_t)a->sections, (int64_t)b->sections, 1, 0, 0 },
		{ "Sections that cover files", (int64_t)a->sections_with_files,
		  (int64_t)b->sections_with_files, 1, 0, 0 },
		{ "Subsystems (clusters of sections)", r->a.clusters, r->b.clusters, 1, 0,
		  r->a.clusters < 0 || r->b.clusters < 0 },
		{ "Files", (int64_t)a->files, (int64_t)b->files, 1, 0, 0 },
		{ "Lines", (int64_t)a->lines, (int64_t)b->lines, 1, 0, 0 },
		{ "Files no section covers", (int64_t)a->uncovered_files, (int64_t)b->uncovered_files, 1, 1, 0 },
		{ "Lines no section covers", (int64_t)a->uncovered_lines, (int64_t)b->uncovered_lines, 1, 1, 0 },
		{ "Sections without a maintainer (no M:)", (int64_t)r->a.census.no_maintainer,
		  (int64_t)r->b.census.no_maintainer, 0, 1, 0 },
		{ "Orphaned sections (S: Orphan)", (int64_t)r->a.census.orphan,
		  (int64_t)r->b.census.orphan, 0, 1, 0 },
		{ "Notes about MAINTAINERS content", (int64_t)a->diags, (int64_t)b->diags, 0, 1, 0 },
	};
	const char *hdr[] = { "", a->tag, b->tag, "change" };
	doc_heading(d, 2, "At a glance");
	if (d->fmt == MEV_REPORT_HTML) {
		/* four cards for the eye; the table below has the same numbers */
		static const size_t pick[] = { 0, 2, 4, 6 };
		fputs("<div class=\"cards\">\n", d->out);
		for (size_t k = 0; k < sizeof pick / sizeof *pick; k++) {
			const headline *h = &rows[pick[k]];
			char v[32], dl[32];
			int64_t dlt = h->b - h->a;
			fputs("<div class=\"card\"><div class=\"k\">", d->out);
			doc_text(d, h->label);
			if (h->missing) {
				fputs("</div><div class=\"v\">\xe2\x80\x93</div><div class=\"d\">not clustered</div></div>\n",
				      d->out);
				continue;
			}
			fmt_count(v, h->b);
			fmt_count(dl, dlt);
			fprintf(d->out, "</div><div class=\"v\">%s</div><div class=\"d %s\">%s%s", v,
				change_class(dlt, h->worse) ? change_class(dlt, h->worse) : "",
				dlt > 0 ? "+" : "", dl);
			if (h->a > 0 && dlt)
				fprintf(d->out, " (%+.1f%%)", 100.0 * (double)dlt / (double)h->a);
			fputs(" since ", d->out);
			doc_text(d, a->tag);
			fputs("</div></div>\n", d->out);
		}
		fputs("</div>\n", d->out);
	}
	doc_table(d, hdr, "lrrr");
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		const headline *h = &rows[i];
		doc_cell(d, h->label);
		if (h->missing) {
			doc_cell(d, h->a < 0 ? "\xe2\x80\x93" : "");
			doc_cell(d, h->b < 0 ? "\xe2\x80\x93" : "");
			doc_cell(d, "");
			continue;
		}
		doc_cell_count(d, h->a);
		doc_cell_count(d, h->b);
		doc_cell_change(d, h->a, h->b, h->percent, h->worse);
	}
	doc_table_end(d);
	if (r->a.clusters < 0 || r->b.clusters < 0) {
		doc_para_begin(d, "note");
		doc_text(d, "Subsystems: the releases are not clustered yet; run ");
		doc_code(d, "maintevo cluster");
		doc_text(d, " and ");
		doc_code(d, "maintevo track");
		doc_text(d, " on the store.");
		doc_para_end(d, "note");
	}
}

static void status_of(const side *s, uint32_t i, char *out, size_t size)
{
	const mev_section_info *si = &mev_filemap_sections(s->secs)[i];
	snprintf(out, size, "%s", si->status[0] ? si->status : "\xe2\x80\x93");
}

static void part_sections(doc *d, const report *r)
{
	const char *ta = r->a.rel->tag, *tb = r->b.rel->tag;
	char cmd[256];
	mev_buf h = MEV_BUF_INIT;
	doc_heading(d, 2, "Sections");
	doc_para_begin(d, NULL);
	doc_printf(d, "%zu added, %zu removed, %zu renamed", r->added.n, r->removed.n, r->renamed.n);
	if (r->renames_known)
		doc_text(d, " (a new title that covers at least 80% of the code of a vanished one, "
			    "counting files present in both releases).");
	else
		doc_text(d, "; renames need the file tables of both releases, which this store lacks.");
	doc_para_end(d, NULL);
	snprintf(cmd, sizeof cmd, "maintevo export sections --release %s", tb);

	if (r->added.n) {
		const char *hdr[] = { "section", "status", "maintainers", "lines" };
		mev_buf_printf(&h, "Added in %s (%zu)", tb, r->added.n);
		doc_heading(d, 3, h.ptr);
		doc_table(d, hdr, "llrr");
		for (size_t i = 0; i < r->added.n && i < LIST_MAX; i++) {
			uint32_t k = r->added.v[i];
			char st[256];
			status_of(&r->b, k, st, sizeof st);
			doc_cell(d, sec_title(&r->b, k));
			doc_cell(d, st);
			doc_cell_count(d, mev_filemap_sections(r->b.secs)[k].n_maintainers);
			doc_cell_count(d, sec_lines(&r->b, k));
		}
		doc_table_end(d);
		doc_more(d, r->added.n > LIST_MAX ? r->added.n - LIST_MAX : 0, cmd);
	}
	if (r->removed.n) {
		const char *hdr[] = { "section", "status", "maintainers", "lines" };
		mev_buf_clear(&h);
		mev_buf_printf(&h, "Removed since %s (%zu)", ta, r->removed.n);
		doc_heading(d, 3, h.ptr);
		doc_table(d, hdr, "llrr");
		for (size_t i = 0; i < r->removed.n && i < LIST_MAX; i++) {
			uint32_t k = r->removed.v[i];
			char st[256];
			status_of(&r->a, k, st, sizeof st);
			doc_cell(d, sec_title(&r->a, k));
			doc_cell(d, st);
			doc_cell_count(d, mev_filemap_sections(r->a.secs)[k].n_maintainers);
			doc_cell_count(d, sec_lines(&r->a, k));
		}
		doc_table_end(d);
		snprintf(cmd, sizeof cmd, "maintevo export sections --release %s", ta);
		doc_more(d, r->removed.n > LIST_MAX ? r->removed.n - LIST_MAX : 0, cmd);
	}
	if (r->renamed.n) {
		const char *hdr[] = { "old title", "new title", "lines before", "lines now", "code kept" };
		mev_buf_clear(&h);
		mev_buf_printf(&h, "Renamed (%zu)", r->renamed.n);
		doc_heading(d, 3, h.ptr);
		doc_table(d, hdr, "llrrr");
		for (size_t i = 0; i < r->renamed.n && i < LIST_MAX; i++) {
			const pair *p = &r->renamed.v[i];
			char pc[16];
			snprintf(pc, sizeof pc, "%.0f%%",
				 100.0 * (double)p->overlap / (double)r->a.size[p->a].lines);
			doc_cell(d, sec_title(&r->a, p->a));
			doc_cell(d, sec_title(&r->b, p->b));
			doc_cell_count(d, sec_lines(&r->a, p->a));
			doc_cell_count(d, sec_lines(&r->b, p->b));
			doc_cell(d, pc);
		}
		doc_table_end(d);
		doc_more(d, r->renamed.n > LIST_MAX ? r->renamed.n - LIST_MAX : 0,
			 "maintevo report --format md");
	}
	mev_buf_free(&h);
}

static int by_growth(const void *x, const void *y)
{
	const pair *p = x, *q = y;
	int64_t dp = sec_lines(&sort_report->b, p->b) - sec_lines(&sort_report->a, p->a);
	int64_t dq = sec_lines(&sort_report->b, q->b) - sec_lines(&sort_report->a, q->a);
	if (dp != dq)
		return dp < dq ? 1 : -1;
	return strcmp(sec_title(&sort_report->b, p->b), sec_title(&sort_report->b, q->b));
}

static void movers_table(doc *d, const report *r, const pair *v, size_t n, int grow)
{
	const char *hdr[] = { "section", r->a.rel->tag, r->b.rel->tag, "change" };
	size_t shown = 0;
	doc_table(d, hdr, "lrrr");
	for (size_t i = 0; i < n && shown < TOP_N; i++) {
		const pair *p = grow ? &v[i] : &v[n - 1 - i];
		int64_t la = sec_lines(&r->a, p->a), lb = sec_lines(&r->b, p->b);
		mev_buf t = MEV_BUF_INIT;
		if (grow ? lb <= la : lb >= la)
			break;
		if (strcmp(sec_title(&r->a, p->a), sec_title(&r->b, p->b)) != 0)
			mev_buf_printf(&t, "%s (was %s)", sec_title(&r->b, p->b), sec_title(&r->a, p->a));
		else
			mev_buf_puts(&t, sec_title(&r->b, p->b));
		doc_cell(d, t.ptr);
		doc_cell_count(d, la);
		doc_cell_count(d, lb);
		doc_cell_change(d, la, lb, 1, 0);
		mev_buf_free(&t);
		shown++;
	}
	if (!shown) {
		doc_cell(d, grow ? "(none grew)" : "(none shrank)");
		doc_cell(d, "");
		doc_cell(d, "");
		doc_cell(d, "");
	}
	doc_table_end(d);
}

static int part_movers(doc *d, report *r)
{
	pair *v = malloc((r->kept.n + 1) * sizeof *v);
	mev_buf h = MEV_BUF_INIT;
	if (!v)
		return mev_error_oom();
	memcpy(v, r->kept.v, r->kept.n * sizeof *v);
	sort_report = r;
	qsort(v, r->kept.n, sizeof *v, by_growth);
	doc_heading(d, 2, "Largest growers and shrinkers");
	doc_para(d, NULL, "Sections present in both releases (renamed ones included), by the change "
		 "in the lines of the files they cover.");
	mev_buf_printf(&h, "Sections that grew most (top %d)", TOP_N);
	doc_heading(d, 3, h.ptr);
	movers_table(d, r, v, r->kept.n, 1);
	mev_buf_clear(&h);
	mev_buf_printf(&h, "Sections that shrank most (top %d)", TOP_N);
	doc_heading(d, 3, h.ptr);
	movers_table(d, r, v, r->kept.n, 0);
	mev_buf_free(&h);
	free(v);
	return 0;
}

/* Sections per release over all stored releases up to the newer one. */
static void part_history(doc *d, const report *r)
{
	size_t n = r->ib + 1;
	doc_heading(d, 2, "Sections per release");
	if (d->fmt == MEV_REPORT_HTML) {
		const char **labels = malloc((n + 1) * sizeof *labels);
		double *vals = malloc((n + 1) * sizeof *vals);
		uint8_t *hl = calloc(n + 1, 1);
		if (labels && vals && hl) {
			for (size_t i = 0; i < n; i++) {
				labels[i] = r->list[i].tag;
				vals[i] = (double)r->list[i].sections;
			}
			char ca[32], cb[32];
			mev_buf cap = MEV_BUF_INIT;
			hl[r->ia] = hl[r->ib] = 1;
			fmt_count(ca, (int64_t)r->a.rel->sections);
			fmt_count(cb, (int64_t)r->b.rel->sections);
			mev_buf_printf(&cap, "MAINTAINERS sections (THE REST left out) in every stored release "
				       "up to %s; highlighted: the releases compared, %s (%s sections) and %s (%s)",
				       r->b.rel->tag, r->a.rel->tag, ca, r->b.rel->tag, cb);
			chart_bars(d->out, cap.ptr ? cap.ptr : "", labels, vals, hl, n);
			mev_buf_free(&cap);
		}
		free(labels);
		free(vals);
		free(hl);
	} else {
		const char *hdr[] = { "release", "date", "sections", "files", "lines", "lines no section covers" };
		size_t first = n > SERIES_MD ? n - SERIES_MD : 0;
		if (first > r->ia)
			first = r->ia;
		doc_table(d, hdr, "llrrrr");
		for (size_t i = first; i < n; i++) {
			const mev_release *x = &r->list[i];
			char date[16];
			fmt_date(date, x->time);
			doc_cell(d, x->tag);
			doc_cell(d, date);
			doc_cell_count(d, (int64_t)x->sections);
			doc_cell_count(d, (int64_t)x->files);
			doc_cell_count(d, (int64_t)x->lines);
			doc_cell_count(d, (int64_t)x->uncovered_lines);
		}
		doc_table_end(d);
		if (first)
			doc_more(d, first, "maintevo export releases");
	}
}

static const char css[] =
	":root{--fg:#1d2433;--muted:#5b6478;--line:#d9dde5;--accent:#d9480f;--good:#2b8a3e;"
	"--bad:#c92a2a;--zebra:#f6f7f9;--head:#eef1f5}\n"
	"*{box-sizing:border-box}\n"
	"body{margin:0;font:15px/1.5 system-ui,-apple-system,\"Segoe UI\",Roboto,\"Helvetica Neue\","
	"Arial,sans-serif;color:var(--fg);background:#fff}\n"
	"main{max-width:1060px;margin:0 auto;padding:24px 28px 48px}\n"
	"h1{font-size:26px;line-height:1.25;margin:0 0 6px}\n"
	".sub{color:var(--muted);margin:0 0 18px}\n"
	"h2{font-size:20px;margin:34px 0 10px;padding-bottom:4px;border-bottom:2px solid var(--line)}\n"
	"h3{font-size:16px;margin:22px 0 6px}\n"
	"table{border-collapse:collapse;width:100%;margin:6px 0 14px;font-size:14px}\n"
	"th,td{padding:5px 10px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top;"
	"overflow-wrap:anywhere}\n"
	"th{background:var(--head);font-weight:600}\n"
	"td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap;"
	"overflow-wrap:normal}\n"
	"tbody tr:nth-child(even){background:var(--zebra)}\n"
	".good{color:var(--good)}.bad{color:var(--bad)}\n"
	".cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(210px,1fr));gap:12px;"
	"margin:14px 0 18px}\n"
	".card{border:1px solid var(--line);border-radius:8px;padding:10px 14px}\n"
	".card .k{color:var(--muted);font-size:13px}.card .v{font-size:26px;font-weight:650;"
	"font-variant-numeric:tabular-nums}.card .d{font-size:13px}\n"
	"figure.chart{margin:10px 0 26px}figure.chart svg{width:100%;height:auto;display:block}\n"
	"figcaption{color:var(--muted);font-size:13px;margin-top:2px}\n"
	"svg text{font-family:inherit;font-size:12px;fill:var(--fg)}\n"
	"svg .tick,svg .xl{fill:var(--muted);font-size:11px}\n"
	"svg .xl.mark{fill:var(--accent);font-weight:600}\n"
	"svg .grid{stroke:#e6e9ee}svg .axis{stroke:#8a8f99}\n"
	"svg .guide{stroke:var(--accent);stroke-dasharray:4 3}\n"
	"svg .bar{fill:#9fb3c8}svg .bar.hl{fill:var(--accent)}\n"
	"svg .val{font-size:11px;font-weight:600;fill:var(--accent)}\n"
	"svg .lh{fill:var(--muted);font-size:11px}svg .num{fill:var(--muted)}\n"
	"svg .colt{font-weight:600;font-size:13px}svg .flow{opacity:.45}\n"
	".note{color:var(--muted);font-style:italic}\n"
	"code{font-family:ui-monospace,\"DejaVu Sans Mono\",Menlo,Consolas,monospace;font-size:.9em;"
	"background:var(--head);padding:1px 4px;border-radius:3px}\n"
	"footer{color:var(--muted);font-size:12px;margin-top:40px;border-top:1px solid var(--line);"
	"padding-top:8px}\n"
	"@media print{body{font-size:10pt}main{max-width:none;padding:0}h2{break-after:avoid}"
	"h3{break-after:avoid}tr,figure.chart,.card{break-inside:avoid}"
	"tbody tr:nth-child(even){background:none}.cards{grid-template-columns:repeat(4,1fr)}"
	"@page{margin:14mm}}\n";

static void doc_begin(doc *d, const report *r)
{
	if (d->fmt != MEV_REPORT_HTML)
		return;
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"maintevo ", d->out);
	fputs(mev_version(), d->out);
	fputs("\">\n<title>", d->out);
	doc_printf(d, "%s: %s \xe2\x86\x92 %s", r->project, r->a.rel->tag, r->b.rel->tag);
	fputs("</title>\n<style>\n", d->out);
	fputs(css, d->out);
	fputs("</style>\n</head>\n<body>\n<main>\n", d->out);
}

static void doc_end(doc *d)
{
	if (d->fmt == MEV_REPORT_HTML) {
		fputs("<footer>", d->out);
		doc_printf(d, "Written by maintevo %s; ", mev_version());
		doc_text(d, "the tables behind it: ");
		doc_code(d, "maintevo export");
		doc_text(d, " (docs/schemas.md).");
		fputs("</footer>\n</main>\n</body>\n</html>\n", d->out);
	} else {
		fputs("---\n", d->out);
		doc_printf(d, "Written by maintevo %s; the tables behind it: ", mev_version());
		doc_code(d, "maintevo export");
		fputs(".\n", d->out);
	}
}

int mev_report_write(mev_store *s, const mev_report_options *opt, FILE *out)
{
	static const mev_report_options defaults = { 0 };
	report r;
	doc d = { out, MEV_REPORT_MD, "", 0 };
	int rc;
	memset(&r, 0, sizeof r);
	r.store = s;
	r.opt = opt ? opt : &defaults;
	d.fmt = r.opt->format;
	if ((rc = gather(&r)))
		goto done;
	doc_begin(&d, &r);
	part_title(&d, &r);
	part_headline(&d, &r);
	part_sections(&d, &r);
	if ((rc = part_movers(&d, &r)))
		goto done;
	part_history(&d, &r);
	doc_end(&d);
	if (ferror(out))
		rc = mev_error_set(MEV_EIO, "cannot write the report");
done:
	side_free(&r.a);
	side_free(&r.b);
	MEV_VEC_FREE(&r.added);
	MEV_VEC_FREE(&r.removed);
	MEV_VEC_FREE(&r.renamed);
	MEV_VEC_FREE(&r.kept);
	mev_release_list_free(r.list, r.nlist);
	return rc;
}
