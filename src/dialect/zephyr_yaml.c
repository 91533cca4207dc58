/*
 * MAINTAINERS.yml's events as get_maintainer.py's yaml.load(f,
 * Loader=CLoader) takes them (docs/matching.md, Zephyr): libyaml's parser,
 * plus what PyYAML's composer and constructor add over it.  An alias is
 * the node its anchor names (`files: *common`), replayed from a log of the
 * anchored nodes' events, within a budget (PyYAML shares the node; a copy
 * per use could be a billion laughs).  What the script's load() refuses
 * stops the reading: a second document, a tag it has no constructor for,
 * an undefined or recursive alias.  A node nested deeper than any area
 * stops it too, before libyaml's quadratic time on deep nesting.
 */
#include "zephyr_yaml.h"
#include "maintevo/error.h"
#include "util/buf.h"
#include "util/strmap.h"
#include "util/text.h"

#include <stdio.h>
#include <string.h>

/* One event of an anchored node, kept for its aliases. */
typedef struct {
	yaml_event_type_t type;
	int8_t string;
	uint8_t merge;
	uint8_t style;
	uint32_t line, col;    /* 0-based, as libyaml's marks */
	char *value;           /* a scalar's text */
	size_t len;
	uint32_t start, end;   /* an alias: its node's events in the log */
} logged;

typedef struct {
	uint32_t start, end;
} span;

typedef struct {
	uint32_t start;        /* its first event in the log */
	uint32_t anchor;       /* its index in anchors */
	int depth;             /* the nesting its end event closes */
} open_node;

struct mev__yaml_state {
	yaml_parser_t p;
	int owned;                   /* ev came from the parser: delete it */
	int depth;                   /* of the parser's events */
	MEV_VEC(logged) log;
	MEV_VEC(span) anchors;       /* by anchor; end 0: still open (a recursive alias) */
	mev_strmap names;            /* anchor name -> its latest index in anchors */
	MEV_VEC(open_node) open;
	MEV_VEC(span) replay;        /* replays under way, innermost last */
	span alias;                  /* the node of ev when it is an alias */
	size_t spent;                /* of MEV__YAML_ALIAS_BUDGET */
};

/* Stop: the script cannot load the file.  Reported once, at 0-based line0. */
static int report(mev__yaml_src *y, size_t line0, const char *msg)
{
	if (y->failed)
		return 1;
	y->failed = 1;
	y->sk->diag(y->sk, (uint32_t)line0 + 1, msg);
	return 1;
}

/* The same with fmt's one "%s", arg (from the file) shortened when long. */
static int fail(mev__yaml_src *y, size_t line0, const char *fmt, const char *arg)
{
	char msg[512], q[160];
	snprintf(msg, sizeof msg, fmt, mev__text_middle(q, sizeof q, arg, strlen(arg)));
	return report(y, line0, msg);
}

static int oom(mev__yaml_src *y)
{
	y->oom = 1;
	y->failed = 1;
	return 1;
}

int mev__yaml_open(mev__yaml_src *y, mev__dialect_sink *sk, const char *data, size_t len)
{
	memset(y, 0, sizeof *y);
	y->sk = sk;
	if (!(y->st = calloc(1, sizeof *y->st)))
		return MEV_ENOMEM;
	y->st->names = (mev_strmap)MEV_STRMAP_INIT;
	if (!yaml_parser_initialize(&y->st->p)) {
		free(y->st);
		y->st = NULL;
		return MEV_ENOMEM;
	}
	yaml_parser_set_input_string(&y->st->p, (const unsigned char *)data, len);
	return 0;
}

void mev__yaml_close(mev__yaml_src *y)
{
	mev__yaml_state *st = y->st;
	if (!st)
		return;
	if (st->owned)
		yaml_event_delete(&y->ev);
	yaml_parser_delete(&st->p);
	for (size_t i = 0; i < st->log.n; i++)
		free(st->log.v[i].value);
	MEV_VEC_FREE(&st->log);
	MEV_VEC_FREE(&st->anchors);
	MEV_VEC_FREE(&st->open);
	MEV_VEC_FREE(&st->replay);
	mev__strmap_free(&st->names);
	free(st);
	y->st = NULL;
}

/* The tags PyYAML's Constructor builds a str, or another scalar, from. */
static int scalar_tag(const char *t)
{
	static const char *const str[] = { "str", "python/str", "python/unicode" };
	static const char *const other[] = { "null", "bool", "int", "float", "binary", "timestamp",
					     "python/none", "python/bool", "python/int", "python/long",
					     "python/float", "python/complex", "python/bytes" };
	const char *core = "tag:yaml.org,2002:";
	if (strncmp(t, core, strlen(core)) != 0)
		return 0;
	t += strlen(core);
	for (size_t i = 0; i < sizeof str / sizeof *str; i++)
		if (strcmp(t, str[i]) == 0)
			return 1;
	for (size_t i = 0; i < sizeof other / sizeof *other; i++)
		if (strcmp(t, other[i]) == 0)
			return -1;
	return 0;
}

