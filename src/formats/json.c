/* A JSON document written as it goes (json.h): separators here, quoting in table.c. */
#include "maintevo/json.h"
#include "maintevo/table.h"

#include <math.h>
#include <string.h>

void mev_json_init(mev_json *j, FILE *out, int script)
{
	memset(j, 0, sizeof *j);
	j->out = out;
	j->script = script;
}

/* Before every value, key and opening bracket: the comma that separates it
 * from the one before, unless a key or a line break stands between. */
static void next(mev_json *j)
{
	uint64_t bit = (uint64_t)1 << (j->depth & 63);
	if (!j->no_comma && (j->started & bit))
		putc(',', j->out);
	j->no_comma = 0;
	j->started |= bit;
}

static void begin(mev_json *j, char bracket, char close)
{
	next(j);
	putc(bracket, j->out);
	if (j->depth + 1 < sizeof j->close) {
		j->close[++j->depth] = close;
		j->started &= ~((uint64_t)1 << j->depth);
	}
}

void mev_json_object(mev_json *j)
{
	begin(j, '{', '}');
}

void mev_json_array(mev_json *j)
{
	begin(j, '[', ']');
}

void mev_json_end(mev_json *j)
{
	if (!j->depth)
		return;
	putc(j->close[j->depth--], j->out);
	j->no_comma = 0;
}

void mev_json_key(mev_json *j, const char *key)
{
	mev_json_str(j, key);
	putc(':', j->out);
	j->no_comma = 1;
}

void mev_json_strn(mev_json *j, const char *s, size_t len)
{
	next(j);
	if (j->script)
		mev_table_json_script_str(j->out, s, len);
	else
		mev_table_json_str(j->out, s, len);
}

void mev_json_str(mev_json *j, const char *s)
{
	if (!s)
		mev_json_null(j);
	else
		mev_json_strn(j, s, strlen(s));
}

void mev_json_uint(mev_json *j, uint64_t v)
{
	next(j);
	fprintf(j->out, "%llu", (unsigned long long)v);
}

void mev_json_int(mev_json *j, int64_t v)
{
	next(j);
	fprintf(j->out, "%lld", (long long)v);
}

/* A number in the printf form `form` ("%.*f" or "%.*g"); null when JSON cannot hold it. */
static void real(mev_json *j, const char *form, int precision, double v)
{
	if (!isfinite(v)) {
		mev_json_null(j);
		return;
	}
	next(j);
	fprintf(j->out, form, precision, v);
}

void mev_json_fixed(mev_json *j, double v, int decimals)
{
	real(j, "%.*f", decimals, v);
}

void mev_json_general(mev_json *j, double v, int digits)
{
	real(j, "%.*g", digits, v);
}

void mev_json_bool(mev_json *j, int v)
{
	next(j);
	fputs(v ? "true" : "false", j->out);
}

void mev_json_null(mev_json *j)
{
	next(j);
	fputs("null", j->out);
}

void mev_json_newline(mev_json *j)
{
	next(j);
	putc('\n', j->out);
	j->no_comma = 1;
}
