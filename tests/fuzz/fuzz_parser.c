/*
 * libFuzzer target: the MAINTAINERS parser and the matcher, with the
 * indexed matcher checked against the brute-force (PCRE2-only) reference.
 *
 * Input layout:
 *   byte 0      rule flags, low bits: 1 any_type, 2 drop_comments, 4 utf8,
 *               8 braces (the dialect is Linux otherwise); 0x10: also match
 *               the derived paths as directories.  Seed files use a
 *               printable byte: '0'..'?' give the four flags plus
 *               directories ('6' = drop_comments + utf8, the Linux
 *               defaults), 'F' is '6' without directories.  With 0x80 set
 *               the four flags are replaced by the defaults of a dialect
 *               with a script of its own: bits 0x60 choose it (0 OP-TEE,
 *               1 edk2, 2 Zephyr, 3 OP-TEE); 0x10 still adds directories.
 *   bytes 1..   up to three MAINTAINERS files separated by "\n%%\n",
 *               optionally followed by "\n@@\n" and paths to match, one a
 *               line (matched with a fixed set and with paths made from
 *               the patterns)
 *
 * Every allocation of this file belongs to LLVMFuzzerTestOneInput() and is
 * released at its single `done:` label, so a leak report always points
 * into the library.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memmem */
#endif
#include "maintevo/error.h"
#include "maintevo/maintainers.h"
#include "maintevo/match.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum {
	MAX_FILES = 3,
	MAX_DERIVED_FIELDS = 48, /* pattern fields that each give a few paths */
	MATCH_BUDGET = 200000    /* paths x patterns per input, to keep it fast */
};

static const char SEP[] = "\n%%\n";
static const char PATHS_SEP[] = "\n@@\n";
enum { MAX_INPUT_PATHS = 64, MAX_REPEAT = 64 };

/* Paths every input is matched against: ASCII, ISO-8859-1 and UTF-8
 * bytes, newlines, CR, spaces, deep and top-level files, the root. */
static const struct {
	const char *s;
	size_t len;
	int is_dir;
} fixed_paths[] = {
#define P(str, dir) { str, sizeof str - 1, dir }
	P("", 0),
	P("", 1),
	P("MAINTAINERS", 0),
	P("README", 0),
	P("Makefile", 0),
	P("a", 0),
	P("a.c", 0),
	P("x", 1),
	P("drivers", 1),
	P("drivers/net/ethernet/intel/e1000/e1000_main.c", 0),
	P("drivers/net/foo.c", 0),
	P("drivers/net", 1),
	P("include/linux/list.h", 0),
	P("include/uapi/linux/if_ether.h", 0),
	P("arch/x86/kvm/mmu/mmu.c", 0),
	P("arch/arm64/boot/dts/vendor/board.dts", 0),
	P("Documentation/ABI/testing/sysfs-bus-pci", 0),
	P("Documentation/devicetree/bindings/net/foo.yaml", 0),
	P("tools/testing/selftests/bpf/progs/test_a.c", 0),
	P("net/ipv4/tcp_input.c", 0),
	P("fs/ext4/inode.c", 0),
	P("xen/common/sched/core.c", 0),
	P("board/vendor/MAINTAINERS", 0),
	P("a/b/c/d/e/f/g.h", 0),
	P("a/b", 0),
	P("a/b", 1),
	P("A/B/C.TXT", 0),
	P("dir with space/file name.c", 0),
	P("foo\r", 0),
	P("foo\r/bar", 0),
	P("line\nbreak.c", 0),
	P("a/\nb/c", 0),
	P("caf\xe9/na\xefve.c", 0),           /* ISO-8859-1 */
	P("caf\xc3\xa9/na\xc3\xafve.c", 0),   /* UTF-8 */
	P("\xe2\x80\xa8/\xc2\x85.c", 0),      /* U+2028, U+0085 */
	P("\xff\xfe/\x80", 0),
	P("{a,b}/x.c", 0),
	P("(a|b)/x.c", 0),
	P("a.b/c*d?e[f]g", 0),
	P("-_+=@#~!$%^&()'\"`;,<>|\\", 0),
	P("0123456789/ABCDEFGHIJKLMNOPQRSTUVWXYZ/abcdefghijklmnopqrstuvwxyz", 0),
	P("\t\x01\x1f\x7f", 0),
	P("..", 0),
	P("./a", 0),
	P("/abs/path", 0),
	P("//", 0),
#undef P
};