/* The parser's event ev: its tag as the script's loader takes it.  Untagged
 * and '!' are as the text says; !!str and its kin give a string; the other
 * scalar tags a value that is not one; !!map and !!seq (and their python/
 * forms) a dict and a list.  Any other tag the loader has no constructor
 * for (a ConstructorError), or builds something no area is made of (sets,
 * pairs, Python objects, which maintevo does not make). */
static int check_tag(mev__yaml_src *y)
{
	const yaml_event_t *ev = &y->ev;
	const char *tag = NULL, *want = NULL, *want2 = NULL;
	y->string = y->merge = 0;
	if (ev->type == YAML_SCALAR_EVENT)
		tag = (const char *)ev->data.scalar.tag;
	else if (ev->type == YAML_SEQUENCE_START_EVENT) {
		tag = (const char *)ev->data.sequence_start.tag;
		want = "tag:yaml.org,2002:seq", want2 = "tag:yaml.org,2002:python/list";
	} else if (ev->type == YAML_MAPPING_START_EVENT) {
		tag = (const char *)ev->data.mapping_start.tag;
		want = "tag:yaml.org,2002:map", want2 = "tag:yaml.org,2002:python/dict";
	}
	if (!tag || strcmp(tag, "!") == 0)
		return 0;
	if (ev->type == YAML_SCALAR_EVENT && (y->string = scalar_tag(tag)) != 0)
		return 0;
	if (ev->type == YAML_SCALAR_EVENT && strcmp(tag, "tag:yaml.org,2002:merge") == 0)
		return !(y->merge = 1);
	if (want && (strcmp(tag, want) == 0 || strcmp(tag, want2) == 0))
		return 0;
	return fail(y, ev->start_mark.line, "tag '%s': get_maintainer.py's YAML loader fails on it or "
		    "builds no string, list or dict of an area from it; no area of this file is read",
		    tag);
}

/* A copy of the parser's event ev in the log.  0, or 1 (failed). */
static int log_event(mev__yaml_src *y)
{
	mev__yaml_state *st = y->st;
	const yaml_event_t *ev = &y->ev;
	logged e = { ev->type, (int8_t)y->string, (uint8_t)y->merge, 0, (uint32_t)ev->start_mark.line,
		     (uint32_t)ev->start_mark.column, NULL, 0, 0, 0 };
	if (ev->type == YAML_SCALAR_EVENT) {
		e.style = (uint8_t)ev->data.scalar.style;
		e.len = ev->data.scalar.length;
		if (!(e.value = malloc(e.len + 1)))
			return oom(y);
		memcpy(e.value, ev->data.scalar.value, e.len + 1);
	} else if (ev->type == YAML_ALIAS_EVENT) {
		e.start = st->alias.start;
		e.end = st->alias.end;
	}
	if (MEV_VEC_PUSH(&st->log, e)) {
		free(e.value);
		return oom(y);
	}
	return 0;
}

/* The node an alias of the parser names, into st->alias.  0, or 1. */
static int resolve(mev__yaml_src *y)
{
	mev__yaml_state *st = y->st;
	const char *name = (const char *)y->ev.data.alias.anchor;
	int64_t k = mev__strmap_get(&st->names, name, strlen(name));
	if (k < 0)
		return fail(y, y->ev.start_mark.line, "alias '*%s' names no anchor before it: "
			    "get_maintainer.py's YAML loader fails (found undefined alias); no area of "
			    "this file is read", name);
	if (!st->anchors.v[k].end)
		return fail(y, y->ev.start_mark.line, "alias '*%s' inside the node it names: "
			    "get_maintainer.py's YAML loader fails (found recursive anchor); no area "
			    "of this file is read", name);
	st->alias = st->anchors.v[k];
	return 0;
}

/* A new anchor at the parser's event (its first event logged at `at`). */
static int anchor_open(mev__yaml_src *y, const char *name, uint32_t at)
{
	mev__yaml_state *st = y->st;
	span s = { at, 0 };
	open_node o = { at, (uint32_t)st->anchors.n, st->depth };
	if (MEV_VEC_PUSH(&st->anchors, s) ||
	    mev__strmap_put(&st->names, name, strlen(name), o.anchor))
		return oom(y);
	if (y->ev.type == YAML_SCALAR_EVENT) {
		st->anchors.v[o.anchor].end = at + 1;
		return 0;
	}
	return MEV_VEC_PUSH(&st->open, o) ? oom(y) : 0;
}

static const char *anchor_of(const yaml_event_t *ev)
{
	if (ev->type == YAML_SCALAR_EVENT)
		return (const char *)ev->data.scalar.anchor;
	if (ev->type == YAML_SEQUENCE_START_EVENT)
		return (const char *)ev->data.sequence_start.anchor;
	if (ev->type == YAML_MAPPING_START_EVENT)
		return (const char *)ev->data.mapping_start.anchor;
	return NULL;
}

