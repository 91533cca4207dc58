/* The one writer of CSV, JSON and JSON Lines tables, and the quoting they share with XML. */
#include "maintevo/table.h"
#include "maintevo/error.h"
#include "util/buf.h"
#include "util/text.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* --- quoting ------------------------------------------------------------------ */

/* Borrow s when it is UTF-8, else convert into tmp. */
static const char *utf8_view(const char *s, size_t *len, mev_buf *tmp)
{
	if (mev__utf8_valid(s, *len))
		return s;
	mev__buf_clear(tmp);
	if (mev__latin1_to_utf8(tmp, s, *len))
		return s;
	*len = tmp->len;
	return tmp->ptr;
}

/*
 * The length of the UTF-8 character at s[0..n) (n > 0) and its code point,
 * or 0 when the bytes there are not UTF-8 (overlong forms and surrogates
 * included).
 */
static size_t utf8_char(const unsigned char *s, size_t n, uint32_t *cp)
{
	size_t len;
	uint32_t c = s[0], min;
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, c &= 0x1f, min = 0x80;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, c &= 0x0f, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, c &= 0x07, min = 0x10000;
	else
		return 0;
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

void mev_table_term_str(FILE *out, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t n = utf8_char(s + i, len - i, &cp);
		if (n == 0) {
			fprintf(out, "\\x%02x", s[i]); /* not UTF-8: the byte */
			n = 1;
		} else if ((cp < 0x20 && cp != '\t' && cp != '\n') || cp == 0x7f) {
			fprintf(out, "\\x%02x", (unsigned)cp);
		} else if (cp >= 0x80 && cp <= 0x9f) {
			fprintf(out, "\\u%04x", (unsigned)cp); /* C1: CSI is U+009B */
		} else {
			fwrite(s + i, 1, n, out);
		}
		i += n;
	}
}

/* A cell a spreadsheet would read as a formula (OWASP's CSV injection list). */
static int formula_like(const char *s, size_t len)
{
	return len && s[0] && strchr("=+-@\t\r", s[0]) != NULL;
}

/*
 * One CSV field (RFC 4180): quoted when it holds ',', '"', CR or LF.
 * excel_safe: a ' before a formula-like cell; term: control characters
 * escaped (mev_table_term_str()).
 */
static void csv_field(FILE *out, const char *s, size_t len, int excel_safe, int term)
{
	mev_buf tmp = MEV_BUF_INIT;
	const char *p, *end;
	int quote;
	s = utf8_view(s, &len, &tmp);
	quote = memchr(s, ',', len) || memchr(s, '"', len) || memchr(s, '\n', len) ||
		memchr(s, '\r', len);
	if (quote)
		putc('"', out);
	if (excel_safe && formula_like(s, len))
		putc('\'', out);
	for (p = s, end = s + len; p < end;) {
		/* the runs between quotes as they are, or escaped on a terminal */
		const char *q = quote ? memchr(p, '"', (size_t)(end - p)) : NULL;
		size_t n = q ? (size_t)(q - p) : (size_t)(end - p);
		if (term)
			mev_table_term_str(out, p, n);
		else
			fwrite(p, 1, n, out);
		p += n;
		if (q) {
			fputs("\"\"", out);
			p++;
		}
	}
	if (quote)
		putc('"', out);
	mev__buf_free(&tmp);
}

/* A JSON string literal; script: also safe inside an HTML <script> element
 * (no '<', '>' or '&', and U+2028/U+2029 escaped, as older parsers take
 * them for line ends). */
static void json_str(FILE *out, const char *s, size_t len, int script)
{
	mev_buf tmp = MEV_BUF_INIT;
	s = utf8_view(s, &len, &tmp);
	putc('"', out);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\t': fputs("\\t", out); break;
		default:
			if (c < 0x20 || (script && (c == 0x7f || c == '<' || c == '>' || c == '&'))) {
				fprintf(out, "\\u%04x", c);
			} else if (script && c == 0xe2 && i + 2 < len && (unsigned char)s[i + 1] == 0x80 &&
				   ((unsigned char)s[i + 2] == 0xa8 || (unsigned char)s[i + 2] == 0xa9)) {
				fprintf(out, "\\u%04x", (unsigned char)s[i + 2] == 0xa8 ? 0x2028 : 0x2029);
				i += 2;
			} else {
				putc(c, out);
			}
		}
	}
	putc('"', out);
	mev__buf_free(&tmp);
}

void mev_table_json_str(FILE *out, const char *s, size_t len)
{
	json_str(out, s, len, 0);
}

void mev_table_json_script_str(FILE *out, const char *s, size_t len)
{
	json_str(out, s, len, 1);
}

void mev_table_xml_str(FILE *out, const char *s, size_t len)
{
	mev_buf tmp = MEV_BUF_INIT;
	s = utf8_view(s, &len, &tmp);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		default:
			if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
				fputs("\xef\xbf\xbd", out); /* not allowed in XML 1.0 */
			else
				putc(c, out);
		}
	}
	mev__buf_free(&tmp);
}

