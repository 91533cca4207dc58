/*
 * The document layer of the report: headings, paragraphs, tables and cells
 * written as Markdown or as HTML (with its page head and stylesheet), so
 * that every part of the report is written once for both formats.
 */
#include "report_internal.h"
#include "maintevo/table.h"
#include "maintevo/version.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>

int mev_report_format_parse(const char *name)
{
	if (strcmp(name, "md") == 0 || strcmp(name, "markdown") == 0)
		return MEV_REPORT_MD;
	if (strcmp(name, "html") == 0)
		return MEV_REPORT_HTML;
	return -1;
}

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
void mev__doc_text(mev__doc *d, const char *s)
{
	if (d->fmt == MEV_REPORT_HTML)
		mev_table_xml_str(d->out, s, strlen(s));
	else
		md_text(d->out, s);
}

/* Formatted text (escaped). */
void mev__doc_printf(mev__doc *d, const char *fmt, ...)
{
	mev_buf b = MEV_BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	if (mev__buf_vprintf(&b, fmt, ap) == 0)
		mev__doc_text(d, b.ptr);
	va_end(ap);
	mev__buf_free(&b);
}

/* The anchor of a heading: "Sections per release" -> "sections-per-release". */
void mev__doc_anchor(mev__doc *d, const char *heading)
{
	for (const char *p = heading; *p; p++)
		putc(isalnum((unsigned char)*p) ? tolower((unsigned char)*p) : '-', d->out);
}

void mev__doc_heading(mev__doc *d, int level, const char *s)
{
	if (d->fmt == MEV_REPORT_HTML) {
		fprintf(d->out, "<h%d", level);
		if (level == 2) {
			fputs(" id=\"", d->out);
			mev__doc_anchor(d, s);
			putc('"', d->out);
		}
		putc('>', d->out);
		mev__doc_text(d, s);
		fprintf(d->out, "</h%d>\n", level);
	} else {
		fprintf(d->out, "%.*s ", level, "######");
		mev__doc_text(d, s);
		fputs("\n\n", d->out);
	}
}

void mev__doc_para_begin(mev__doc *d, const char *cls)
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

void mev__doc_para_end(mev__doc *d, const char *cls)
{
	if (d->fmt == MEV_REPORT_HTML)
		fputs("</p>\n", d->out);
	else
		fputs(cls && strcmp(cls, "note") == 0 ? "_\n\n" : "\n\n", d->out);
}

void mev__doc_para(mev__doc *d, const char *cls, const char *s)
{
	mev__doc_para_begin(d, cls);
	mev__doc_text(d, s);
	mev__doc_para_end(d, cls);
}

/* `code` inline. */
void mev__doc_code(mev__doc *d, const char *s)
{
	if (d->fmt == MEV_REPORT_HTML) {
		fputs("<code>", d->out);
		mev_table_xml_str(d->out, s, strlen(s));
		fputs("</code>", d->out);
	} else {
		fprintf(d->out, "`%s`", s);
	}
}

/* A table: headers (escaped) and the kind of each column: 'l' text, 'r'
 * numbers (right-aligned), 't' release tags (left, never wrapped). */
void mev__doc_table(mev__doc *d, const char *const *headers, const char *align)
{
	size_t n = strlen(align);
	d->align = align;
	d->col = 0;
	if (d->fmt == MEV_REPORT_HTML) {
		/* the box scrolls a table that is still wider than the page
		 * once its long cells wrap (many numeric columns on a phone) */
		fputs("<div class=\"table\"><table>\n<thead><tr>", d->out);
		for (size_t i = 0; i < n; i++) {
			fputs(align[i] == 'r' ? "<th class=\"n\">" : "<th>", d->out);
			mev__doc_text(d, headers[i]);
			fputs("</th>", d->out);
		}
		fputs("</tr></thead>\n<tbody>\n", d->out);
	} else {
		fputs("|", d->out);
		for (size_t i = 0; i < n; i++) {
			putc(' ', d->out);
			mev__doc_text(d, headers[i]);
			fputs(" |", d->out);
		}
		fputs("\n|", d->out);
		for (size_t i = 0; i < n; i++)
			fputs(align[i] == 'r' ? "--:|" : ":--|", d->out);
		putc('\n', d->out);
	}
}

/* Open the next cell (cls: an extra HTML class, or NULL). */
void mev__doc_cell_begin(mev__doc *d, const char *cls)
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

void mev__doc_cell_end(mev__doc *d)
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

void mev__doc_cell(mev__doc *d, const char *s)
{
	mev__doc_cell_begin(d, NULL);
	mev__doc_text(d, s);
	mev__doc_cell_end(d);
}

