/* Quoting text for CSV, JSON and XML output, always producing UTF-8. */
#include "maintevo/csv.h"
#include "util/buf.h"
#include "util/text.h"

#include <string.h>

/* Borrow s when it is UTF-8, else convert into tmp. */
static const char *utf8_view(const char *s, size_t *len, mev_buf *tmp)
{
	if (mev_utf8_valid(s, *len))
		return s;
	mev_buf_clear(tmp);
	if (mev_latin1_to_utf8(tmp, s, *len))
		return s;
	*len = tmp->len;
	return tmp->ptr;
}

void mev_csv_field(FILE *out, const char *s, size_t len)
{
	mev_buf tmp = MEV_BUF_INIT;
	s = utf8_view(s, &len, &tmp);
	if (!memchr(s, ',', len) && !memchr(s, '"', len) && !memchr(s, '\n', len) &&
	    !memchr(s, '\r', len)) {
		fwrite(s, 1, len, out);
	} else {
		putc('"', out);
		for (size_t i = 0; i < len; i++) {
			if (s[i] == '"')
				putc('"', out);
			putc(s[i], out);
		}
		putc('"', out);
	}
	mev_buf_free(&tmp);
}

void mev_csv_str(FILE *out, const char *s) { mev_csv_field(out, s, strlen(s)); }

void mev_json_str(FILE *out, const char *s, size_t len)
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
			if (c < 0x20)
				fprintf(out, "\\u%04x", c);
			else
				putc(c, out);
		}
	}
	putc('"', out);
	mev_buf_free(&tmp);
}

void mev_xml_str(FILE *out, const char *s, size_t len)
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
	mev_buf_free(&tmp);
}
