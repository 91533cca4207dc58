/*
 * What the dialect module shares with the maintainers module above it: the
 * readers of the dialects whose script is not get_maintainer.pl, and their
 * F:/X: conversion.  Internal: not part of the public API.
 */
#ifndef MEV_DIALECT_SHARED_H
#define MEV_DIALECT_SHARED_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include "maintevo/dialect.h"
#include "util/buf.h"

/*
 * Where a dialect's reader puts what it reads, in file order: title lines
 * and field lines, as the kernel script's @typevalue would hold them (a
 * run of fields is one section, titled by the title just before it), and
 * diagnostics.  Every text is copied: the reader's buffers may go.
 */
typedef struct mev__dialect_sink mev__dialect_sink;
struct mev__dialect_sink {
	void *ctx;
	const mev_rules *rules;
	const mev_tree *tree;  /* the release's tree, for checks the script makes (may be NULL) */
	int unreadable;        /* set by the reader: the script cannot read the file at all
				  (a YAML error); nothing of it was handed on */
	/* a line naming the section whose fields follow */
	int (*title)(mev__dialect_sink *s, uint32_t line, const char *text, size_t len);
	/* a field: its letter (files: 'F', excluded: 'X', a regex: 'N', people:
	 * 'M' 'R', lists 'L', status 'S', ...), its value, and for F/X/N the
	 * regex the script matches (NULL: the dialect's regex() of the value) */
	int (*field)(mev__dialect_sink *s, uint32_t line, char type, const char *value, size_t len,
		     const char *regex);
	/* a message about line `line` (0: the whole file) */
	int (*diag)(mev__dialect_sink *s, uint32_t line, const char *message);
};

/* 1 when dialect d reads its files with a reader of its own. */
int mev__dialect_has_reader(mev_dialect d);

/* Read data[0..len) with dialect d's reader.  Errors: MEV_ENOMEM, or what
 * the sink returns. */
int mev__dialect_read(mev_dialect d, mev__dialect_sink *sink, const char *data, size_t len);

/* The regex of an F:/X:/N: value under dialect d's script, into *out
 * (cleared first).  Errors: MEV_ENOMEM. */
int mev__dialect_regex(mev_dialect d, mev_buf *out, char type, const char *value, size_t len);

#endif
