/*
 * Blobs read from the repository's packs directly, for measuring them
 * (mev_repo_measure_blobs), and trees, for diffing a walk's releases.
 * libgit2 1.5 keeps only the innermost base of a delta chain in its
 * delta-base cache, and empties that cache whole once it holds 16 MB:
 * reading a file's versions release after release, as a walk does,
 * inflates each version's whole chain again.  git's readers keep every
 * base they rebuild (core.deltaBaseCacheLimit, 96 MB, the least recently
 * used first out) and take a base out of the cache when they use it; this
 * reader does the same, so that a walk inflates about what `git cat-file
 * --batch` inflates for the same blobs.
 *
 * Only what the reader is sure of is read here: blobs and trees in packs
 * with a version 2 index, of the repository and of its alternates.
 * Anything else (a loose object, an entry that does not parse) is left to
 * libgit2, which reads it or says what is wrong.  Packs are read with
 * pread(), not mapped: a mapped pack stays resident as it is read.
 */
#include "packs_internal.h"

#include <dirent.h>
#include <limits.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

enum { MAX_CHAIN = 10000 };

typedef mev__pack pack;

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* --- opening ------------------------------------------------------------ */

static void pack_close(pack *p)
{
	free(p->starts);
	free(p->by_name);
	free(p->by_place);
	if (p->map)
		munmap(p->map, p->map_len);
	if (p->fd >= 0)
		close(p->fd);
}

/* Sort v[0..n) with the help of tmp[0..n) and count[0..65537): least
 * significant 16 bits first, a pass skipped when all keys agree on its
 * digit (offsets in a pack below 4 GiB take two passes). */
static void radix_sort(uint64_t *v, uint64_t *tmp, size_t *count, size_t n)
{
	for (unsigned shift = 0; shift < 64 && n; shift += 16) {
		memset(count, 0, 65537 * sizeof *count);
		for (size_t i = 0; i < n; i++)
			count[((v[i] >> shift) & 0xffff) + 1]++;
		if (count[((v[0] >> shift) & 0xffff) + 1] == n)
			continue;
		for (size_t d = 1; d <= 65536; d++)
			count[d] += count[d - 1];
		for (size_t i = 0; i < n; i++)
			tmp[count[(v[i] >> shift) & 0xffff]++] = v[i];
		memcpy(v, tmp, n * sizeof *v);
	}
}

static uint64_t offset_at(const pack *p, uint32_t i, int *ok)
{
	uint32_t o = be32(p->off32 + (size_t)i * 4);
	const unsigned char *q;
	if (!(o & 0x80000000u))
		return o;
	if ((o & 0x7fffffffu) >= p->n64) {
		*ok = 0;
		return 0;
	}
	q = p->off64 + (size_t)(o & 0x7fffffffu) * 8;
	return (uint64_t)be32(q) << 32 | be32(q + 4);
}

/* p->starts: the entries' offsets in pack order, so that each entry is
 * read with one pread() of its very bytes.  1, or 0. */
static int sort_starts(pack *p)
{
	int ok = 1;
	uint64_t *tmp = malloc(((size_t)p->n + 1) * sizeof *tmp);
	size_t *count = malloc(65537 * sizeof *count);
	if (tmp && count && (p->starts = malloc(((size_t)p->n + 1) * sizeof *p->starts))) {
		for (uint32_t i = 0; i < p->n; i++)
			p->starts[i] = offset_at(p, i, &ok);
		radix_sort(p->starts, tmp, count, p->n);
	}
	free(tmp);
	free(count);
	return p->starts && ok;
}

enum { BY = 1 << 16 }; /* the buckets of by_name and by_place */

/* p->by_name and p->by_place, for a pack of at least BY objects: each a
 * count per bucket, summed (a pass over the names, read by the lookups
 * anyway, and over starts).  Without them (out of memory), the searches
 * begin with the whole range. */