typedef struct {
	char *s;
	size_t len;
	int is_dir;
} path;

typedef struct {
	path *v;
	size_t n, cap;
} path_list;

/* Take ownership of s (freed here on failure). */
static int add_path(path_list *l, char *s, size_t len, int is_dir)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		path *v = realloc(l->v, cap * sizeof *v);
		if (!v) {
			free(s);
			return -1;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n].s = s;
	l->v[l->n].len = len;
	l->v[l->n].is_dir = is_dir;
	l->n++;
	return 0;
}

static int add_copy(path_list *l, const char *s, size_t len, int is_dir)
{
	char *c = malloc(len + 1);
	if (!c)
		return -1;
	memcpy(c, s, len);
	c[len] = '\0';
	return add_path(l, c, len, is_dir);
}

/*
 * A path a pattern probably matches: glob characters and regex syntax are
 * replaced by plain bytes, escapes by the escaped byte, a {n,m} quantifier
 * by n copies of the byte before it, white space dropped for N: (/x).
 * `tail` is appended.
 */
static int add_literalized(path_list *l, const char *re, size_t len, int extended,
			   const char *tail, int is_dir)
{
	size_t tl = strlen(tail), n = 0, braces = 0;
	char *out;
	for (size_t i = 0; i < len; i++)
		braces += re[i] == '{';
	out = malloc(len + braces * MAX_REPEAT + tl + 1);
	if (!out)
		return -1;
	for (size_t i = 0; i < len; i++) {
		char c = re[i];
		if (c == '{' && n && i + 1 < len && re[i + 1] >= '0' && re[i + 1] <= '9') {
			unsigned rep = 0;
			while (i + 1 < len && re[i + 1] >= '0' && re[i + 1] <= '9') {
				if (rep < MAX_REPEAT)
					rep = rep * 10 + (unsigned)(re[i + 1] - '0');
				i++;
			}
			if (rep > MAX_REPEAT)
				rep = MAX_REPEAT;
			/* the byte before is there once already */
			for (unsigned k = 1; k < rep; k++, n++)
				out[n] = out[n - 1];
			if (rep == 0)
				n--;
			while (i + 1 < len && re[i + 1] != '}')
				i++;
			i++;
		} else if (c == '\\' && i + 1 < len && (re[i + 1] == 'E' || re[i + 1] == 'Q')) {
			i++;
		} else if (c == '\\' && i + 1 < len) {
			out[n++] = re[++i];
		} else if (c == '*' || c == '+') {
			out[n++] = 'x';
		} else if (c == '?' || c == '.') {
			out[n++] = c == '.' && i + 1 < len && re[i + 1] == '*' ? 'y' : 'q';
		} else if (strchr("^$()[]{}|", c)) {
			continue;
		} else if (extended && (c == ' ' || c == '\t')) {
			continue;
		} else {
			out[n++] = c;
		}
	}
	memcpy(out + n, tail, tl);
	n += tl;
	out[n] = '\0';
	return add_path(l, out, n, is_dir);
}

static void print_bytes(const char *what, const char *s, size_t len)
{
	fprintf(stderr, "%s '", what);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7f && c != '\\' && c != '\'')
			fputc(c, stderr);
		else
			fprintf(stderr, "\\x%02x", c);
	}
	fprintf(stderr, "'\n");
}

