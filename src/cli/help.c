/*
 * The generated words of help texts and messages: the table of dialects
 * in words (cli_dialect_words()) and the %WORD%s a help text holds
 * replaced by them (cli_help_expand()), for every --help and the error
 * of a --dialect it does not know (options.c).
 */
#include "cli.h"
#include "maintevo/dialect.h"

#include <string.h>

/* Append len bytes of s at buf + *n, within size (always NUL-terminated). */
static void put(char *buf, size_t size, size_t *n, const char *s, size_t len)
{
	if (*n < size)
		snprintf(buf + *n, size - *n, "%.*s", (int)len, s);
	*n += len;
}

static void puts0(char *buf, size_t size, size_t *n, const char *s)
{
	put(buf, size, n, s, strlen(s));
}

const char *cli_dialect_words(char *buf, size_t size, cli_dialect_list what)
{
	size_t n = 0;
	buf[0] = '\0';
	for (int d = 1; d < MEV_DIALECT_END; d++) {
		const mev_dialect_info *in = mev_dialect_info_get((mev_dialect)d);
		if (d > 1) /* "a, b or c" for names, "A, B, C" for the others */
			puts0(buf, size, &n, what == CLI_DIALECT_NAMES && d == MEV_DIALECT_END - 1 ? " or " : ", ");
		puts0(buf, size, &n, what == CLI_DIALECT_PROJECTS ? in->display : in->name);
		if (what == CLI_DIALECT_TAGS) {
			puts0(buf, size, &n, " ");
			puts0(buf, size, &n, in->tags);
		}
	}
	return buf;
}

/* The generated words of help texts, and the lists they stand for. */
static const struct {
	const char *word;
	cli_dialect_list what;
} words[] = {
	{ "%DIALECTS%", CLI_DIALECT_NAMES },
	{ "%DIALECT_PROJECTS%", CLI_DIALECT_PROJECTS },
	{ "%DIALECT_TAGS%", CLI_DIALECT_TAGS },
};

/* The index in words[] of the word at p; -1 when there is none. */
static int word_at(const char *p)
{
	for (size_t i = 0; *p == '%' && i < sizeof words / sizeof *words; i++)
		if (strncmp(p, words[i].word, strlen(words[i].word)) == 0)
			return (int)i;
	return -1;
}

int cli_help_expand(char *buf, size_t size, const char *text)
{
	size_t n = 0;
	int found = 0;

	buf[0] = '\0';
	for (const char *p = text; *p;) {
		int w = word_at(p);
		if (w >= 0) {
			char list[2048];
			puts0(buf, size, &n, cli_dialect_words(list, sizeof list, words[w].what));
			p += strlen(words[w].word);
			found = 1;
		} else {
			put(buf, size, &n, p++, 1);
		}
	}
	return found;
}

