/*
 * The release-over-release report.  The facts are gathered once (the two
 * releases and their sections, the section changes and cluster events
 * between them from the tracker, the series over all releases), then
 * written through a tiny document layer that has a Markdown and an HTML
 * form, so both formats always carry the same facts.  HTML adds inline SVG
 * charts (chart.c).
 */
#include "maintevo/report.h"
#include "maintevo/error.h"
#include "maintevo/export.h"
#include "maintevo/csv.h"
#include "maintevo/release.h"
#include "maintevo/version.h"
#include "util/buf.h"
#include "util/strmap.h"
#include "chart.h"
#include "history.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

enum {
	LIST_MAX = 60,     /* rows of a list before "... and N more" */
	TOP_N = 10,        /* growers and shrinkers */
	SERIES_MD = 12,    /* releases in the Markdown table of the series */
	LINEAGES = 15,     /* lineages in the chart */
	SECTIONS_NAMED = 4 /* sections named per cluster in the event tables */
};

int mev_report_format_parse(const char *name)
{
	if (strcmp(name, "md") == 0 || strcmp(name, "markdown") == 0)
		return MEV_REPORT_MD;
	if (strcmp(name, "html") == 0)
		return MEV_REPORT_HTML;
	return -1;
}

/* qsort() that accepts an empty (possibly NULL) array. */
static void sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

/* --- the facts ------------------------------------------------------------------ */

/* One of the two releases compared. */
typedef struct {
	size_t r;                  /* index in history */
	const mev_release *rel;    /* borrowed from the history */
	mev_filemap *secs;         /* its sections (no rows) */
	mev_graph *g;
	mev_edge *size;            /* own size per section index */
	mev_section_census census;
	int64_t clusters;          /* -1 when not clustered */
	mev_strmap by_title;       /* title -> section index */
} side;

/* A section in both releases (same title, or renamed on the way). */
typedef struct {
	uint32_t a, b;             /* index in the older / newer release */
} pair;

/* A split (one cluster, several successors) or a merge (the other way). */
typedef struct {
	mev_event_kind kind;
	size_t first, n;           /* its events in report.moves */
	int64_t lines;             /* the size of the single side */
} move;

typedef struct {
	mev_store *store;
	const mev_report_options *opt;
	history h;
	size_t ia, ib;             /* the releases compared, ia < ib */
	side a, b;
	mev_section_change_list changes; /* between ia and ib, in release order */
	int changes_known;         /* 'maintevo track' ran */
	MEV_VEC(pair) kept;
	MEV_VEC(const mev_event *) births, deaths, moves; /* in the range */
	MEV_VEC(move) groups;      /* splits and merges, largest first */
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
	s->r = idx;
	s->rel = &r->h.list[idx];
	s->clusters = r->h.rel[idx].c ? (int64_t)mev_clustering_count(r->h.rel[idx].c) : -1;
	if ((rc = mev_release_load_graph(&s->secs, &s->g, r->store, s->rel->tag, 0)))
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
	return 0;
}

static void side_free(side *s)
{
	free(s->size);
	mev_graph_free(s->g);
	mev_filemap_free(s->secs);
	mev_strmap_free(&s->by_title);
}

/*
 * Sections of the older release that are still there in the newer one:
 * same title, or renamed (step by step through the tracker's renames).  A
 * section removed on the way is not followed, even if its title returns.
 */
static int follow_sections(report *r)
{
	const mev_section_info *sa = mev_filemap_sections(r->a.secs);
	size_t na = mev_filemap_section_count(r->a.secs), nb = mev_filemap_section_count(r->b.secs);
	mev_strmap cur = MEV_STRMAP_INIT; /* current title -> index in a, UINT32_MAX: gone */
	int rc = 0;
	for (size_t i = 0; i < na && !rc; i++)
		if (!sa[i].is_rest && mev_strmap_put(&cur, sa[i].title, strlen(sa[i].title), (uint32_t)i))
			rc = MEV_ENOMEM;
	for (size_t i = 0; i < r->changes.n && !rc; i++) {
		const mev_section_change *c = &r->changes.v[i];
		int64_t v = mev_strmap_get(&cur, c->section, strlen(c->section));
		if (c->kind == MEV_SECTION_ADDED || v < 0)
			continue;
		rc = mev_strmap_put(&cur, c->section, strlen(c->section), UINT32_MAX);
		if (!rc && c->kind == MEV_SECTION_RENAMED)
			rc = mev_strmap_put(&cur, c->new_section, strlen(c->new_section), (uint32_t)v);
	}
	for (size_t j = 0; j < nb && !rc; j++) {
		const char *t = sec_title(&r->b, (uint32_t)j);
		int64_t v = mev_filemap_sections(r->b.secs)[j].is_rest ? -1 : mev_strmap_get(&cur, t, strlen(t));
		pair p = { (uint32_t)v, (uint32_t)j };
		if (v >= 0 && v != UINT32_MAX && MEV_VEC_PUSH(&r->kept, p))
			rc = mev_error_oom();
	}
	mev_strmap_free(&cur);
	return rc == MEV_ENOMEM ? mev_error_oom() : rc;
}

static const report *sort_report; /* qsort has no context argument */

static int64_t event_size(const mev_event *e)
{
	return e->kind == MEV_EVENT_DEATH ? e->from_lines : e->to_lines;
}

/* Births and deaths: largest first, then by name. */
static int by_event_size(const void *x, const void *y)
{
	const mev_event *p = *(const mev_event *const *)x, *q = *(const mev_event *const *)y;
	int64_t a = event_size(p), b = event_size(q);
	if (a != b)
		return a < b ? 1 : -1;
	return strcmp(p->kind == MEV_EVENT_DEATH ? p->from_cluster : p->to_cluster,
		      q->kind == MEV_EVENT_DEATH ? q->from_cluster : q->to_cluster);
}

