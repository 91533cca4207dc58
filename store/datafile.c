/*
 * The data file's own check, before LMDB maps it.  LMDB trusts data.mdb:
 * a FIFO there hangs its open, an empty file is taken for a new
 * environment, and a page of the map past the end of a truncated file is
 * a SIGBUS at the first read.  So data.mdb must be a regular file holding
 * two meta pages and every page the newest meta page can reach; a file
 * that is no LMDB file at all is refused too.  The meta and tree pages are
 * read with pread(), their layout being LMDB 0.9's (mdb.c: MDB_page,
 * MDB_meta, MDB_db, MDB_node; data version 1, native byte order).
 */
#include "store_internal.h"
#include "maintevo/error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The layout of LMDB 0.9 pages, pgno_t and pointers being size_t wide. */
enum {
	W = sizeof(size_t),
	HDR = W + 8,                /* MDB_page up to mp_ptrs */
	DB = 8 + 5 * W,             /* MDB_db */
	DB_ROOT = 8 + 4 * W,        /* MDB_db.md_root */
	M_MAGIC = HDR, M_VERSION = HDR + 4,
	M_DBS = HDR + 8 + 2 * W,    /* mm_dbs[0]: the free pages' tree; its md_pad is the page size */
	M_LAST = M_DBS + 2 * DB,    /* mm_last_pg */
	M_TXNID = M_LAST + W,
	META_END = M_TXNID + 8,
	P_BRANCH = 0x01, P_LEAF = 0x02, P_OVERFLOW = 0x04, P_META = 0x08, P_LEAF2 = 0x20,
	F_BIGDATA = 0x01, F_SUBDATA = 0x02, F_DUPDATA = 0x04,
	NODE = 8                    /* MDB_node up to its key */
};
#define LMDB_MAGIC 0xBEEFC0DEu