void mev_table_dot_str(FILE *out, const char *s, size_t len, int label)
{
	mev_buf tmp = MEV_BUF_INIT;
	s = utf8_view(s, &len, &tmp);
	putc('"', out);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break; /* else \N, \G, \l ... would expand */
		case '\n': fputs("\\n", out); break;
		case '&':
			/* Graphviz reads entities in labels: "&lt;" would show as "<" */
			fputs(label ? "&amp;" : "&", out);
			break;
		default:
			/* controls shown as the text \x1b (C1: \u009b), as on a terminal */
			if ((c < 0x20 && c != '\t') || c == 0x7f) {
				fprintf(out, "\\\\x%02x", c);
			} else if (c == 0xc2 && i + 1 < len && (unsigned char)s[i + 1] >= 0x80 &&
				   (unsigned char)s[i + 1] <= 0x9f) {
				fprintf(out, "\\\\u%04x", (unsigned char)s[++i]);
			} else {
				putc(c, out);
			}
		}
	}
	putc('"', out);
	mev__buf_free(&tmp);
}

/* --- formats and types ---------------------------------------------------------- */

int mev_table_format_parse(const char *name)
{
	static const char *const names[] = { "csv", "json", "jsonl" };
	for (int i = 0; i < 3; i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return -1;
}

const char *mev_table_type_name(mev_column_type type)
{
	static const char *const names[] = { "string", "integer", "number", "date" };
	return (unsigned)type < 4 ? names[type] : "";
}

/* --- the writer ------------------------------------------------------------------ */

/*
 * CSV: a header line, then the rows.  JSON: "[", then "\n{...}" objects
 * separated by ",", then "\n]\n" ("]\n" when there are none).  JSON Lines:
 * one "{...}\n" per row.  Inside an object the keys are the column names,
 * "key": value pairs separated by ", ".
 */
struct mev_table {
	FILE *out;
	mev_table_format fmt;
	const mev_column *cols;
	size_t ncols;
	size_t col;               /* the column the next value goes to */
	uint64_t rows;
	/* the first misuse, reported by mev_table_finish() */
	int bad;
	uint64_t bad_row;
	size_t bad_col;
	mev_column_type bad_type; /* what was written into bad_col */
	int bad_count;            /* a row with too many or too few values */
	int excel_safe;           /* CSV: a ' before formula-like strings */
	int term;                 /* CSV: control characters escaped */
	int has_sink;             /* values go to sink, not to out */
	mev_table_sink sink;
	int sink_rc;              /* the sink's first error */
};

static void misuse(mev_table *t, int count, mev_column_type type)
{
	if (t->bad)
		return;
	t->bad = 1;
	t->bad_row = t->rows + 1;
	t->bad_col = t->col;
	t->bad_count = count;
	t->bad_type = type;
}

int mev_table_new(mev_table **out, FILE *stream, mev_table_format fmt, const mev_column *cols)
{
	mev_table *t = calloc(1, sizeof *t);
	*out = NULL;
	if (!t)
		return mev_error_oom();
	t->out = stream;
	t->fmt = fmt;
	t->cols = cols;
	while (cols[t->ncols].name)
		t->ncols++;
	/* a terminal would act on escape sequences in the data; a file keeps them */
	t->term = fmt == MEV_TABLE_CSV && fileno(stream) >= 0 && isatty(fileno(stream));
	if (fmt == MEV_TABLE_CSV) {
		for (size_t i = 0; i < t->ncols; i++) {
			if (i)
				putc(',', stream);
			fputs(cols[i].name, stream);
		}
		putc('\n', stream);
	} else if (fmt == MEV_TABLE_JSON) {
		putc('[', stream);
	}
	*out = t;
	return 0;
}

int mev_table_new_sink(mev_table **out, const mev_table_sink *sink, const mev_column *cols)
{
	mev_table *t = calloc(1, sizeof *t);
	*out = NULL;
	if (!t)
		return mev_error_oom();
	t->cols = cols;
	while (cols[t->ncols].name)
		t->ncols++;
	t->has_sink = 1;
	t->sink = *sink;
	*out = t;
	return 0;
}

void mev_table_excel_safe(mev_table *t, int on)
{
	t->excel_safe = on;
}

void mev_table_escape_controls(mev_table *t, int on)
{
	t->term = on;
}

void mev_table_free(mev_table *t)
{
	free(t);
}

/* Start the next field, a value of type `type` (-1: null, fits any column):
 * the separator and, for JSON, the key.  0 when there is no such column. */
static int field(mev_table *t, int type)
{
	if (t->col >= t->ncols) {
		misuse(t, 1, MEV_COLUMN_STRING);
		return 0;
	}
	if (type >= 0 && (mev_column_type)type != t->cols[t->col].type)
		misuse(t, 0, (mev_column_type)type);
	if (t->has_sink) {
		t->col++;
		return !t->sink_rc;
	}
	if (t->fmt == MEV_TABLE_CSV) {
		if (t->col)
			putc(',', t->out);
	} else {
		if (t->col == 0)
			fputs(t->fmt == MEV_TABLE_JSON ? (t->rows ? ",\n{" : "\n{") : "{", t->out);
		else
			fputs(", ", t->out);
		putc('"', t->out);
		fputs(t->cols[t->col].name, t->out);
		fputs("\": ", t->out);
	}
	t->col++;
	return 1;
}

void mev_table_null(mev_table *t)
{
	if (!field(t, -1))
		return;
	if (t->has_sink)
		t->sink.null(t->sink.ctx, t->col - 1);
	else if (t->fmt != MEV_TABLE_CSV)
		fputs("null", t->out);
}

void mev_table_strn(mev_table *t, const char *s, size_t len)
{
	if (!field(t, MEV_COLUMN_STRING))
		return;
	if (t->has_sink) {
		mev_buf tmp = MEV_BUF_INIT;
		s = utf8_view(s, &len, &tmp);
		t->sink.text(t->sink.ctx, t->col - 1, s, len);
		mev__buf_free(&tmp);
	} else if (t->fmt == MEV_TABLE_CSV)
		csv_field(t->out, s, len, t->excel_safe, t->term);
	else
		mev_table_json_str(t->out, s, len);
}

void mev_table_str(mev_table *t, const char *s)
{
	if (s)
		mev_table_strn(t, s, strlen(s));
	else
		mev_table_null(t);
}

void mev_table_str_or_null(mev_table *t, const char *s)
{
	mev_table_str(t, s && *s ? s : NULL);
}

void mev_table_uint(mev_table *t, uint64_t v)
{
	if (!field(t, MEV_COLUMN_INTEGER))
		return;
	if (t->has_sink)
		t->sink.integer(t->sink.ctx, t->col - 1, (int64_t)v);
	else
		fprintf(t->out, "%" PRIu64, v);
}

void mev_table_int_or_null(mev_table *t, int64_t v)
{
	if (v < 0)
		mev_table_null(t);
	else if (!field(t, MEV_COLUMN_INTEGER))
		return;
	else if (t->has_sink)
		t->sink.integer(t->sink.ctx, t->col - 1, v);
	else
		fprintf(t->out, "%" PRId64, v);
}

void mev_table_num(mev_table *t, double v)
{
	if (isnan(v))
		mev_table_null(t);
	else if (!field(t, MEV_COLUMN_NUMBER))
		return;
	else if (t->has_sink)
		t->sink.number(t->sink.ctx, t->col - 1, v);
	else
		fprintf(t->out, "%.6g", v);
}

void mev_table_date(mev_table *t, int64_t seconds)
{
	time_t tt = (time_t)seconds;
	struct tm tm;
	char s[32];
	if (!field(t, MEV_COLUMN_DATE))
		return;
	if (t->has_sink) {
		t->sink.date(t->sink.ctx, t->col - 1, seconds);
		return;
	}
	gmtime_r(&tt, &tm);
	strftime(s, sizeof s, "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (t->fmt == MEV_TABLE_CSV)
		fputs(s, t->out);
	else
		fprintf(t->out, "\"%s\"", s);
}

void mev_table_end_row(mev_table *t)
{
	if (t->col != t->ncols)
		misuse(t, 1, MEV_COLUMN_STRING);
	if (t->has_sink) {
		/* a row that does not fit the columns is not handed on */
		if (!t->sink_rc && !t->bad)
			t->sink_rc = t->sink.end_row(t->sink.ctx);
	} else if (t->fmt == MEV_TABLE_CSV)
		putc('\n', t->out);
	else
		fputs(t->fmt == MEV_TABLE_JSON ? "}" : "}\n", t->out);
	t->col = 0;
	t->rows++;
}

int mev_table_finish(mev_table *t)
{
	if (!t->has_sink && t->fmt == MEV_TABLE_JSON)
		fputs(t->rows ? "\n]\n" : "]\n", t->out);
	if (t->bad && t->bad_count)
		return mev_error_set(MEV_EINVAL, "row %" PRIu64 " of the table does not have its %zu "
				     "columns", t->bad_row, t->ncols);
	if (t->bad)
		return mev_error_set(MEV_EINVAL, "row %" PRIu64 ": column '%s' of the table is %s, not %s",
				     t->bad_row, t->cols[t->bad_col].name,
				     mev_table_type_name(t->cols[t->bad_col].type),
				     mev_table_type_name(t->bad_type));
	if (t->has_sink)
		return t->sink_rc;
	if (ferror(t->out))
		return mev_error_write("table");
	return 0;
}

const char *mev_table_count(char out[32], int64_t v)
{
	char tmp[32];
	uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	int n = snprintf(tmp, sizeof tmp, "%" PRIu64, m), o = 0;
	if (v < 0)
		out[o++] = '-';
	for (int i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = tmp[i];
	}
	out[o] = 0;
	return out;
}