/* The parser's event: nesting, tag, alias and anchors.  0, or 1. */
static int took_parsed(mev__yaml_src *y)
{
	mev__yaml_state *st = y->st;
	const yaml_event_t *ev = &y->ev;
	const char *anchor = anchor_of(ev);
	int start = ev->type == YAML_SEQUENCE_START_EVENT || ev->type == YAML_MAPPING_START_EVENT;
	int end = ev->type == YAML_SEQUENCE_END_EVENT || ev->type == YAML_MAPPING_END_EVENT;
	if (start && ++st->depth > MEV__YAML_MAX_DEPTH) {
		char msg[256];
		snprintf(msg, sizeof msg, "a list or mapping nested deeper than %d levels (an area "
			 "has 3; get_maintainer.py's check refuses such a value but in a 'description'): "
			 "maintevo reads no further, and no area of this file is read",
			 MEV__YAML_MAX_DEPTH);
		return report(y, ev->start_mark.line, msg);
	}
	if (check_tag(y) || (ev->type == YAML_ALIAS_EVENT && resolve(y)))
		return 1;
	if (anchor && anchor_open(y, anchor, (uint32_t)st->log.n))
		return 1;
	if ((st->open.n || anchor) && log_event(y))
		return 1;
	if (end) {
		if (st->open.n && st->open.v[st->open.n - 1].depth == st->depth) {
			open_node *o = &st->open.v[--st->open.n];
			st->anchors.v[o->anchor].end = (uint32_t)st->log.n;
		}
		st->depth--;
	}
	return 0;
}

/* The next event of the innermost replay into y->ev; 0 when none is left. */
static int replayed(mev__yaml_src *y)
{
	mev__yaml_state *st = y->st;
	while (st->replay.n && st->replay.v[st->replay.n - 1].start == st->replay.v[st->replay.n - 1].end)
		st->replay.n--;
	if (!st->replay.n)
		return 0;
	{
		const logged *e = &st->log.v[st->replay.v[st->replay.n - 1].start++];
		memset(&y->ev, 0, sizeof y->ev);
		y->ev.type = e->type;
		y->ev.start_mark.line = e->line;
		y->ev.start_mark.column = e->col;
		y->ev.data.scalar.value = (yaml_char_t *)e->value;
		y->ev.data.scalar.length = e->len;
		y->ev.data.scalar.style = (yaml_scalar_style_t)e->style;
		y->string = e->string;
		y->merge = e->merge;
		st->alias.start = e->start;
		st->alias.end = e->end;
	}
	return 1;
}

int mev__yaml_next(mev__yaml_src *y)
{
	mev__yaml_state *st = y->st;
	if (st->owned)
		yaml_event_delete(&y->ev);
	st->owned = 0;
	memset(&y->ev, 0, sizeof y->ev);
	if (y->failed)
		return 1;
	if (replayed(y))
		return 0;
	if (!yaml_parser_parse(&st->p, &y->ev)) {
		const yaml_mark_t *mk = st->p.problem ? &st->p.problem_mark : &st->p.context_mark;
		char msg[512];
		snprintf(msg, sizeof msg, "YAML error at line %lu, column %lu: %s%s%s: get_maintainer.py "
			 "stops here; no area of this file is read",
			 (unsigned long)mk->line + 1, (unsigned long)mk->column + 1,
			 st->p.problem ? st->p.problem : "error", st->p.context ? " " : "",
			 st->p.context ? st->p.context : "");
		memset(&y->ev, 0, sizeof y->ev);
		return report(y, mk->line, msg);
	}
	st->owned = 1;
	return took_parsed(y);
}

int mev__yaml_deref(mev__yaml_src *y)
{
	mev__yaml_state *st = y->st;
	span s = st->alias;
	size_t cost = 0;
	if (y->ev.type != YAML_ALIAS_EVENT)
		return 0;
	for (uint32_t i = s.start; i < s.end; i++)
		cost += 32 + st->log.v[i].len;
	if (cost > MEV__YAML_ALIAS_BUDGET - st->spent)
		return report(y, y->ev.start_mark.line, "aliases expand to more than 32 MiB of values "
			      "here: maintevo stops (the script's loader shares an aliased node, but "
			      "the script then reads it at every use); no area of this file is read");
	st->spent += cost;
	if (MEV_VEC_PUSH(&st->replay, s))
		return oom(y);
	if (st->owned)
		yaml_event_delete(&y->ev);
	st->owned = 0;
	return !replayed(y);
}

int mev__yaml_single(mev__yaml_src *y)
{
	while (!mev__yaml_next(y) && y->ev.type != YAML_STREAM_END_EVENT)
		if (y->ev.type == YAML_DOCUMENT_START_EVENT)
			return report(y, y->ev.start_mark.line, "a second document: get_maintainer.py's "
				      "yaml.load() refuses a file of more than one (expected a single "
				      "document in the stream); no area of this file is read");
	return y->failed;
}