static void print_ids(const char *what, const mev_maint *mt, const uint32_t *ids, size_t n)
{
	fprintf(stderr, "%s (%zu):", what, n);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, " %u[%s]", ids[i], mev_maint_sections(mt)[ids[i]].title);
	fprintf(stderr, "\n");
}

/* Walk everything the parser hands out, so ASan sees every byte of it. */
static size_t walk(const mev_maint *mt)
{
	size_t sum = 0;
	char buf[512];
	const mev_section *secs = mev_maint_sections(mt);
	const mev_field *fields = mev_maint_fields(mt);
	const mev_diag *diags = mev_maint_diags(mt);
	size_t nsec = mev_maint_section_count(mt), nf = mev_maint_field_count(mt);

	for (uint32_t i = 0; i < mev_maint_file_count(mt); i++)
		sum += strlen(mev_maint_file(mt, i));
	for (size_t i = 0; i < nsec; i++) {
		const mev_section *s = &secs[i];
		uint32_t np = 0;
		sum += strlen(s->title) + strlen(s->raw_title) + strlen(s->status_text);
		sum += strlen(mev_status_name(s->status));
		if ((uint64_t)s->field_begin + s->field_count > nf)
			abort();
		for (uint32_t k = 0; k < s->field_count; k++) {
			char t = fields[s->field_begin + k].type;
			np += t == 'F' || t == 'X' || t == 'N';
		}
		if (np != s->n_patterns)
			abort();
	}
	for (size_t i = 0; i < nf; i++) {
		const mev_field *f = &fields[i];
		sum += strlen(f->value) + (f->regex ? strlen(f->regex) : 0);
		sum += strlen(mev_maint_file(mt, f->file)) + f->line;
	}
	for (size_t i = 0; i < mev_maint_diag_count(mt); i++) {
		mev_maint_diag_format(buf, sizeof buf, mt, &diags[i]);
		sum += strlen(buf);
		/* a tiny buffer must still come back NUL-terminated */
		mev_maint_diag_format(buf, 8, mt, &diags[i]);
		if (strnlen(buf, 8) == 8)
			abort();
	}
	return sum;
}

/* The input files (after the flag byte), each copied into a buffer of its
 * exact size so that ASan catches a read past its end; *pstart..*pend are
 * the paths after "\n@@\n" (NULL when none).  -1 when out of memory. */
static int split_files(mev_maint_input *in, char **copies, size_t *nfiles, const uint8_t *data,
		       size_t size, const uint8_t **pstart, const uint8_t **pend)
{
	static const char *const names[MAX_FILES] = { "MAINTAINERS", "MAINTAINERS.d/b", "board/x/MAINTAINERS" };
	const uint8_t *p = data, *end = data + size;
	const uint8_t *ps = memmem(data, size, PATHS_SEP, sizeof PATHS_SEP - 1);
	if (ps) {
		*pstart = ps + sizeof PATHS_SEP - 1;
		*pend = end;
		end = ps;
	}
	while (*nfiles < MAX_FILES) {
		size_t k = *nfiles;
		const uint8_t *q = k + 1 < MAX_FILES
			? memmem(p, (size_t)(end - p), SEP, sizeof SEP - 1) : NULL;
		size_t len = q ? (size_t)(q - p) : (size_t)(end - p);
		copies[k] = malloc(len ? len : 1);
		if (!copies[k])
			return -1;
		memcpy(copies[k], p, len);
		in[k].path = names[k];
		in[k].data = copies[k];
		in[k].len = len;
		(*nfiles)++;
		if (!q)
			break;
		p = q + sizeof SEP - 1;
	}
	return 0;
}

/* Paths made from the F:/X:/N: fields (the first MAX_DERIVED_FIELDS of
 * them); *npats gets the number of such fields.  -1 when out of memory. */