/* Splits and merges: grouped by their single side (release, cluster), the
 * events of a group by size of the other side. */
static int by_group(const void *x, const void *y)
{
	const mev_event *p = *(const mev_event *const *)x, *q = *(const mev_event *const *)y;
	int c;
	if (p->kind != q->kind)
		return p->kind < q->kind ? -1 : 1;
	if (p->kind == MEV_EVENT_SPLIT) {
		if ((c = strcmp(p->from_release, q->from_release)) || (c = strcmp(p->from_cluster, q->from_cluster)))
			return c;
		if (p->to_lines != q->to_lines)
			return p->to_lines < q->to_lines ? 1 : -1;
		return strcmp(p->to_cluster, q->to_cluster);
	}
	if ((c = strcmp(p->to_release, q->to_release)) || (c = strcmp(p->to_cluster, q->to_cluster)))
		return c;
	if (p->from_lines != q->from_lines)
		return p->from_lines < q->from_lines ? 1 : -1;
	return strcmp(p->from_cluster, q->from_cluster);
}

static int by_group_size(const void *x, const void *y)
{
	const move *p = x, *q = y;
	const mev_event *a = sort_report->moves.v[p->first], *b = sort_report->moves.v[q->first];
	int c;
	if (p->lines != q->lines)
		return p->lines < q->lines ? 1 : -1;
	if ((c = strcmp(a->from_release, b->from_release)))
		return c;
	return strcmp(p->kind == MEV_EVENT_SPLIT ? a->from_cluster : a->to_cluster,
		      q->kind == MEV_EVENT_SPLIT ? b->from_cluster : b->to_cluster);
}

/* Two events of one split (same cluster before) or one merge (same after). */
static int by_group_key_equal(const mev_event *p, const mev_event *q)
{
	if (p->kind != q->kind)
		return 0;
	if (p->kind == MEV_EVENT_SPLIT)
		return !strcmp(p->from_release, q->from_release) && !strcmp(p->from_cluster, q->from_cluster);
	return !strcmp(p->to_release, q->to_release) && !strcmp(p->to_cluster, q->to_cluster);
}

/* The events of the range: births, deaths, and splits and merges grouped. */
static int collect_events(report *r)
{
	for (size_t i = 0; i < r->h.events.n; i++) {
		const mev_event *e = &r->h.events.v[i];
		int64_t f = history_find(&r->h, e->from_release), t = history_find(&r->h, e->to_release);
		int rc = 0;
		if (f < (int64_t)r->ia || t > (int64_t)r->ib || f < 0 || t < 0)
			continue;
		if (e->kind == MEV_EVENT_BIRTH)
			rc = MEV_VEC_PUSH(&r->births, e);
		else if (e->kind == MEV_EVENT_DEATH)
			rc = MEV_VEC_PUSH(&r->deaths, e);
		else if (e->kind == MEV_EVENT_SPLIT || e->kind == MEV_EVENT_MERGE)
			rc = MEV_VEC_PUSH(&r->moves, e);
		if (rc)
			return mev_error_oom();
	}
	sort(r->births.v, r->births.n, sizeof *r->births.v, by_event_size);
	sort(r->deaths.v, r->deaths.n, sizeof *r->deaths.v, by_event_size);
	sort(r->moves.v, r->moves.n, sizeof *r->moves.v, by_group);
	for (size_t i = 0; i < r->moves.n;) {
		const mev_event *e = r->moves.v[i];
		move m = { e->kind, i, 0, e->kind == MEV_EVENT_SPLIT ? e->from_lines : e->to_lines };
		while (i < r->moves.n && by_group_key_equal(e, r->moves.v[i]))
			i++;
		m.n = i - m.first;
		if (MEV_VEC_PUSH(&r->groups, m))
			return mev_error_oom();
	}
	sort_report = r;
	sort(r->groups.v, r->groups.n, sizeof *r->groups.v, by_group_size);
	return 0;
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
	int64_t i = history_find(&r->h, tag);
	if (i >= 0) {
		*idx = (size_t)i;
		return 0;
	}
	mev_error_set(MEV_ENOTFOUND, "release '%s' is not in store '%s'", tag, mev_store_dir(r->store));
	mev_error_hint("list the stored releases with 'maintevo releases --store %s'",
		       mev_store_dir(r->store));
	return MEV_ENOTFOUND;
}