static void index_buckets(pack *p)
{
	uint32_t *name = NULL, *place = NULL;
	unsigned shift = 0;
	if (p->n < BY || !(name = calloc(BY + 1, sizeof *name)) || !(place = calloc(BY + 1, sizeof *place))) {
		free(name);
		free(place);
		return;
	}
	while ((p->size >> shift) >= BY)
		shift++;
	for (uint32_t i = 0; i < p->n; i++) {
		const unsigned char *o = p->oids + (size_t)i * 20;
		name[((uint32_t)o[0] << 8 | o[1]) + 1]++;
		uint64_t b = p->starts[i] >> shift; /* past the pack (damaged): the last */
		place[(b < BY ? b : BY - 1) + 1]++;
	}
	for (size_t k = 1; k <= BY; k++) {
		name[k] += name[k - 1];
		place[k] += place[k - 1];
	}
	p->by_name = name;
	p->by_place = place;
	p->place_shift = shift;
}

/* Where the entry at `off` ends: where the next one starts, or the
 * pack's checksum. */
static uint64_t entry_end(const pack *p, uint64_t off)
{
	size_t lo = 0, hi = p->n;
	if (p->by_place && (off >> p->place_shift) < BY) { /* starts after the bucket's are after off too */
		size_t b = (size_t)(off >> p->place_shift);
		lo = p->by_place[b];
		hi = p->by_place[b + 1];
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->starts[mid] <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->n ? p->starts[lo] : (p->size > 20 ? p->size - 20 : p->size);
}

/* Open pack `base` (a path without ".idx"/".pack") when its index is of
 * version 2 and whole: 1, else 0. */
static int pack_open(pack *p, const char *base)
{
	char path[4096];
	struct stat st;
	const unsigned char *m;
	int fd;
	memset(p, 0, sizeof *p);
	p->fd = -1;
	if ((size_t)snprintf(path, sizeof path, "%s.idx", base) >= sizeof path ||
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	if (fstat(fd, &st) || st.st_size < 8 + 1024 + 40) {
		close(fd);
		return 0;
	}
	p->map_len = (size_t)st.st_size;
	p->map = mmap(NULL, p->map_len, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p->map == MAP_FAILED) {
		p->map = NULL;
		return 0;
	}
	m = p->map;
	if (be32(m) != 0xff744f63u || be32(m + 4) != 2)
		goto bad;
	p->fanout = m + 8;
	p->n = be32(p->fanout + 255 * 4);
	if ((uint64_t)p->n * 28 + 8 + 1024 + 40 > p->map_len)
		goto bad;
	p->oids = p->fanout + 1024;
	p->off32 = p->oids + (size_t)p->n * 24; /* after the names and their CRCs */
	p->off64 = p->off32 + (size_t)p->n * 4;
	p->n64 = (p->map_len - 40 - (size_t)(p->off64 - m)) / 8;
	if (!sort_starts(p))
		goto bad;
	if ((size_t)snprintf(path, sizeof path, "%s.pack", base) >= sizeof path ||
	    (p->fd = open(path, O_RDONLY | O_CLOEXEC)) < 0 || fstat(p->fd, &st) || st.st_size < 32)
		goto bad;
	p->size = (uint64_t)st.st_size;
	index_buckets(p);
	/* the pack the index was made for: "PACK", and its checksum, which
	 * the index repeats before its own */
	{
		unsigned char head[4], sum[20];
		if (pread(p->fd, head, 4, 0) != 4 || memcmp(head, "PACK", 4) ||
		    pread(p->fd, sum, 20, (off_t)(p->size - 20)) != 20 || memcmp(sum, m + p->map_len - 40, 20))
			goto bad;
	}
	return 1;
bad:
	pack_close(p);
	return 0;
}

/* Every pack of objects directory `dir`: 0, or -1 out of memory. */
static int add_dir(mev__packs *ps, const char *dir)
{
	char path[4096];
	DIR *d;
	struct dirent *e;
	int rc = 0;
	if ((size_t)snprintf(path, sizeof path, "%s/pack", dir) >= sizeof path || !(d = opendir(path)))
		return 0;
	while (!rc && (e = readdir(d))) {
		size_t l = strlen(e->d_name);
		pack *v;
		if (l < 5 || strcmp(e->d_name + l - 4, ".idx"))
			continue;
		if (!(v = realloc(ps->v, (ps->n + 1) * sizeof *v))) {
			rc = -1;
			break;
		}
		ps->v = v;
		if ((size_t)snprintf(path, sizeof path, "%s/pack/%.*s", dir, (int)(l - 4), e->d_name) < sizeof path)
			ps->n += (size_t)pack_open(&ps->v[ps->n], path);
	}
	closedir(d);
	return rc;
}

int mev__packs_open(mev__packs **out, const char *objects)
{
	mev__packs *ps = calloc(1, sizeof *ps);
	char path[4096], line[4096];
	FILE *f;
	int rc;
	*out = NULL;
	if (!ps || mev__pack_cache_init(ps)) {
		free(ps);
		return -1;
	}
	rc = add_dir(ps, objects);
	/* the objects a clone borrows (`git clone --shared`): one level */
	if (!rc && (size_t)snprintf(path, sizeof path, "%s/info/alternates", objects) < sizeof path &&
	    (f = fopen(path, "r"))) {
		while (!rc && fgets(line, sizeof line, f)) {
			line[strcspn(line, "\r\n")] = '\0';
			if (!line[0] || line[0] == '#')
				continue;
			if (line[0] == '/') {
				rc = add_dir(ps, line);
			} else {
				if ((size_t)snprintf(path, sizeof path, "%s/%s", objects, line) < sizeof path)
					rc = add_dir(ps, path);
			}
		}
		fclose(f);
	}
	if (rc) {
		mev__packs_free(ps);
		return -1;
	}
	*out = ps;
	return 0;
}

void mev__packs_free(mev__packs *ps)
{
	if (!ps)
		return;
	for (size_t i = 0; i < ps->n; i++)
		pack_close(&ps->v[i]);
	mev__pack_cache_free(ps);
	free(ps->v);
	free(ps);
}

size_t mev__packs_count(const mev__packs *ps) { return ps ? ps->n : 0; }

/* Where object `oid` lies: 1 (*pi, *off), or 0. */
static int find(const mev__packs *ps, const unsigned char *oid, uint32_t *pi, uint64_t *off)
{
	for (size_t k = 0; k < ps->n; k++) {
		const pack *p = &ps->v[k];
		uint32_t lo = oid[0] ? be32(p->fanout + (oid[0] - 1) * 4) : 0, hi = be32(p->fanout + oid[0] * 4);
		if (hi > p->n)  /* a damaged fan-out: not read here */
			continue;
		if (p->by_name) {
			lo = p->by_name[(uint32_t)oid[0] << 8 | oid[1]];
			hi = p->by_name[((uint32_t)oid[0] << 8 | oid[1]) + 1];
		}
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;
			int c = memcmp(p->oids + (size_t)mid * 20, oid, 20);
			if (c < 0) {
				lo = mid + 1;
			} else if (c > 0) {
				hi = mid;
			} else {
				int ok = 1;
				*off = offset_at(p, mid, &ok);
				if (!ok)
					return 0;
				*pi = (uint32_t)k;
				return 1;
			}
		}
	}
	return 0;
}

int mev__packs_where(const mev__packs *ps, const mev_oid *oid, uint32_t *pi, uint64_t *off)
{
	return ps && find(ps, oid->id, pi, off);
}

/* --- reading entries ------------------------------------------------------ */

void mev__pack_reader_init(mev__pack_reader *r, mev__packs *ps)
{
	memset(r, 0, sizeof *r);
	r->packs = ps;
}

void mev__pack_reader_free(mev__pack_reader *r)
{
	if (r->zok)
		inflateEnd(&r->z);
	free(r->taken);
	free(r->out);
	free(r->buf);
	free(r->chain);
	memset(r, 0, sizeof *r);
}

/* Bytes [off, off + want) of pack p into r->buf (fewer at its end):
 * how many, or 0. */
static size_t fetch(mev__pack_reader *r, const pack *p, uint64_t off, size_t want)
{
	ssize_t got;
	if (off >= p->size)
		return 0;
	if (want > p->size - off)
		want = (size_t)(p->size - off);
	if (want > r->cap) {
		unsigned char *b = realloc(r->buf, want);
		if (!b)
			return 0;
		r->buf = b;
		r->cap = want;
	}
	got = pread(p->fd, r->buf, want, (off_t)off);
	return got > 0 ? (size_t)got : 0;
}

/* A buffer of n + 1 bytes: the reader's own for the object it returns
 * (`final`: reused from call to call, no allocation and page faults for
 * each blob), else a new one (a base the cache will keep). */
static unsigned char *out_buf(mev__pack_reader *r, size_t n, int final)
{
	if (!final)
		return n < SIZE_MAX ? malloc(n + 1) : NULL;
	if (n >= r->outcap) {
		unsigned char *b;
		if (n == SIZE_MAX || !(b = realloc(r->out, n + 1)))
			return NULL;
		r->out = b;
		r->outcap = n + 1;
	}
	return r->out;
}

/* Free what out_buf() gave unless it is the reader's own. */
static void drop_buf(mev__pack_reader *r, unsigned char *b)
{
	if (b != r->out)
		free(b);
}

typedef struct {
	int type;
	size_t size;         /* inflated */
	uint64_t data;       /* where its zlib stream starts */
	uint64_t end;        /* and where the entry ends */
	uint32_t base_pack;  /* a delta's base */
	uint64_t base_off;
} header;

enum { PIECE = 1 << 20 }; /* the most read at once */

/* The header of the entry at `off` of pack pi, read with (up to PIECE
 * of) the rest of the entry: those bytes stay in r->buf, from r->data_at
 * to r->have.  1, or 0 when it does not parse. */
static int read_header(mev__pack_reader *r, uint32_t pi, uint64_t off, header *h)
{
	const pack *p = &r->packs->v[pi];
	uint64_t end = entry_end(p, off);
	size_t got = end > off ? fetch(r, p, off, end - off < PIECE ? (size_t)(end - off) : PIECE) : 0, i = 0;
	const unsigned char *b = r->buf;
	unsigned shift = 4;
	uint64_t size;
	if (got < 2)
		return 0;
	h->end = end;
	h->type = (b[0] >> 4) & 7;
	size = b[0] & 15;
	while (b[i] & 0x80) {
		if (++i >= got || shift > 57)
			return 0;
		size |= (uint64_t)(b[i] & 0x7f) << shift;
		shift += 7;
	}
	i++;
	h->size = (size_t)size;
	if (h->type == OBJ_OFS_DELTA) {
		uint64_t back;
		if (i >= got)
			return 0;
		back = b[i] & 0x7f;
		while (b[i] & 0x80) {
			if (++i >= got || back >> 56)
				return 0;
			back = ((back + 1) << 7) | (b[i] & 0x7f);
		}
		i++;
		if (back == 0 || back > off)
			return 0;
		h->base_pack = pi;
		h->base_off = off - back;
	} else if (h->type == OBJ_REF_DELTA) {
		if (i + 20 > got || !find(r->packs, b + i, &h->base_pack, &h->base_off))
			return 0;
		i += 20;
	} else if (h->type < 1 || h->type > 4) {
		return 0;
	}
	h->data = off + i;
	r->data_at = i;
	r->have = got;
	return 1;
}

/* The zlib stream of the entry whose header read_header() just read,
 * inflated to exactly h->size bytes (out_buf(), NUL after them), or NULL. */
static unsigned char *inflate_entry(mev__pack_reader *r, uint32_t pi, const header *h, int final)
{
	const pack *p = &r->packs->v[pi];
	unsigned char *out;
	uint64_t next = h->data + (r->have - r->data_at);
	int zr;
	if (h->size > UINT_MAX) /* more than zlib's counters take at once: libgit2's */
		return NULL;
	if (!(out = out_buf(r, h->size, final)))
		return NULL;
	if (!r->zok) {
		memset(&r->z, 0, sizeof r->z);
		if (inflateInit(&r->z) != Z_OK) {
			drop_buf(r, out);
			return NULL;
		}
		r->zok = 1;
	} else if (inflateReset(&r->z) != Z_OK) {
		drop_buf(r, out);
		return NULL;
	}
	r->z.next_in = r->buf + r->data_at;
	r->z.avail_in = (uInt)(r->have - r->data_at);
	r->z.next_out = out;
	r->z.avail_out = (uInt)h->size;
	for (;;) {
		zr = inflate(&r->z, Z_NO_FLUSH);
		if (zr == Z_STREAM_END)
			break;
		if ((zr != Z_OK && zr != Z_BUF_ERROR) || r->z.avail_in) {
			drop_buf(r, out);
			return NULL;
		}
		/* more of the entry */
		{
			size_t got = 0;
			if (next < h->end)
				got = fetch(r, p, next, h->end - next < PIECE ? (size_t)(h->end - next) : PIECE);
			if (!got) {
				drop_buf(r, out);
				return NULL;
			}
			next += got;
			r->z.next_in = r->buf;
			r->z.avail_in = (uInt)got;
		}
	}
	if (r->z.total_out != h->size) {
		drop_buf(r, out);
		return NULL;
	}
	out[h->size] = '\0';
	return out;
}

static size_t delta_size(const unsigned char **p, const unsigned char *end)
{
	size_t v = 0;
	unsigned shift = 0;
	while (*p < end) {
		unsigned char c = *(*p)++;
		v |= (size_t)(c & 0x7f) << shift;
		shift += 7;
		if (!(c & 0x80) || shift > 56)
			break;
	}
	return v;
}

/* Delta d (of dlen bytes) applied to base: the result (out_buf(), NUL
 * after it, its length in *len), or NULL when the delta does not fit. */
static unsigned char *apply(mev__pack_reader *r, const unsigned char *base, size_t blen,
			    const unsigned char *d, size_t dlen, size_t *len, int final)
{
	const unsigned char *p = d, *end = d + dlen;
	size_t src = delta_size(&p, end), dst = delta_size(&p, end), at = 0;
	unsigned char *out;
	if (src != blen || !(out = out_buf(r, dst, final)))
		return NULL;
	while (p < end) {
		unsigned char c = *p++;
		if (c & 0x80) {
			size_t o = 0, n = 0;
			for (int k = 0; k < 4; k++)
				if (c & (1u << k)) {
					if (p >= end)
						goto bad;
					o |= (size_t)*p++ << (8 * k);
				}
			for (int k = 0; k < 3; k++)
				if (c & (0x10u << k)) {
					if (p >= end)
						goto bad;
					n |= (size_t)*p++ << (8 * k);
				}
			if (!n)
				n = 0x10000;
			if (o > blen || n > blen - o || n > dst - at)
				goto bad;
			memcpy(out + at, base + o, n);
			at += n;
		} else if (c) {
			if (c > (size_t)(end - p) || c > dst - at)
				goto bad;
			memcpy(out + at, p, c);
			p += c;
			at += c;
		} else {
			goto bad;
		}
	}
	if (at != dst)
		goto bad;
	out[dst] = '\0';
	*len = dst;
	return out;
bad:
	drop_buf(r, out);
	return NULL;
}

/* A delta of the chain being rebuilt: inflated, and where its base lies. */
struct mev__pack_link {
	uint32_t base_pack;
	uint64_t base_off;
	unsigned char *delta;
	size_t len;
};

/* The object at (pi, off) if of type `want` (OBJ_BLOB, OBJ_TREE): as
 * mev__pack_read_blob(). */
static int read_at(mev__pack_reader *r, uint32_t pi, uint64_t off, int want, const unsigned char **data,
		   size_t *len)
{
	mev__packs *ps = r->packs;
	unsigned char *obj = NULL;
	size_t olen = 0, n = 0;
	int type = 0;
	*data = NULL;
	*len = 0;
	free(r->taken);
	r->taken = NULL;
	if (!ps || pi >= ps->n)
		return 0;
	/* down the chain to a base in the cache or a whole object, each
	 * delta inflated on the way (its bytes are at hand) */
	for (;;) {
		mev__pack_base *e = mev__pack_cache_take(ps, pi, off);
		header h;
		unsigned char *d;
		if (e) {
			obj = e->data;
			olen = e->len;
			type = e->type;
			free(e);
			break;
		}
		if (!read_header(r, pi, off, &h))
			goto fail;
		if (h.type != OBJ_OFS_DELTA && h.type != OBJ_REF_DELTA) {
			if (!(obj = inflate_entry(r, pi, &h, n == 0)))
				goto fail;
			olen = h.size;
			type = h.type;
			break;
		}
		if (n == MAX_CHAIN)
			goto fail;
		if (n == r->nchain) {
			size_t c = r->nchain ? 2 * r->nchain : 64;
			struct mev__pack_link *v = realloc(r->chain, c * sizeof *v);
			if (!v)
				goto fail;
			r->chain = v;
			r->nchain = c;
		}
		if (!(d = inflate_entry(r, pi, &h, 0)))
			goto fail;
		r->chain[n++] = (struct mev__pack_link){ h.base_pack, h.base_off, d, h.size };
		pi = h.base_pack;
		off = h.base_off;
	}
	/* up again: each delta applied to the object below it, which is kept
	 * as a base */
	while (n > 0) {
		struct mev__pack_link *l = &r->chain[--n];
		size_t rlen;
		unsigned char *res = apply(r, obj, olen, l->delta, l->len, &rlen, n == 0);
		free(l->delta);
		if (!res)
			goto fail;
		mev__pack_cache_put(ps, l->base_pack, l->base_off, obj, olen, type);
		obj = res;
		olen = rlen;
	}
	if (type != want)
		goto fail;
	if (obj != r->out)
		r->taken = obj; /* a base taken from the cache: freed at the next call */
	*data = obj;
	*len = olen;
	return 1;
fail:
	while (n > 0)
		free(r->chain[--n].delta);
	if (obj)
		drop_buf(r, obj);
	return 0;
}

static int read_object(mev__pack_reader *r, const mev_oid *oid, int want, const unsigned char **data,
		       size_t *len)
{
	uint32_t pi;
	uint64_t off;
	*data = NULL;
	*len = 0;
	return r->packs && find(r->packs, oid->id, &pi, &off) && read_at(r, pi, off, want, data, len);
}

int mev__pack_read_blob(mev__pack_reader *r, const mev_oid *oid, const unsigned char **data, size_t *len)
{
	return read_object(r, oid, OBJ_BLOB, data, len);
}

int mev__pack_read_blob_at(mev__pack_reader *r, uint64_t place, const unsigned char **data, size_t *len)
{
	*data = NULL;
	*len = 0;
	return place != MEV__NOWHERE && read_at(r, (uint32_t)(place >> 48), place & ((1ULL << 48) - 1), OBJ_BLOB,
						data, len);
}

int mev__pack_read_tree(mev__pack_reader *r, const mev_oid *oid, const unsigned char **data, size_t *len)
{
	return read_object(r, oid, OBJ_TREE, data, len);
}