static int add_derived(path_list *paths, size_t *npats, const mev_maint *mt, int dir_too)
{
	const mev_field *fields = mev_maint_fields(mt);
	size_t nf = mev_maint_field_count(mt), used = 0;
	for (size_t i = 0; i < nf; i++) {
		const mev_field *f = &fields[i];
		/* (an N: line the script ignores has no regex: OP-TEE's, QEMU's) */
		if ((f->type != 'F' && f->type != 'X' && f->type != 'N') || !f->regex)
			continue;
		(*npats)++;
		if (used >= MAX_DERIVED_FIELDS)
			continue;
		used++;
		const char *re = f->regex, *bar;
		size_t rl = strlen(re);
		int x = f->type == 'N';
		if (add_copy(paths, f->value, strlen(f->value), 0) ||
		    add_literalized(paths, re, rl, x, "", 0) ||
		    add_literalized(paths, re, rl, x, "/sub/x.c", 0) ||
		    (dir_too && add_literalized(paths, re, rl, x, "", 1)))
			return -1;
		/* each side of an alternation on its own (a few of them) */
		for (int k = 0; k < 4 && (bar = memchr(re, '|', rl)); k++) {
			if (add_literalized(paths, re, (size_t)(bar - re), x, "", 0))
				return -1;
			rl -= (size_t)(bar + 1 - re);
			re = bar + 1;
			if (!memchr(re, '|', rl) && add_literalized(paths, re, rl, x, "", 0))
				return -1;
		}
	}
	return 0;
}

/*
 * The paths to match: the input's own (*ninput of them, first), the fixed
 * set, ones made from the patterns (*npats: their number), and the last
 * line of each file as is.  -1 when out of memory.
 */
static int collect_paths(path_list *paths, size_t *ninput, size_t *npats, const mev_maint *mt,
			 const mev_maint_input *in, size_t nfiles, const uint8_t *pstart,
			 const uint8_t *pend, int dir_too)
{
	for (size_t k = 0; pstart && pstart < pend && k < MAX_INPUT_PATHS; k++) {
		const uint8_t *nl = memchr(pstart, '\n', (size_t)(pend - pstart));
		const uint8_t *e = nl ? nl : pend;
		if (add_copy(paths, (const char *)pstart, (size_t)(e - pstart), 0) ||
		    (dir_too && add_copy(paths, (const char *)pstart, (size_t)(e - pstart), 1)))
			return -1;
		pstart = nl ? nl + 1 : pend;
	}
	*ninput = paths->n;
	for (size_t i = 0; i < sizeof fixed_paths / sizeof *fixed_paths; i++)
		if (add_copy(paths, fixed_paths[i].s, fixed_paths[i].len, fixed_paths[i].is_dir))
			return -1;
	if (add_derived(paths, npats, mt, dir_too))
		return -1;
	for (size_t i = 0; i < nfiles; i++) {
		const char *s = in[i].data, *e = s + in[i].len, *b = e;
		while (b > s && b[-1] != '\n')
			b--;
		if (add_copy(paths, b, (size_t)(e - b), 0))
			return -1;
	}
	return 0;
}

/*
 * Match `limit` of the paths with both matchers and abort on a difference.
 * Fewer paths for inputs with many patterns (the brute-force matcher tries
 * every pattern on every path), but all of the input's own.  `saved` holds
 * a section index per section.  -1 when out of memory.
 */
