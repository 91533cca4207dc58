/*
 * The events of a MAINTAINERS.yml as get_maintainer.py's yaml.load() would
 * build its values from them (src/dialect/zephyr_yaml.c), for the reader of
 * zephyr.c.  Private to src/dialect/.
 */
#ifndef MEV_DIALECT_ZEPHYR_YAML_H
#define MEV_DIALECT_ZEPHYR_YAML_H

#include "dialect_shared.h"

#include <yaml.h>

/* Areas are three levels deep (areas, an area, a list); a node nested
 * deeper than this stops the reading (libyaml's time grows with the square
 * of the nesting). */
enum { MEV__YAML_MAX_DEPTH = 8 };

/* What aliases may add to the file's values in all: each event replayed
 * costs 32 bytes and its text. */
#define MEV__YAML_ALIAS_BUDGET ((size_t)32 << 20)

typedef struct mev__yaml_state mev__yaml_state;

typedef struct {
	yaml_event_t ev;      /* the current event */
	int string;           /* a scalar's tag: 1 a string (!!str), -1 not one (!!int, ...),
				 0 none: as its plain text says */
	int merge;            /* a scalar tagged !!merge */
	int failed;           /* the script cannot load the file: reported, nothing more read */
	int oom;              /* out of memory: failed too */
	mev__dialect_sink *sk;
	mev__yaml_state *st;
} mev__yaml_src;

/* Start reading data[0..len).  Errors: MEV_ENOMEM. */
int mev__yaml_open(mev__yaml_src *y, mev__dialect_sink *sk, const char *data, size_t len);
void mev__yaml_close(mev__yaml_src *y);

/*
 * The next event into y->ev: 0, or 1 when the file cannot be read further
 * (a YAML error, a node nested too deep, a tag the script's loader does not
 * construct, an undefined alias, aliases over their budget: each reported
 * once, with its line, and y->failed set).  An alias event comes as it is:
 * mev__yaml_deref() replaces it with the node it names.
 */
int mev__yaml_next(mev__yaml_src *y);

/* When y->ev is an alias: the first event of the node it names, whose
 * other events the next calls give.  0, or 1 as mev__yaml_next(). */
int mev__yaml_deref(mev__yaml_src *y);

/* After the document's node: 0, or 1 (reported) when a second document
 * follows, which yaml.load() refuses. */
int mev__yaml_single(mev__yaml_src *y);

#endif