static uint64_t get_w(const unsigned char *p)
{
	size_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

static unsigned get_16(const unsigned char *p)
{
	uint16_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

static uint32_t get_32(const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

typedef struct {
	const char *dir, *path;
	int fd;
	uint64_t size;        /* of the file */
	uint32_t psize;
	uint64_t roots[2];    /* the free pages' and the main tree's root pages */
	uint64_t last;        /* the newest meta page's last page */
	uint64_t txnid;       /* and the transaction that wrote it */
	unsigned char *page;  /* one page */
} datafile;

static const char *file_kind(mode_t m)
{
	return S_ISFIFO(m) ? "a FIFO" : S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device"
	       : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

static int not_regular(const char *dir, const char *path, mode_t m)
{
	mev_error_set(MEV_ESTORE, "store '%s' cannot be read: '%s' is %s, not a regular file", dir, path,
		      file_kind(m));
	mev_error_hint("a store's data.mdb and lock.mdb are files LMDB writes; choose another "
		       "directory with --store");
	return MEV_ESTORE;
}

/* Page `pgno` (a meta page when < 2) lies past the end of the file. */
static int cut_short(const datafile *f, uint64_t pgno)
{
	mev_error_set(MEV_ECORRUPT, "store '%s' is damaged: '%s' is cut short at %llu bytes: page "
		      "%llu (%s) is not all there", f->dir, f->path, (unsigned long long)f->size,
		      (unsigned long long)pgno, pgno < 2 ? "a meta page" : "a page of its tables");
	mev_error_hint("data.mdb lost its end (a full disk, an interrupted copy?); restore it from a "
		       "backup, or walk into a new store");
	return MEV_ECORRUPT;
}

static int damaged(const datafile *f, const char *what, uint64_t pgno)
{
	mev_error_set(MEV_ECORRUPT, "store '%s' is damaged: page %llu of '%s' %s", f->dir,
		      (unsigned long long)pgno, f->path, what);
	mev_error_hint("restore data.mdb from a backup, or walk into a new store");
	return MEV_ECORRUPT;
}

static int read_at(const datafile *f, void *buf, size_t len, uint64_t off)
{
	ssize_t n = pread(f->fd, buf, len, (off_t)off);
	if (n < 0)
		return mev_error_set(MEV_EIO, "cannot read '%s': %s", f->path, strerror(errno));
	return (size_t)n == len ? 0 : 1;
}

/* The two meta pages: the page size, and the roots and last page of the newest. */
static int read_metas(datafile *f)
{
	unsigned char m[2][META_END];
	int rc, newest;
	if (f->size == 0) {
		mev_error_set(MEV_ECORRUPT, "store '%s' is damaged: '%s' is empty", f->dir, f->path);
		mev_error_hint("its creation or a copy of it was cut short; restore it from a backup, or "
			       "remove '%s' and walk again", f->path);
		return MEV_ECORRUPT;
	}
	memset(m, 0, sizeof m);
	if ((rc = read_at(f, m[0], META_END, 0)) < 0)
		return rc;
	if (get_32(m[0] + M_MAGIC) != LMDB_MAGIC || !(get_16(m[0] + W + 2) & P_META)) {
		mev_error_set(MEV_ESTORE, "'%s' is not a maintevo store: '%s' is not an LMDB database",
			      f->dir, f->path);
		mev_error_hint("choose another directory with --store");
		return MEV_ESTORE;
	}
	if (rc)
		return cut_short(f, 0);
	if (get_32(m[0] + M_VERSION) != 1)
		return 1; /* another LMDB data version: LMDB says what it thinks */
	f->psize = get_32(m[0] + M_DBS);
	if (f->psize < 256 || f->psize > 65536 || (f->psize & (f->psize - 1)))
		return damaged(f, "(the first meta page) is damaged", 0);
	if (f->size < 2 * (uint64_t)f->psize)
		return cut_short(f, 1);
	if ((rc = read_at(f, m[1], META_END, f->psize)) < 0)
		return rc;
	if (rc || get_32(m[1] + M_MAGIC) != LMDB_MAGIC || get_32(m[1] + M_VERSION) != 1)
		return damaged(f, "(the second meta page) is damaged", 1);
	newest = get_w(m[1] + M_TXNID) > get_w(m[0] + M_TXNID);
	f->roots[0] = get_w(m[newest] + M_DBS + DB_ROOT);
	f->roots[1] = get_w(m[newest] + M_DBS + DB + DB_ROOT);
	f->last = get_w(m[newest] + M_LAST);
	f->txnid = get_w(m[newest] + M_TXNID);
	return 0;
}

typedef MEV_VEC(uint64_t) pgno_vec;

/* The pages a leaf's node leads to: overflow pages, or a named table. */
static int leaf_node(datafile *f, const unsigned char *node, uint64_t pgno, pgno_vec *todo)
{
	unsigned flags = get_16(node + 4), ksize = get_16(node + 6);
	const unsigned char *data = node + NODE + ksize;
	unsigned char head[HDR];
	size_t need = flags & F_BIGDATA ? W : flags & F_SUBDATA ? DB : 0;
	uint64_t ov;
	if ((size_t)(data - f->page) + need > f->psize)
		return damaged(f, "has a node past its end", pgno);
	if ((flags & F_SUBDATA) && !(flags & F_BIGDATA)) {
		/* a named table (or a tree of duplicates): its root */
		uint64_t root = get_w(data + DB_ROOT);
		return root != (uint64_t)-1 && MEV_VEC_PUSH(todo, root) ? mev_error_oom() : 0;
	}
	if (!(flags & F_BIGDATA))
		return 0; /* the value is in the node (or a page of duplicates is) */
	ov = get_w(data);
	if (ov >= f->size / f->psize)
		return cut_short(f, ov);
	if (read_at(f, head, HDR, ov * f->psize) || !(get_16(head + W + 2) & P_OVERFLOW))
		return damaged(f, "names an overflow page that is not one", pgno);
	if ((ov + get_32(head + W + 4)) * f->psize > f->size)
		return cut_short(f, f->size / f->psize);
	return 0;
}

/* The child page of a branch node: mn_lo, mn_hi (in this order on a
 * little-endian machine) and, with 64-bit page numbers, mn_flags. */
static uint64_t branch_pgno(const unsigned char *node)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	uint64_t lo = get_16(node + 2), hi = get_16(node);
#else
	uint64_t lo = get_16(node), hi = get_16(node + 2);
#endif
	return lo | hi << 16 | (W > 4 ? (uint64_t)get_16(node + 4) << 32 : 0);
}

/* Every page of the two trees, and of the named tables in the main one,
 * lies within the file (each page read once; a loop is damage). */
static int reachable_in_file(datafile *f)
{
	pgno_vec todo = { 0 };
	uint64_t npages = f->size / f->psize, visited = 0;
	int rc = 0;
	if (!(f->page = malloc(f->psize)))
		return mev_error_oom();
	for (int i = 0; i < 2 && !rc; i++)
		if (f->roots[i] != (uint64_t)-1 && MEV_VEC_PUSH(&todo, f->roots[i]))
			rc = mev_error_oom();
	while (!rc && todo.n) {
		uint64_t pgno = todo.v[--todo.n];
		unsigned flags, lower, nkeys;
		if (pgno >= npages) {
			rc = cut_short(f, pgno);
			break;
		}
		if (++visited > npages || (rc = read_at(f, f->page, f->psize, pgno * f->psize)) ||
		    get_w(f->page) != pgno) {
			rc = rc < 0 ? rc : damaged(f, "is not the page its tree expects", pgno);
			break;
		}
		flags = get_16(f->page + W + 2);
		lower = get_16(f->page + W + 4);
		if (flags & P_LEAF2)
			continue;
		if (!(flags & (P_BRANCH | P_LEAF)) || lower < HDR || lower > f->psize) {
			rc = damaged(f, "is not the page its tree expects", pgno);
			break;
		}
		nkeys = (lower - HDR) / 2;
		for (unsigned k = 0; k < nkeys && !rc; k++) {
			unsigned off = get_16(f->page + HDR + 2 * k);
			const unsigned char *node = f->page + off;
			if (off < lower || off + NODE > f->psize)
				rc = damaged(f, "has a node past its end", pgno);
			else if (flags & P_BRANCH)
				rc = MEV_VEC_PUSH(&todo, branch_pgno(node)) ? mev_error_oom() : 0;
			else
				rc = leaf_node(f, node, pgno, &todo);
		}
	}
	MEV_VEC_FREE(&todo);
	free(f->page);
	f->page = NULL;
	return rc;
}

int mev__store_check_datafile(const char *dir, int walk_pages)
{
	char path[4096], lock[4096];
	struct stat sb;
	datafile f = { dir, path, -1, 0, 0, { 0, 0 }, 0, 0, NULL };
	int rc;

	snprintf(path, sizeof path, "%s/data.mdb", dir);
	snprintf(lock, sizeof lock, "%s/lock.mdb", dir);
	if (stat(lock, &sb) == 0 && !S_ISREG(sb.st_mode))
		return not_regular(dir, lock, sb.st_mode);
	if (stat(path, &sb) != 0)
		return 0; /* a new store */
	if (!S_ISREG(sb.st_mode))
		return not_regular(dir, path, sb.st_mode);
	/* O_NONBLOCK: should a FIFO take its place meanwhile, fstat sees it */
	if ((f.fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0) {
		if (errno != EACCES)
			return mev_error_set(MEV_EIO, "cannot open '%s': %s", path, strerror(errno));
		mev_error_set(MEV_EIO, "cannot open store '%s': %s", dir, strerror(errno));
		mev_error_hint("check the permissions of the directory and of data.mdb");
		return MEV_EIO;
	}
	if (fstat(f.fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		rc = not_regular(dir, path, sb.st_mode);
		goto done;
	}
	f.size = (uint64_t)sb.st_size;
	if ((rc = read_metas(&f)))
		goto done;
	/* The size after the meta pages: a writer writes the pages of a commit
	 * before its meta page, so the file has them all.  It may still end
	 * before the last page when that page was freed in the commit that
	 * took it (LMDB writes no such page): then only the pages the trees
	 * reach must be in the file. */
	if (fstat(f.fd, &sb) == 0)
		f.size = (uint64_t)sb.st_size;
	if (walk_pages || (f.last + 1) * f.psize > f.size) {
		/* Pages read while a writer commits may be reused by it (this is
		 * no LMDB reader): a failure counts when no commit came between. */
		for (int tries = 0; tries < 5; tries++) {
			uint64_t txnid = f.txnid;
			int again;
			if ((rc = reachable_in_file(&f)) != MEV_ECORRUPT)
				break;
			if ((again = read_metas(&f)) || f.txnid == txnid) {
				rc = again ? again : rc; /* the message is still the first one's */
				break;
			}
			if (fstat(f.fd, &sb) == 0)
				f.size = (uint64_t)sb.st_size;
		}
	}
done:
	close(f.fd);
	return rc > 0 ? 0 : rc;
}