static int compare_matchers(mev_matcher *fast, mev_matcher *brute, const mev_maint *mt,
			    const mev_rules *r, const path_list *paths, size_t ninput, size_t limit,
			    uint32_t *saved)
{
	for (size_t i = 0; i < limit; i++) {
		/* spread the rest of the budget over the fixed and derived paths */
		const path *pt = &paths->v[limit == paths->n || i < ninput ? i
			: ninput + (i - ninput) * (paths->n - ninput) / (limit - ninput)];
		const uint32_t *ids;
		size_t n_fast, n_brute;
		uint64_t lf = mev_matcher_limit_hits(fast), lb = mev_matcher_limit_hits(brute);
		if (mev_matcher_match(&ids, &n_fast, fast, pt->s, pt->len, pt->is_dir))
			return -1;
		if (n_fast > mev_maint_section_count(mt))
			abort();
		if (n_fast)
			memcpy(saved, ids, n_fast * sizeof *ids);
		if (mev_matcher_match(&ids, &n_brute, brute, pt->s, pt->len, pt->is_dir))
			return -1;
		/* A pattern that ran out of its matching budget is disabled in
		 * that matcher only (a glob program and its regex spend
		 * differently): the two may differ from then on, so stop. */
		if (mev_matcher_limit_hits(fast) != lf || mev_matcher_limit_hits(brute) != lb)
			break;
		if (n_fast != n_brute || (n_fast && memcmp(saved, ids, n_fast * sizeof *ids) != 0)) {
			fprintf(stderr, "index/brute mismatch (any_type=%d drop_comments=%d utf8=%d braces=%d)\n",
				r->any_type, r->drop_comments, r->utf8, r->braces);
			print_bytes(pt->is_dir ? "directory" : "path", pt->s, pt->len);
			print_ids("indexed", mt, saved, n_fast);
			print_ids("brute", mt, ids, n_brute);
			abort();
		}
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	mev_maint_input in[MAX_FILES];
	char *copies[MAX_FILES] = { 0 };
	size_t nfiles = 0;
	mev_rules r;
	mev_maint *mt = NULL;
	mev_matcher *fast = NULL, *brute = NULL;
	path_list paths = { 0 };
	uint32_t *saved = NULL;
	size_t npats = 0, limit, ninput = 0;
	int dir_too, rc;
	const uint8_t *pstart = NULL, *pend = NULL;
	volatile size_t sink;

	if (size < 1)
		return 0;
	mev_rules_default(&r, MEV_DIALECT_LINUX);
	r.any_type = (data[0] & 1) != 0;
	r.drop_comments = (data[0] & 2) != 0;
	r.utf8 = (data[0] & 4) != 0;
	r.braces = (data[0] & 8) != 0;
	if (data[0] & 0x80) {
		static const mev_dialect own[4] = { MEV_DIALECT_OPTEE, MEV_DIALECT_EDK2,
						    MEV_DIALECT_ZEPHYR, MEV_DIALECT_OPTEE };
		mev_rules_default(&r, own[(data[0] >> 5) & 3]);
	}
	dir_too = (data[0] & 0x10) != 0;
	if (split_files(in, copies, &nfiles, data + 1, size - 1, &pstart, &pend))
		goto done;

	rc = mev_maint_parse(&mt, &r, in, nfiles, NULL);
	if (rc) {
		if (rc != MEV_ENOMEM || mt)
			abort();
		goto done;
	}
	sink = walk(mt);

	if ((rc = mev_matcher_new(&fast, mt, 0)) || (rc = mev_matcher_new(&brute, mt, MEV_MATCH_BRUTE))) {
		if (rc != MEV_ENOMEM)
			abort();
		goto done;
	}
	/* the matchers may add diagnostics (invalid regexes): walk again */
	sink += walk(mt);

	if (collect_paths(&paths, &ninput, &npats, mt, in, nfiles, pstart, pend, dir_too))
		goto done;
	limit = npats ? MATCH_BUDGET / npats : paths.n;
	if (limit < ninput + 8)
		limit = ninput + 8;
	if (limit > paths.n)
		limit = paths.n;
	saved = malloc((mev_maint_section_count(mt) + 1) * sizeof *saved);
	if (!saved || compare_matchers(fast, brute, mt, &r, &paths, ninput, limit, saved))
		goto done;
	sink += walk(mt);
	(void)sink;

done:
	free(saved);
	for (size_t i = 0; i < paths.n; i++)
		free(paths.v[i].s);
	free(paths.v);
	mev_matcher_free(brute);
	mev_matcher_free(fast);
	mev_maint_free(mt);
	for (size_t i = 0; i < nfiles; i++)
		free(copies[i]);
	mev_error_clear();
	return 0;
}