void mev__doc_table_end(mev__doc *d)
{
	if (d->fmt == MEV_REPORT_HTML)
		fputs("</tbody>\n</table></div>\n", d->out);
	else
		putc('\n', d->out);
}

/* "1,234,567" */
void mev__doc_cell_count(mev__doc *d, int64_t v)
{
	char buf[32];
	mev_table_count(buf, v);
	mev__doc_cell(d, buf);
}

/* The HTML class of a change: "good" or "bad" when `worse` says which way
 * is worse (1: up, -1: down, 0: neither). */
const char *mev__change_class(int64_t dlt, int worse)
{
	if (!dlt || !worse)
		return NULL;
	return (dlt > 0) == (worse > 0) ? "bad" : "good";
}

/* "+1,234 (+2.1%)", coloured in HTML by `worse`; "0" when equal. */
void mev__doc_cell_change(mev__doc *d, int64_t from, int64_t to, int percent, int worse)
{
	char buf[32], out[64];
	int64_t dlt = to - from;
	mev_table_count(buf, dlt);
	if (dlt == 0)
		snprintf(out, sizeof out, "0");
	else if (percent && from > 0)
		snprintf(out, sizeof out, "%s%s (%+.1f%%)", dlt > 0 ? "+" : "", buf,
			 100.0 * (double)dlt / (double)from);
	else
		snprintf(out, sizeof out, "%s%s", dlt > 0 ? "+" : "", buf);
	mev__doc_cell_begin(d, mev__change_class(dlt, worse));
	mev__doc_text(d, out);
	mev__doc_cell_end(d);
}

/* "… and 12 more: see `cmd`" below a cut list. */
void mev__doc_more(mev__doc *d, size_t more, const char *cmd)
{
	if (!more)
		return;
	mev__doc_para_begin(d, "note");
	mev__doc_printf(d, "\xe2\x80\xa6 and %zu more; all of them: ", more);
	mev__doc_code(d, cmd);
	mev__doc_para_end(d, "note");
}

void mev__fmt_date(char out[16], int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	gmtime_r(&tt, &tm);
	strftime(out, 16, "%Y-%m-%d", &tm);
}

/* A note saying which command fills a part of the report that is empty. */
void mev__doc_missing(mev__doc *d, const char *what, const char *cmd)
{
	mev__doc_para_begin(d, "note");
	mev__doc_text(d, what);
	mev__doc_text(d, ": run ");
	mev__doc_code(d, cmd);
	mev__doc_text(d, " on the store first (with the same clustering options).");
	mev__doc_para_end(d, "note");
}

/* The page's stylesheet: the report is one file, without network access. */
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
	"div.table{overflow-x:auto}\n"
	"table{border-collapse:collapse;width:100%;margin:6px 0 14px;font-size:14px}\n"
	/* "anywhere" (unlike "break-word") lets a long path or cause shrink its
	 * column, so a table stays inside the page; numbers break only at the
	 * spaces of a list ("1,984; 657") or of a change ("+12 (+3.0%)") */
	"th,td{padding:5px 10px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top;"
	"overflow-wrap:anywhere}\n"
	"th{background:var(--head);font-weight:600}\n"
	"td.t{white-space:nowrap;overflow-wrap:normal}\n"
	"td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;overflow-wrap:normal}\n"
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

void mev__doc_begin(mev__doc *d, const char *title)
{
	d->title = title;
	if (d->fmt != MEV_REPORT_HTML)
		return;
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"maintevo ", d->out);
	fputs(mev_version(), d->out);
	fputs("\">\n<title>", d->out);
	mev__doc_text(d, title);
	fputs("</title>\n<style>\n", d->out);
	fputs(css, d->out);
	fputs("</style>\n</head>\n<body>\n<main>\n", d->out);
}

void mev__doc_end(mev__doc *d)
{
	if (d->fmt == MEV_REPORT_HTML) {
		fputs("<footer>", d->out);
		mev__doc_printf(d, "Written by maintevo %s; ", mev_version());
		mev__doc_text(d, "the tables behind it: ");
		mev__doc_code(d, "maintevo export");
		mev__doc_text(d, " (docs/schemas.md).");
		fputs("</footer>\n</main>\n</body>\n</html>\n", d->out);
	} else {
		fputs("---\n", d->out);
		mev__doc_printf(d, "Written by maintevo %s; the tables behind it: ", mev_version());
		mev__doc_code(d, "maintevo export");
		fputs(".\n", d->out);
	}
}