static int gather(report *r)
{
	mev_identity id;
	int rc;
	if ((rc = history_load(&r->h, r->store, r->opt->method, NULL,
			       HISTORY_CLUSTERS | HISTORY_TRACKS)))
		return rc;
	if (r->h.n < 2) {
		rc = mev_error_set(MEV_ENOTFOUND, "store '%s' holds %zu release%s; a report compares two",
				   mev_store_dir(r->store), r->h.n, r->h.n == 1 ? "" : "s");
		mev_error_hint("walk a repository with two release tags or more into it ('maintevo walk')");
		return rc;
	}
	r->ib = r->h.n - 1;
	if (r->opt->to && (rc = find_release(r, r->opt->to, &r->ib)))
		return rc;
	if (r->opt->from) {
		if ((rc = find_release(r, r->opt->from, &r->ia)))
			return rc;
	} else {
		if (r->ib == 0) {
			rc = mev_error_set(MEV_EINVAL, "release '%s' is the oldest stored: nothing to compare it with",
					   r->h.list[r->ib].tag);
			mev_error_hint("name an older release with --from, or a newer one with --to");
			return rc;
		}
		r->ia = r->ib - 1;
	}
	if (r->ia >= r->ib) {
		rc = mev_error_set(MEV_EINVAL, "--from '%s' is not older than --to '%s'",
				   r->h.list[r->ia].tag, r->h.list[r->ib].tag);
		mev_error_hint("releases are in version order: see 'maintevo releases --store %s'",
			       mev_store_dir(r->store));
		return rc;
	}
	r->project = r->opt->title;
	if (!r->project) {
		r->project = "maintevo";
		if (mev_release_identity_get(&id, r->store) == 0) {
			snprintf(r->project_buf, sizeof r->project_buf, "%s", dialect_project(id.dialect));
			r->project = r->project_buf;
		}
	}
	if ((rc = side_load(r, &r->a, r->ia)) || (rc = side_load(r, &r->b, r->ib)))
		return rc;
	rc = mev_track_section_changes(r->store, r->a.rel->tag, r->b.rel->tag, &r->changes);
	if (rc == MEV_ENOTFOUND) {
		mev_error_clear();
		memset(&r->changes, 0, sizeof r->changes);
	} else if (rc) {
		return rc;
	} else {
		r->changes_known = 1;
	}
	if ((rc = follow_sections(r)))
		return rc;
	return r->h.tracked ? collect_events(r) : 0;
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
 * '&' only where it could start an entity and '_' only at the edge of a
 * word (CommonMark ignores it inside one), so "A & B_C" stays readable.
 */
static void md_text(FILE *out, const char *s)
{
	for (const char *start = s; *s; s++) {
		int inword = s > start && isalnum((unsigned char)s[-1]) && isalnum((unsigned char)s[1]);
		if (strchr("\\`*[]<>|", *s) || (*s == '_' && !inword) ||
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

/* A table: headers (escaped) and the kind of each column: 'l' text, 'r'
 * numbers (right-aligned), 't' release tags (left, never wrapped). */
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
	char a = d->align[d->col];
	if (d->fmt == MEV_REPORT_HTML) {
		if (d->col == 0)
			fputs("<tr>", d->out);
		if (a != 'l' || cls)
			fprintf(d->out, "<td class=\"%s%s%s\">", a == 'r' ? "n" : a == 't' ? "t" : "",
				a != 'l' && cls ? " " : "", cls ? cls : "");
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

/* More than one step between the releases: tables name the step. */
static int multi_step(const report *r) { return r->ib - r->ia > 1; }

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
	doc_printf(d, "How the MAINTAINERS sections and the subsystems (clusters of sections that "
		      "share code) changed from release %s (%s) to %s (%s)", ta, da, tb, db);
	if (between)
		doc_printf(d, ", %zu release%s in between", between, between == 1 ? "" : "s");
	doc_text(d, ". Lines are newline characters of every file in the tree; the lines of a "
		    "section or a subsystem are those of the files it covers, each file once.");
	if (r->h.clustered) {
		doc_text(d, " Clustering: ");
		doc_code(d, r->h.key);
		doc_text(d, ".");
	}
	if (d->fmt == MEV_REPORT_HTML) {
		fputs("</p>\n<nav>", d->out);
		fputs("<a href=\"#at-a-glance\">At a glance</a> \xc2\xb7 "
		      "<a href=\"#subsystems\">Subsystems</a> \xc2\xb7 "
		      "<a href=\"#sections\">Sections</a> \xc2\xb7 "
		      "<a href=\"#largest-growers-and-shrinkers\">Growers and shrinkers</a> \xc2\xb7 "
		      "<a href=\"#over-all-releases\">Over all releases</a></nav>\n</header>\n", d->out);
	} else {
		fputs("\n\n", d->out);
	}
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
			const char *cls = change_class(h->b - h->a, h->worse);
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
			fprintf(d->out, "</div><div class=\"v\">%s</div><div class=\"d %s\">", v,
				cls ? cls : "");
			if (dlt)
				fprintf(d->out, "%s%s", dlt > 0 ? "+" : "", dl);
			else
				fputs("unchanged", d->out);
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
}

/* A note saying which command fills a part of the report that is empty. */
static void doc_missing(doc *d, const char *what, const char *cmd)
{
	doc_para_begin(d, "note");
	doc_text(d, what);
	doc_text(d, ": run ");
	doc_code(d, cmd);
	doc_text(d, " on the store first (with the same clustering options).");
	doc_para_end(d, "note");
}

/* "A, B, C and 5 more": the largest sections of cluster `rep` in release r. */
typedef struct {
	const char *title;
	uint64_t lines;
} named;

static int named_cmp(const void *x, const void *y)
{
	const named *a = x, *b = y;
	if (a->lines != b->lines)
		return a->lines < b->lines ? 1 : -1;
	return strcmp(a->title, b->title);
}

static void cluster_sections(const report *r, const char *release, const char *rep, mev_buf *out)
{
	int64_t ri = history_find(&r->h, release), k;
	const mev_clustering *c;
	named *v;
	size_t n = 0, ns;
	mev_buf_clear(out);
	if (ri < 0 || (k = history_cluster_named(&r->h, (size_t)ri, rep)) < 0)
		return;
	c = r->h.rel[ri].c;
	ns = mev_clustering_section_count(c);
	if (!(v = malloc((ns + 1) * sizeof *v)))
		return;
	for (uint32_t j = 0; j < ns; j++)
		if (mev_clustering_of(c, j) == (uint32_t)k) {
			named x = { mev_clustering_title(c, j), mev_clustering_section_lines(c, j) };
			v[n++] = x;
		}
	sort(v, n, sizeof *v, named_cmp);
	for (size_t j = 0; j < n && j < SECTIONS_NAMED; j++)
		mev_buf_printf(out, "%s%s", j ? ", " : "", v[j].title);
	if (n > SECTIONS_NAMED)
		mev_buf_printf(out, " and %zu more", n - SECTIONS_NAMED);
	free(v);
}

/* "NAME" or, over several steps, "NAME (v1.2)". */
static void cell_cluster(doc *d, const report *r, const char *name, const char *release)
{
	mev_buf t = MEV_BUF_INIT;
	if (multi_step(r))
		mev_buf_printf(&t, "%s (%s)", name, release);
	else
		mev_buf_puts(&t, name);
	doc_cell(d, t.ptr ? t.ptr : "");
	mev_buf_free(&t);
}

/* A flow's width: the code two clusters share, from the Jaccard similarity
 * J = |A & B| / |A | B| of their code: |A & B| = J (|A| + |B|) / (1 + J),
 * at most the smaller size. */
static double shared_lines(const mev_event *e)
{
	double a = (double)e->from_lines, b = (double)e->to_lines, j = e->similarity, s;
	double m = a < b ? a : b;
	if (isnan(j))
		return m;
	s = j * (a + b) / (1 + j);
	return s > m ? m : s < 0 ? 0 : s;
}

/* The alluvial chart: the largest splits and merges, each drawn on its own
 * as a little stack of flows from "before" to "after". */
static void moves_chart(doc *d, const report *r)
{
	enum { GROUPS = 12 };
	MEV_VEC(chart_node) nodes = { 0 };
	MEV_VEC(chart_flow) flows = { 0 };
	MEV_VEC(int64_t) colors = { 0 }; /* lineage ids in order of first use */
	const char *cols[2];
	mev_buf cap = MEV_BUF_INIT, names = MEV_BUF_INIT;
	size_t ngroups = r->groups.n < GROUPS ? r->groups.n : GROUPS;
	MEV_VEC(size_t) name_at = { 0 }; /* offsets of node names in `names` */
	int bad = 0;

	cols[0] = multi_step(r) ? "before" : r->a.rel->tag;
	cols[1] = multi_step(r) ? "after" : r->b.rel->tag;
	for (size_t g = 0; g < ngroups && !bad; g++) {
		const move *m = &r->groups.v[g];
		size_t single = nodes.n;
		for (size_t i = 0; i < m->n + 1 && !bad; i++) {
			/* node 0 of a group is its single side, then one per event */
			const mev_event *e = r->moves.v[m->first + (i ? i - 1 : 0)];
			int left = (m->kind == MEV_EVENT_SPLIT) == (i == 0);
			const char *name = left ? e->from_cluster : e->to_cluster;
			const char *rel = left ? e->from_release : e->to_release;
			int64_t ri = history_find(&r->h, rel), k, lin = -1, ci;
			chart_node nd = { NULL, left ? 0 : 1, (double)(left ? e->from_lines : e->to_lines), -1,
					  g };
			if (ri >= 0 && (k = history_cluster_named(&r->h, (size_t)ri, name)) >= 0)
				lin = r->h.rel[ri].lineage[k];
			for (ci = 0; lin >= 0 && ci < (int64_t)colors.n; ci++)
				if (colors.v[ci] == lin)
					break;
			if (lin >= 0 && ci == (int64_t)colors.n)
				bad |= MEV_VEC_PUSH(&colors, lin);
			nd.color = lin >= 0 ? (int)ci : -1;
			bad |= MEV_VEC_PUSH(&name_at, names.len);
			if (multi_step(r))
				bad |= mev_buf_printf(&names, "%s (%s)", name, rel);
			else
				bad |= mev_buf_puts(&names, name);
			bad |= mev_buf_putc(&names, 0);
			bad |= MEV_VEC_PUSH(&nodes, nd);
			if (i) {
				chart_flow f = { left ? nodes.n - 1 : single, left ? single : nodes.n - 1,
						 shared_lines(e) };
				bad |= MEV_VEC_PUSH(&flows, f);
			}
		}
		/* estimates may add up to more than the single side holds: scale */
		if (!bad) {
			double sum = 0, room = nodes.v[single].value;
			for (size_t f = flows.n - m->n; f < flows.n; f++)
				sum += flows.v[f].value;
			for (size_t f = flows.n - m->n; sum > room && f < flows.n; f++)
				flows.v[f].value *= room / sum;
		}
	}
	if (!bad) {
		for (size_t i = 0; i < nodes.n; i++)
			nodes.v[i].name = names.ptr + name_at.v[i];
		mev_buf_printf(&cap, "The %zu largest splits and merges %s (of %zu): bar heights are the "
			       "subsystems' lines, band widths the code they share (estimated from "
			       "their similarity), to scale within each split or merge (larger ones "
			       "are drawn larger, by the square root of their size); a colour is a "
			       "lineage", ngroups,
			       multi_step(r) ? "in the range" : "between the two releases", r->groups.n);
		chart_alluvial(d->out, cap.ptr ? cap.ptr : "", cols, 2, nodes.v, nodes.n, flows.v, flows.n);
	}
	MEV_VEC_FREE(&nodes);
	MEV_VEC_FREE(&flows);
	MEV_VEC_FREE(&colors);
	MEV_VEC_FREE(&name_at);
	mev_buf_free(&cap);
	mev_buf_free(&names);
}

static void moves_table(doc *d, const report *r, mev_event_kind kind)
{
	const char *split_hdr[] = { "subsystem before", "lines", "became", "lines", "similarity",
				    "its largest sections" };
	const char *merge_hdr[] = { "subsystem after", "lines", "came from", "lines", "similarity",
				    "its largest sections" };
	mev_buf secs = MEV_BUF_INIT;
	size_t rows = 0, groups = 0, more = 0;
	for (size_t g = 0; g < r->groups.n; g++)
		groups += r->groups.v[g].kind == kind;
	if (!groups)
		return;
	doc_heading(d, 3, kind == MEV_EVENT_SPLIT ? "Splits" : "Merges");
	doc_table(d, kind == MEV_EVENT_SPLIT ? split_hdr : merge_hdr, "lrlrrl");
	for (size_t g = 0; g < r->groups.n; g++) {
		const move *m = &r->groups.v[g];
		if (m->kind != kind)
			continue;
		if (rows >= LIST_MAX) {
			more++;
			continue;
		}
		for (size_t i = 0; i < m->n; i++, rows++) {
			const mev_event *e = r->moves.v[m->first + i];
			const char *one = kind == MEV_EVENT_SPLIT ? e->from_cluster : e->to_cluster;
			const char *one_rel = kind == MEV_EVENT_SPLIT ? e->from_release : e->to_release;
			const char *other = kind == MEV_EVENT_SPLIT ? e->to_cluster : e->from_cluster;
			const char *other_rel = kind == MEV_EVENT_SPLIT ? e->to_release : e->from_release;
			char sim[16];
			if (i == 0) {
				cell_cluster(d, r, one, one_rel);
				doc_cell_count(d, kind == MEV_EVENT_SPLIT ? e->from_lines : e->to_lines);
			} else {
				doc_cell(d, "");
				doc_cell(d, "");
			}
			cell_cluster(d, r, other, other_rel);
			doc_cell_count(d, kind == MEV_EVENT_SPLIT ? e->to_lines : e->from_lines);
			snprintf(sim, sizeof sim, "%.2f", e->similarity);
			doc_cell(d, sim);
			cluster_sections(r, other_rel, other, &secs);
			doc_cell(d, secs.ptr ? secs.ptr : "");
		}
	}
	doc_table_end(d);
	doc_more(d, more, "maintevo export events");
	mev_buf_free(&secs);
}

static void births_table(doc *d, const report *r, int births)
{
	const char *hdr[] = { births ? "subsystem born" : "subsystem gone", births ? "in" : "after",
			      "lines", "sections" };
	const mev_event *const *v = births ? r->births.v : r->deaths.v;
	size_t n = births ? r->births.n : r->deaths.n;
	mev_buf secs = MEV_BUF_INIT;
	if (!n)
		return;
	doc_heading(d, 3, births ? "Born" : "Died");
	doc_table(d, hdr, "ltrl");
	for (size_t i = 0; i < n && i < LIST_MAX; i++) {
		const mev_event *e = v[i];
		const char *name = births ? e->to_cluster : e->from_cluster;
		const char *rel = births ? e->to_release : e->from_release;
		doc_cell(d, name);
		doc_cell(d, rel);
		doc_cell_count(d, event_size(e));
		cluster_sections(r, rel, name, &secs);
		doc_cell(d, secs.ptr ? secs.ptr : "");
	}
	doc_table_end(d);
	doc_more(d, n > LIST_MAX ? n - LIST_MAX : 0, "maintevo export events");
	mev_buf_free(&secs);
}

static void part_subsystems(doc *d, const report *r)
{
	size_t splits = 0, merges = 0;
	doc_heading(d, 2, "Subsystems");
	if (!r->h.clustered) {
		doc_missing(d, "The releases are not clustered", "maintevo cluster");
		return;
	}
	if (!r->h.tracked) {
		doc_missing(d, "Clusters are not followed across releases yet", "maintevo track");
		return;
	}
	for (size_t g = 0; g < r->groups.n; g++) {
		if (r->groups.v[g].kind == MEV_EVENT_SPLIT)
			splits++;
		else
			merges++;
	}
	doc_para_begin(d, NULL);
	doc_printf(d, "%zu born, %zu died, %zu split, %zu merged", r->births.n, r->deaths.n, splits,
		   merges);
	doc_text(d, " (a subsystem is a cluster of sections; it is followed from release to release "
		    "by the code it covers).");
	doc_para_end(d, NULL);
	if (d->fmt == MEV_REPORT_HTML && r->groups.n)
		moves_chart(d, r);
	moves_table(d, r, MEV_EVENT_SPLIT);
	moves_table(d, r, MEV_EVENT_MERGE);
	births_table(d, r, 1);
	births_table(d, r, 0);
}

static int change_cmp(const void *x, const void *y)
{
	const mev_section_change *a = *(const mev_section_change *const *)x;
	const mev_section_change *b = *(const mev_section_change *const *)y;
	int c;
	if (a->lines != b->lines)
		return a->lines < b->lines ? 1 : -1;
	if ((c = strcmp(a->section, b->section)))
		return c;
	return strcmp(a->to_release, b->to_release);
}

static void part_sections(doc *d, const report *r)
{
	static const mev_section_change_kind kinds[] = { MEV_SECTION_ADDED, MEV_SECTION_REMOVED,
							 MEV_SECTION_RENAMED };
	size_t count[3] = { 0, 0, 0 };
	mev_buf h = MEV_BUF_INIT;
	char cmd[160];
	doc_heading(d, 2, "Sections");
	if (!r->changes_known) {
		doc_missing(d, "Sections added, removed and renamed are found by the tracker",
			    "maintevo track");
		return;
	}
	for (size_t i = 0; i < r->changes.n; i++)
		count[r->changes.v[i].kind]++;
	doc_para_begin(d, NULL);
	doc_printf(d, "%zu added, %zu removed, %zu renamed", count[0], count[1], count[2]);
	doc_text(d, " (renamed: a new title that covers most of the code of a vanished one).");
	doc_para_end(d, NULL);
	if (multi_step(r))
		snprintf(cmd, sizeof cmd, "maintevo export section_changes");
	else
		snprintf(cmd, sizeof cmd, "maintevo export section_changes --release %s", r->b.rel->tag);
	for (size_t k = 0; k < 3; k++) {
		static const char *const titles[] = { "Added", "Removed", "Renamed" };
		const char *plain[] = { "section", "status", "maintainers", "lines" };
		const char *ren[] = { "old title", "new title", "lines", "code kept" };
		const char *plain_m[] = { "section", "step", "lines" };
		const char *ren_m[] = { "old title", "new title", "step", "lines", "code kept" };
		int renamed = kinds[k] == MEV_SECTION_RENAMED, many = multi_step(r);
		size_t shown = 0, m = 0;
		const mev_section_change **v;
		if (!count[k])
			continue;
		/* largest first (added: size now; removed, renamed: size before) */
		if (!(v = malloc(count[k] * sizeof *v)))
			break;
		for (size_t i = 0; i < r->changes.n; i++)
			if (r->changes.v[i].kind == kinds[k])
				v[m++] = &r->changes.v[i];
		sort(v, m, sizeof *v, change_cmp);
		mev_buf_clear(&h);
		mev_buf_printf(&h, "%s (%zu)", titles[k], count[k]);
		doc_heading(d, 3, h.ptr);
		if (renamed)
			doc_table(d, many ? ren_m : ren, many ? "lltrr" : "llrr");
		else
			doc_table(d, many ? plain_m : plain, many ? "ltr" : "llrr");
		for (size_t i = 0; i < m && shown < LIST_MAX; i++) {
			const mev_section_change *c = v[i];
			shown++;
			doc_cell(d, c->section);
			if (renamed)
				doc_cell(d, c->new_section);
			if (many) {
				mev_buf_clear(&h);
				mev_buf_printf(&h, "%s \xe2\x86\x92 %s", c->from_release, c->to_release);
				doc_cell(d, h.ptr ? h.ptr : "");
			}
			if (!renamed && !many) {
				/* status and maintainers from the release the section is in */
				const side *s = kinds[k] == MEV_SECTION_ADDED ? &r->b : &r->a;
				int64_t j = mev_strmap_get(&s->by_title, c->section, strlen(c->section));
				const mev_section_info *si = j >= 0 ? &mev_filemap_sections(s->secs)[j] : NULL;
				doc_cell(d, si && si->status[0] ? si->status : "\xe2\x80\x93");
				if (si)
					doc_cell_count(d, si->n_maintainers);
				else
					doc_cell(d, "");
			}
			doc_cell_count(d, (int64_t)c->lines);
			if (renamed) {
				char pc[16];
				snprintf(pc, sizeof pc, "%.0f%%", 100.0 * c->coverage);
				doc_cell(d, pc);
			}
		}
		doc_table_end(d);
		doc_more(d, count[k] > LIST_MAX ? count[k] - LIST_MAX : 0, cmd);
		free(v);
	}
	mev_buf_free(&h);
}

/* One row of a growers table: name (and its former name), before, after. */
typedef struct {
	const char *name, *was;
	int64_t a, b;
} mover;

static int mover_cmp(const void *x, const void *y)
{
	const mover *p = x, *q = y;
	int64_t dp = p->b - p->a, dq = q->b - q->a;
	if (dp != dq)
		return dp < dq ? 1 : -1;
	return strcmp(p->name, q->name);
}

/* The TOP_N largest growers (grow) or shrinkers of v (sorted by change). */
static void movers_table(doc *d, const report *r, const char *what, const mover *v, size_t n,
			 int grow)
{
	const char *hdr[] = { what, r->a.rel->tag, r->b.rel->tag, "change" };
	size_t shown = 0;
	doc_table(d, hdr, "lrrr");
	for (size_t i = 0; i < n && shown < TOP_N; i++) {
		const mover *m = grow ? &v[i] : &v[n - 1 - i];
		mev_buf t = MEV_BUF_INIT;
		if (grow ? m->b <= m->a : m->b >= m->a)
			break;
		if (m->was && strcmp(m->was, m->name) != 0)
			mev_buf_printf(&t, "%s (was %s)", m->name, m->was);
		else
			mev_buf_puts(&t, m->name);
		doc_cell(d, t.ptr ? t.ptr : "");
		doc_cell_count(d, m->a);
		doc_cell_count(d, m->b);
		doc_cell_change(d, m->a, m->b, 1, 0);
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

/* Subsystems in both releases: clusters of one lineage. */
static int lineage_movers(const report *r, mover **out, size_t *n)
{
	const mev_clustering *ca = r->h.rel[r->ia].c, *cb = r->h.rel[r->ib].c;
	size_t na, nb, k = 0;
	mover *v;
	*out = NULL;
	*n = 0;
	if (!ca || !cb || !r->h.tracked)
		return 0;
	na = mev_clustering_count(ca);
	nb = mev_clustering_count(cb);
	if (!(v = malloc((na + 1) * sizeof *v)))
		return mev_error_oom();
	for (uint32_t i = 0; i < na; i++) {
		int64_t lin = r->h.rel[r->ia].lineage[i];
		for (uint32_t j = 0; lin >= 0 && j < nb; j++)
			if (r->h.rel[r->ib].lineage[j] == lin) {
				mover m = { mev_clustering_title(cb, mev_clustering_representative(cb, j)),
					    mev_clustering_title(ca, mev_clustering_representative(ca, i)),
					    (int64_t)history_cluster_lines(&r->h, r->ia, i),
					    (int64_t)history_cluster_lines(&r->h, r->ib, j) };
				v[k++] = m;
				break;
			}
	}
	sort(v, k, sizeof *v, mover_cmp);
	*out = v;
	*n = k;
	return 0;
}

static int part_movers(doc *d, report *r)
{
	mover *v = malloc((r->kept.n + 1) * sizeof *v), *lv = NULL;
	size_t nl = 0;
	mev_buf h = MEV_BUF_INIT;
	int rc;
	if (!v)
		return mev_error_oom();
	for (size_t i = 0; i < r->kept.n; i++) {
		const pair *p = &r->kept.v[i];
		mover m = { sec_title(&r->b, p->b), sec_title(&r->a, p->a), sec_lines(&r->a, p->a),
			    sec_lines(&r->b, p->b) };
		v[i] = m;
	}
	sort(v, r->kept.n, sizeof *v, mover_cmp);
	if ((rc = lineage_movers(r, &lv, &nl))) {
		free(v);
		return rc;
	}
	doc_heading(d, 2, "Largest growers and shrinkers");
	doc_para(d, NULL, "By the change in lines: subsystems of the same lineage in both releases, "
		 "sections present in both (renamed ones included).");
	if (nl) {
		mev_buf_printf(&h, "Subsystems that grew most (top %d)", TOP_N);
		doc_heading(d, 3, h.ptr);
		movers_table(d, r, "subsystem", lv, nl, 1);
		mev_buf_clear(&h);
		mev_buf_printf(&h, "Subsystems that shrank most (top %d)", TOP_N);
		doc_heading(d, 3, h.ptr);
		movers_table(d, r, "subsystem", lv, nl, 0);
		mev_buf_clear(&h);
	}
	mev_buf_printf(&h, "Sections that grew most (top %d)", TOP_N);
	doc_heading(d, 3, h.ptr);
	movers_table(d, r, "section", v, r->kept.n, 1);
	mev_buf_clear(&h);
	mev_buf_printf(&h, "Sections that shrank most (top %d)", TOP_N);
	doc_heading(d, 3, h.ptr);
	movers_table(d, r, "section", v, r->kept.n, 0);
	mev_buf_free(&h);
	free(lv);
	free(v);
	return 0;
}

/* The largest lineages over all releases up to the newer one. */
typedef struct {
	int64_t id;
	uint64_t peak;
	double *lines;       /* per release from `first` */
	const char *name;    /* representative in its last release up to ib */
} lineage_series;

static int series_cmp(const void *x, const void *y)
{
	const lineage_series *a = x, *b = y;
	if (a->peak != b->peak)
		return a->peak < b->peak ? 1 : -1;
	return a->id < b->id ? -1 : a->id > b->id;
}

static int lineage_chart(doc *d, const report *r)
{
	size_t first = 0, n, top = 0, nid = 0;
	lineage_series *all = NULL;
	int64_t *slot = NULL;
	int rc = 0;
	/* the releases that have clusters, up to the newer one */
	while (first <= r->ib && !(r->h.rel[first].c && mev_clustering_count(r->h.rel[first].c)))
		first++;
	if (first > r->ib)
		return 0;
	n = r->ib - first + 1;
	for (size_t i = 0; i < r->h.lineages.n; i++)
		if ((int64_t)r->h.lineages.v[i].id + 1 > (int64_t)nid)
			nid = r->h.lineages.v[i].id + 1;
	for (size_t ri = first; ri <= r->ib; ri++)
		for (size_t k = 0; r->h.rel[ri].c && k < mev_clustering_count(r->h.rel[ri].c); k++)
			if (r->h.rel[ri].lineage[k] + 1 > (int64_t)nid)
				nid = (size_t)r->h.rel[ri].lineage[k] + 1;
	all = calloc(nid + 1, sizeof *all);
	slot = malloc((nid + 1) * sizeof *slot);
	if (!all || !slot) {
		rc = mev_error_oom();
		goto done;
	}
	/* peaks first, then the series of the largest only */
	for (size_t ri = first; ri <= r->ib; ri++) {
		const mev_clustering *c = r->h.rel[ri].c;
		for (uint32_t k = 0; c && k < mev_clustering_count(c); k++) {
			int64_t lin = r->h.rel[ri].lineage[k];
			if (lin < 0)
				continue;
			all[lin].id = lin;
			if (history_cluster_lines(&r->h, ri, k) > all[lin].peak)
				all[lin].peak = history_cluster_lines(&r->h, ri, k);
			all[lin].name = mev_clustering_title(c, mev_clustering_representative(c, k));
		}
	}
	sort(all, nid, sizeof *all, series_cmp);
	for (size_t i = 0; i < nid; i++)
		slot[i] = -1;
	for (top = 0; top < LINEAGES && top < nid && all[top].peak; top++) {
		slot[all[top].id] = (int64_t)top;
		if (!(all[top].lines = calloc(n + 1, sizeof *all[top].lines))) {
			rc = mev_error_oom();
			goto done;
		}
	}
	for (size_t ri = first; ri <= r->ib; ri++) {
		const mev_clustering *c = r->h.rel[ri].c;
		for (uint32_t k = 0; c && k < mev_clustering_count(c); k++) {
			int64_t lin = r->h.rel[ri].lineage[k];
			if (lin >= 0 && slot[lin] >= 0)
				all[slot[lin]].lines[ri - first] = (double)history_cluster_lines(&r->h, ri, k);
		}
	}
	if (d->fmt == MEV_REPORT_HTML) {
		chart_series *s = malloc((top + 1) * sizeof *s);
		const char **labels = malloc((n + 1) * sizeof *labels);
		uint8_t *mark = calloc(n + 1, 1);
		mev_buf cap = MEV_BUF_INIT, names = MEV_BUF_INIT;
		MEV_VEC(size_t) name_at = { 0 };
		if (s && labels && mark) {
			for (size_t i = 0; i < top; i++) {
				size_t at = names.len;
				if (mev_buf_printf(&names, "%s [%" PRId64 "]", all[i].name, all[i].id) ||
				    mev_buf_putc(&names, 0) || MEV_VEC_PUSH(&name_at, at))
					rc = mev_error_oom();
				s[i].values = all[i].lines;
			}
			for (size_t i = 0; !rc && i < top; i++)
				s[i].name = names.ptr + name_at.v[i];
			for (size_t i = 0; i < n; i++)
				labels[i] = r->h.list[first + i].tag;
			if (r->ia >= first)
				mark[r->ia - first] = 1;
			mark[r->ib - first] = 1;
			mev_buf_printf(&cap, "Lines of the %zu largest subsystems (lineages, by their peak) "
				       "in every release from %s to %s, stacked (lines of the files they cover, "
				       "each once); a subsystem is named after its largest section in the last "
				       "release it has, [n] is its lineage id; dashed lines: the releases "
				       "compared", top, r->h.list[first].tag, r->b.rel->tag);
			if (!rc)
				chart_stacked(d->out, cap.ptr ? cap.ptr : "", labels, n, s, top, mark);
		} else {
			rc = mev_error_oom();
		}
		mev_buf_free(&cap);
		mev_buf_free(&names);
		MEV_VEC_FREE(&name_at);
		free(s);
		free(labels);
		free(mark);
	} else {
		const char *hdr[] = { "lineage", "subsystem", r->a.rel->tag, r->b.rel->tag, "peak" };
		doc_table(d, hdr, "rlrrr");
		for (size_t i = 0; i < top; i++) {
			doc_cell_count(d, all[i].id);
			doc_cell(d, all[i].name);
			if (r->ia >= first)
				doc_cell_count(d, (int64_t)all[i].lines[r->ia - first]);
			else
				doc_cell(d, "");
			doc_cell_count(d, (int64_t)all[i].lines[r->ib - first]);
			doc_cell_count(d, (int64_t)all[i].peak);
		}
		doc_table_end(d);
	}
done:
	for (size_t i = 0; all && i < top; i++)
		free(all[i].lines);
	free(all);
	free(slot);
	return rc;
}

/* Sections per release over all stored releases up to the newer one. */
static void sections_chart(doc *d, const report *r)
{
	size_t n = r->ib + 1;
	if (d->fmt == MEV_REPORT_HTML) {
		const char **labels = malloc((n + 1) * sizeof *labels);
		double *vals = malloc((n + 1) * sizeof *vals);
		uint8_t *hl = calloc(n + 1, 1);
		if (labels && vals && hl) {
			char ca[32], cb[32];
			mev_buf cap = MEV_BUF_INIT;
			for (size_t i = 0; i < n; i++) {
				labels[i] = r->h.list[i].tag;
				vals[i] = (double)r->h.list[i].sections;
			}
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
		const char *hdr[] = { "release", "date", "sections", "subsystems", "files", "lines",
				      "lines no section covers" };
		size_t first = n > SERIES_MD ? n - SERIES_MD : 0;
		if (first > r->ia)
			first = r->ia;
		doc_table(d, hdr, "ttrrrrr");
		for (size_t i = first; i < n; i++) {
			const mev_release *x = &r->h.list[i];
			char date[16];
			fmt_date(date, x->time);
			doc_cell(d, x->tag);
			doc_cell(d, date);
			doc_cell_count(d, (int64_t)x->sections);
			if (r->h.rel[i].c)
				doc_cell_count(d, (int64_t)mev_clustering_count(r->h.rel[i].c));
			else
				doc_cell(d, "\xe2\x80\x93");
			doc_cell_count(d, (int64_t)x->files);
			doc_cell_count(d, (int64_t)x->lines);
			doc_cell_count(d, (int64_t)x->uncovered_lines);
		}
		doc_table_end(d);
		if (first)
			doc_more(d, first, "maintevo export releases");
	}
}

static int part_history(doc *d, const report *r)
{
	int rc = 0;
	doc_heading(d, 2, "Over all releases");
	doc_heading(d, 3, "The largest subsystems");
	if (!r->h.tracked)
		doc_missing(d, "Subsystems over time need clusters followed across releases",
			    "maintevo track");
	else
		rc = lineage_chart(d, r);
	doc_heading(d, 3, "Sections per release");
	sections_chart(d, r);
	return rc;
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
	"overflow-wrap:break-word}\n"
	"th{background:var(--head);font-weight:600}\n"
	"td.t{white-space:nowrap;overflow-wrap:normal}\n"
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
	"nav{font-size:14px;margin:-6px 0 8px}nav a{color:var(--accent);text-decoration:none}\n"
	"code{font-family:ui-monospace,\"DejaVu Sans Mono\",Menlo,Consolas,monospace;font-size:.9em;"
	"background:var(--head);padding:1px 4px;border-radius:3px}\n"
	"footer{color:var(--muted);font-size:12px;margin-top:40px;border-top:1px solid var(--line);"
	"padding-top:8px}\n"
	"@media print{nav{display:none}body{font-size:10pt}main{max-width:none;padding:0}h2{break-after:avoid}"
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
	part_subsystems(&d, &r);
	part_sections(&d, &r);
	if ((rc = part_movers(&d, &r)) || (rc = part_history(&d, &r)))
		goto done;
	doc_end(&d);
	if (ferror(out))
		rc = mev_error_set(MEV_EIO, "cannot write the report");
done:
	side_free(&r.a);
	side_free(&r.b);
	MEV_VEC_FREE(&r.kept);
	MEV_VEC_FREE(&r.births);
	MEV_VEC_FREE(&r.deaths);
	MEV_VEC_FREE(&r.moves);
	MEV_VEC_FREE(&r.groups);
	mev_section_change_list_free(&r.changes);
	history_free(&r.h);
	return rc;
}
