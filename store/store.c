/*
 * The LMDB environment of a store: opening it (and refusing what is not
 * ours or not of this schema), its named tables, write transactions,
 * growing the map, the writer's lock.  Values are in values.c, the
 * listing of tables in stats.c; docs/store-format.md describes the format.
 */
#include "store_internal.h"
#include "codec.h"
#include "maintevo/error.h"
#include "util/clock.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <signal.h>
#include <sys/file.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int mev__store_fail(int rc, const char *what)
{
	if (rc == MDB_MAP_FULL)
		return mev_error_set(MEV_ELIMIT, "%s: the store's map is full", what);
	if (rc == MDB_READERS_FULL) {
		mev_error_set(MEV_ESTORE, "%s: the store has as many readers at once as it can hold", what);
		mev_error_hint("run fewer commands reading it at once, or this one again when some "
			       "have finished");
		return MEV_ESTORE;
	}
	if (rc == MDB_CORRUPTED || rc == MDB_PAGE_NOTFOUND || rc == MDB_INVALID)
		return mev_error_set(MEV_ECORRUPT, "%s: the store is damaged (%s)", what, mdb_strerror(rc));
	return mev_error_set(MEV_ESTORE, "%s: %s", what, mdb_strerror(rc));
}

/* "12 kB", "3.4 MB" */
static void size_text(char *out, size_t size, uint64_t bytes)
{
	if (bytes < 1000000)
		snprintf(out, size, "%llu kB", (unsigned long long)(bytes + 500) / 1000);
	else
		snprintf(out, size, "%.1f MB", bytes / 1e6);
}

int64_t mev__store_free_space(const char *dir)
{
	struct statvfs vfs;
	return statvfs(dir, &vfs) == 0 ? (int64_t)vfs.f_bavail * (int64_t)vfs.f_frsize : -1;
}

/*
 * A write stopped by the file size limit (ulimit -f, RLIMIT_FSIZE): EFBIG,
 * or LMDB's EIO for a short write that ended at the limit (the data file
 * is as long as the limit lets it be).  1 and the limit in *limit then.
 * (SIGXFSZ, which would kill the process instead, is ignored by the
 * command line: src/cli/main.c.)
 */
static int past_size_limit(const char *dir, int rc, uint64_t *limit)
{
	struct rlimit rl;
	struct stat st;
	char path[4096];
	if ((rc != EFBIG && rc != EIO) || getrlimit(RLIMIT_FSIZE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return 0;
	*limit = (uint64_t)rl.rlim_cur;
	if (rc == EFBIG)
		return 1;
	snprintf(path, sizeof path, "%s/data.mdb", dir);
	return stat(path, &st) == 0 && (uint64_t)st.st_size + 65536 >= *limit;
}

int mev__store_write_fail(const char *dir, int rc, const char *what, int64_t before, uint64_t need)
{
	int64_t now = mev__store_free_space(dir);
	char avail[32], needed[32];
	uint64_t limit;
	if (past_size_limit(dir, rc, &limit)) {
		size_text(avail, sizeof avail, limit);
		mev_error_set(MEV_EIO, "%s: the data file of store '%s' reached the file size limit of this "
			      "process (%s: 'ulimit -f' is %llu)", what, dir, avail,
			      (unsigned long long)(limit / 1024));
		mev_error_hint("raise the limit ('ulimit -f unlimited' in the shell or the job's settings) "
			       "and run the command again: the store holds everything committed before, "
			       "and a walk goes on from there");
		return MEV_EIO;
	}
	/* LMDB reports a short write as EIO: a full disk when little is left */
	if (rc != ENOSPC && rc != EDQUOT && !(rc == EIO && now >= 0 && now < (1 << 20)))
		return mev__store_fail(rc, what);
	size_text(avail, sizeof avail, (uint64_t)(before >= 0 ? before : now >= 0 ? now : 0));
	size_text(needed, sizeof needed, need);
	if (need)
		mev_error_set(MEV_EIO, "%s: the file system of store '%s' is full (%s free, %s needed)",
			      what, dir, avail, needed);
	else
		mev_error_set(MEV_EIO, "%s: the file system of store '%s' is full (%s%s)", what, dir, avail,
			      before >= 0 ? " were free when the write began, too little for it" : " free");
	mev_error_hint("%sfree some space there (or move the store to a larger file system) and run "
		       "the command again: the store holds everything committed before, and a walk goes "
		       "on from there", rc == EDQUOT ? "your disk quota is used up: " : "");
	return MEV_EIO;
}

/*
 * The places in the reader table of lock.mdb: one per read transaction
 * open at once (each reading command, each thread of a walk).  LMDB's
 * default, 126, is too few for a nightly fan-out or a web front end; 1024
 * take 64 kB.  A lock file made smaller (by an older maintevo) grows when
 * the store is next opened with no other process using it.
 * MEV_STORE_MAX_READERS: another number, for testing a full table.
 */
static unsigned max_readers(void)
{
	const char *env = getenv("MEV_STORE_MAX_READERS");
	long n = env ? atol(env) : 0;
	return n > 0 && n < 1000000 ? (unsigned)n : 1024;
}

/*
 * LMDB maps its lock file and writes through the map, so on a full file
 * system a page of the file that has no disk block yet kills the process
 * (SIGBUS).  Give the file its blocks first (what LMDB 0.9 on 64 bits
 * needs for the reader table: 192 bytes of header and 64 a reader but the
 * first, or the size it has): a full file system is then an error like any
 * other.  LMDB takes the size of a lock file it finds for the number of
 * places, so this makes it max_readers(); a smaller file (of an older
 * maintevo) grows only while no other process uses it, as LMDB itself
 * grows it only then: a process that mapped the smaller table would not
 * see the readers in the places beyond it.
 */
/* Is the lock file open in another process's environment?  Each holds a
 * lock on its first byte (fcntl) as long as its environment is open. */
static int lock_in_use(int fd)
{
	struct flock fl;
	memset(&fl, 0, sizeof fl);
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	fl.l_start = 0;
	fl.l_len = 1;
	return fcntl(fd, F_GETLK, &fl) != 0 || fl.l_type != F_UNLCK;
}

static int reserve_lock(const char *dir, const char *path, const char *what)
{
	struct stat st;
	off_t len = (off_t)max_readers() * 64 + 128;
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666), rc = 0;
	if (fd < 0)
		return 0; /* not writable: LMDB says why */
	if (fstat(fd, &st) == 0 && (st.st_size > len || (st.st_size > 0 && lock_in_use(fd))))
		len = st.st_size; /* in use: its size is its table's, for every process */
	if (fallocate(fd, 0, 0, len) != 0 && (errno == ENOSPC || errno == EDQUOT))
		rc = mev__store_write_fail(dir, errno, what, -1, (uint64_t)len);
	close(fd);
	return rc;
}

static int dir_state(const char *dir)
{
	/* 0: missing, 1: empty directory, 2: has data.mdb, 3: other content, -1 not a dir */
	struct stat st;
	DIR *d;
	struct dirent *e;
	int state = 1;
	char path[4096];
	if (stat(dir, &st) != 0)
		return 0;
	if (!S_ISDIR(st.st_mode))
		return -1;
	snprintf(path, sizeof path, "%s/data.mdb", dir);
	if (stat(path, &st) == 0)
		return 2;
	d = opendir(dir);
	if (!d)
		return 3;
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, "lock.mdb") &&
		    strcmp(e->d_name, "walk.lock") && strncmp(e->d_name, "data.mdb.new.", 13)) {
			state = 3;
			break;
		}
	}
	closedir(d);
	return state;
}

/* The reader table is full: say so in words. */
static int readers_full(mev_store *s)
{
	unsigned max = 0;
	mdb_env_get_maxreaders(s->env, &max);
	mev_error_set(MEV_ESTORE, "store '%s' has as many readers at once as it can hold (%u): its "
		      "reader table is full", s->dir, max);
	mev_error_hint("each maintevo command reading the store (and each thread of a walk) holds a "
		       "place while it runs: run fewer at once, or this one again when some have "
		       "finished (places of processes that died are freed by the next command)");
	return MEV_ESTORE;
}

/* Pick up a map grown by another process; when the reader table is full,
 * free the places of readers that died (kill -9) and try again. */
static int txn_begin(mev_store *s, MDB_txn **txn, unsigned flags)
{
	int rc = mdb_txn_begin(s->env, NULL, flags, txn), dead = 0;
	if (rc == MDB_MAP_RESIZED) {
		pthread_rwlock_wrlock(&s->maplock);
		mdb_env_set_mapsize(s->env, 0);
		mev__store_map_note(s);
		pthread_rwlock_unlock(&s->maplock);
		rc = mdb_txn_begin(s->env, NULL, flags, txn);
	}
	if (rc == MDB_READERS_FULL && mdb_reader_check(s->env, &dead) == 0 && dead > 0)
		rc = mdb_txn_begin(s->env, NULL, flags, txn);
	if (rc == MDB_READERS_FULL)
		return readers_full(s);
	return rc ? mev__store_fail(rc, "cannot start a store transaction") : 0;
}

/* The transaction to use: the open write one, the held read snapshot, or
 * a fresh read one. */
int mev__store_txn(mev_store *s, MDB_txn **txn, int *own)
{
	if (s->wtxn || s->rtxn) {
		*txn = s->wtxn ? s->wtxn : s->rtxn;
		*own = 0;
		return 0;
	}
	*own = 1;
	return txn_begin(s, txn, MDB_RDONLY);
}

void mev__store_txn_done(MDB_txn *txn, int own)
{
	/* committing a read-only transaction keeps the table handles it opened */
	if (own)
		mdb_txn_commit(txn);
}

int mev__store_dbi(mev_store *s, MDB_txn *txn, const char *name, MDB_dbi *dbi)
{
	int rc;
	for (int i = 0; i < s->ntables; i++)
		if (strcmp(s->table_names[i], name) == 0) {
			*dbi = s->tables[i];
			return 0;
		}
	if (txn == s->wtxn)
		for (int i = 0; i < s->npending; i++)
			if (strcmp(s->pending_names[i], name) == 0) {
				*dbi = s->pending[i];
				return 0;
			}
	if (s->ntables + s->npending >= MEV__STORE_MAX_TABLES)
		return mev_error_set(MEV_ESTORE, "too many store tables");
	rc = mdb_dbi_open(txn, name, txn == s->wtxn ? MDB_CREATE : 0, dbi);
	if (rc == MDB_NOTFOUND)
		return MEV_ENOTFOUND; /* not created yet: an empty table */
	if (rc == MDB_INCOMPATIBLE)
		return mev_error_set(MEV_EINVAL, "key '%s' of the catalogue of store '%s' holds a value, "
				     "not a table", name, s->dir);
	if (rc)
		return mev__store_fail(rc, "cannot open a store table");
	/* a handle opened in a transaction lives only if it commits; keep
	 * handles of committed (or read-only) transactions */
	if (txn != s->wtxn) {
		snprintf(s->table_names[s->ntables], sizeof s->table_names[0], "%s", name);
		s->tables[s->ntables++] = *dbi;
	} else {
		snprintf(s->pending_names[s->npending], sizeof s->pending_names[0], "%s", name);
		s->pending[s->npending++] = *dbi;
	}
	return 0;
}

static int grow_if_needed(mev_store *s)
{
	MDB_envinfo info;
	MDB_stat st;
	size_t used, want;
	int rc;
	mdb_env_info(s->env, &info);
	mdb_env_stat(s->env, &st);
	used = (info.me_last_pgno + 1) * (size_t)st.ms_psize;
	if (used * 2 < info.me_mapsize)
		return 0;
	want = info.me_mapsize * 2;
	pthread_rwlock_wrlock(&s->maplock);
	rc = mdb_env_set_mapsize(s->env, want);
	mev__store_map_note(s);
	pthread_rwlock_unlock(&s->maplock);
	if (rc)
		return mev_error_set(MEV_ESTORE, "cannot grow the store map to %zu MiB", want >> 20);
	return 0;
}

int mev__store_grow(mev_store *s)
{
	MDB_envinfo info;
	int rc;
	mdb_env_info(s->env, &info);
	pthread_rwlock_wrlock(&s->maplock);
	rc = mdb_env_set_mapsize(s->env, info.me_mapsize * 2);
	mev__store_map_note(s);
	pthread_rwlock_unlock(&s->maplock);
	if (rc)
		return mev_error_set(MEV_ESTORE, "cannot grow the store map");
	return 0;
}

/* The schema under meta/schema: MEV_ENOTFOUND when absent; MEV_EINVAL
 * when that is not ours, *why saying what it is. */
static int read_schema(mev_store *s, uint32_t *schema, const char **why)
{
	MDB_txn *txn;
	MDB_dbi dbi;
	MDB_val k = { 6, "schema" }, v;
	int own, rc;
	*schema = 0;
	if ((rc = mev__store_txn(s, &txn, &own)))
		return rc;
	rc = mev__store_dbi(s, txn, "meta", &dbi);
	*why = "its key 'meta' holds a value, not a table";
	if (rc == 0) {
		rc = mdb_get(txn, dbi, &k, &v);
		if (rc == 0) {
			/* decimal digits, or not ours */
			char buf[16] = { 0 };
			size_t n;
			memcpy(buf, v.mv_data, v.mv_size < 15 ? v.mv_size : 15);
			n = strspn(buf, "0123456789");
			*schema = (uint32_t)strtoul(buf, NULL, 10);
			*why = "its meta/schema is not a schema number";
			if (n == 0 || n > 9 || n != v.mv_size)
				rc = MEV_EINVAL;
		} else {
			rc = MEV_ENOTFOUND;
		}
	}
	mev__store_txn_done(txn, own);
	return rc;
}

static int put_schema(MDB_txn *txn, MDB_dbi dbi)
{
	char buf[16];
	MDB_val k = { 6, "schema" }, v;
	int rc;
	snprintf(buf, sizeof buf, "%d", MEV_STORE_SCHEMA);
	v.mv_size = strlen(buf);
	v.mv_data = buf;
	rc = mdb_put(txn, dbi, &k, &v, 0);
	return rc ? mev__store_fail(rc, "cannot write the store schema") : 0;
}

static int write_schema(mev_store *s)
{
	MDB_dbi dbi;
	int rc = mev__store_dbi(s, s->wtxn, "meta", &dbi);
	return rc ? rc : put_schema(s->wtxn, dbi);
}

/* Remove the data.mdb.new.PID (and -lock) of creations whose process is
 * gone (killed half-way): they would stay in the folder for good. */
static void remove_stale_new(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char *end, path[4400];
		long pid;
		if (strncmp(e->d_name, "data.mdb.new.", 13) != 0)
			continue;
		pid = strtol(e->d_name + 13, &end, 10);
		if (pid <= 0 || (*end && strcmp(end, "-lock") != 0) || pid == (long)getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
}

/*
 * A new store's data.mdb appears whole, with its schema, or not at all:
 * it is made under a name of its own (data.mdb.new.PID, with LMDB's
 * data.mdb.new.PID-lock) and then linked into place.  A creation cut short
 * leaves no empty data.mdb, which would be refused as damaged (and its
 * files, which the next creation removes); of two creations at once the
 * first link wins and the other opens its store.
 */
static int create_datafile(const char *dir)
{
	char tmp[4096], lock[4200], path[4096];
	MDB_env *env = NULL;
	MDB_txn *txn = NULL;
	MDB_dbi dbi;
	int64_t before = mev__store_free_space(dir);
	int rc;
	snprintf(tmp, sizeof tmp, "%s/data.mdb.new.%ld", dir, (long)getpid());
	snprintf(lock, sizeof lock, "%s-lock", tmp);
	snprintf(path, sizeof path, "%s/data.mdb", dir);
	remove_stale_new(dir);
	unlink(tmp);
	unlink(lock);
	if ((rc = reserve_lock(dir, lock, "cannot create the store"))) {
		unlink(lock);
		return rc;
	}
	if ((rc = mdb_env_create(&env)) || (rc = mdb_env_set_maxdbs(env, MEV__STORE_MAX_TABLES)) ||
	    (rc = mdb_env_open(env, tmp, MDB_NOSUBDIR, 0666)) ||
	    (rc = mdb_txn_begin(env, NULL, 0, &txn)) || (rc = mdb_dbi_open(txn, "meta", MDB_CREATE, &dbi))) {
		if (txn)
			mdb_txn_abort(txn);
		rc = rc == EACCES || rc == EROFS
			? mev_error_set(MEV_EIO, "cannot create store '%s': %s", dir, strerror(rc))
			: mev__store_write_fail(dir, rc, "cannot create the store", before, 24576);
	} else if ((rc = put_schema(txn, dbi))) {
		mdb_txn_abort(txn);
	} else if ((rc = mdb_txn_commit(txn))) {
		rc = mev__store_write_fail(dir, rc, "cannot create the store", before, 24576);
	}
	mdb_env_close(env);
	/* link, not rename: never over a data.mdb made meanwhile (a file
	 * system without hard links gets a rename, if none is there yet) */
	if (!rc && link(tmp, path) != 0 && errno != EEXIST &&
	    (access(path, F_OK) == 0 ? 0 : rename(tmp, path)) != 0)
		rc = mev_error_set(MEV_EIO, "cannot create '%s': %s", path, strerror(errno));
	unlink(tmp);
	unlink(lock);
	return rc;
}

/* Refuse a directory that cannot be (or become) a store; create a new one. */
static int check_dir(const char *dir, int st, unsigned flags)
{
	if (st == -1) {
		mev_error_set(MEV_ESTORE, "'%s' is not a directory, so it cannot be a maintevo store", dir);
		mev_error_hint("pass a directory with --store");
		return MEV_ESTORE;
	}
	if (st == 3) {
		mev_error_set(MEV_ESTORE, "'%s' is not a maintevo store: it holds other files", dir);
		mev_error_hint("choose a new or empty directory with --store");
		return MEV_ESTORE;
	}
	if (st <= 1 && !(flags & MEV_STORE_CREATE)) {
		mev_error_set(MEV_ENOTFOUND, "no maintevo store at '%s'", dir);
		mev_error_hint("walk a repository into it first: maintevo walk --repo REPO --store %s", dir);
		return MEV_ENOTFOUND;
	}
	if (st == 0 && mkdir(dir, 0777) != 0 && errno != EEXIST) {
		mev_error_set(MEV_EIO, "cannot create store directory '%s': %s", dir, strerror(errno));
		return MEV_EIO;
	}
	return 0;
}

/* The LMDB environment of s->dir, its map twice the file, at least 256 MiB
 * (it grows before it fills). */
static int env_open(mev_store *s)
{
	/* MEV_STORE_MAP_BYTES: a smaller start, for testing the growth */
	const char *env = getenv("MEV_STORE_MAP_BYTES");
	size_t map = env && atol(env) > 0 ? (size_t)atol(env) : (size_t)256 << 20;
	struct stat sb;
	char path[4096];
	int rc;
	if ((rc = mev__store_check_datafile(s->dir, 0)))
		return rc;
	snprintf(path, sizeof path, "%s/lock.mdb", s->dir);
	if ((rc = reserve_lock(s->dir, path, "cannot open the store")))
		return rc;
	if ((rc = mdb_env_create(&s->env)))
		return mev__store_fail(rc, "cannot open the store");
	mdb_env_set_maxdbs(s->env, MEV__STORE_MAX_TABLES);
	mdb_env_set_maxreaders(s->env, max_readers());
	snprintf(path, sizeof path, "%s/data.mdb", s->dir);
	if (stat(path, &sb) == 0)
		while (map < (size_t)sb.st_size * 2)
			map *= 2;
	mdb_env_set_mapsize(s->env, map);
	rc = mdb_env_open(s->env, s->dir, (s->writable ? 0 : MDB_RDONLY) | MDB_NOTLS, 0666);
	if (rc == 0) {
		int dead;
		mdb_reader_check(s->env, &dead); /* the places of readers that died */
	}
	if (rc == MDB_INVALID || rc == MDB_VERSION_MISMATCH) {
		mev_error_set(MEV_ESTORE, "'%s' is not a maintevo store (or it is damaged): %s", s->dir,
			      mdb_strerror(rc));
		mev_error_hint("choose another directory with --store, or remove it to walk again");
		return MEV_ESTORE;
	}
	if (rc == EACCES || rc == EROFS) {
		mev_error_set(MEV_EIO, "cannot open store '%s': %s", s->dir, strerror(rc));
		mev_error_hint("check the permissions of the directory and of lock.mdb");
		return MEV_EIO;
	}
	return rc ? mev__store_write_fail(s->dir, rc, "cannot open the store", -1, 0) : 0;
}

/* Read the schema (writing it into a new store) and refuse any other. */
static int check_schema(mev_store *s, int st, unsigned flags)
{
	uint32_t schema;
	const char *why = "";
	int rc = read_schema(s, &schema, &why);
	MDB_stat ms;
	/* an LMDB environment, but not ours; an empty one is a store whose
	 * creation (by an older maintevo) was cut short */
	if (rc == MEV_EINVAL || (rc == MEV_ENOTFOUND && st == 2 && mdb_env_stat(s->env, &ms) == 0 &&
				 ms.ms_entries > 0)) {
		mev_error_set(MEV_ESTORE, "'%s' is not a maintevo store: '%s/data.mdb' is another program's "
			      "LMDB database (%s)", s->dir, s->dir, rc == MEV_EINVAL ? why
			      : "it has no meta/schema");
		mev_error_hint("choose another directory with --store");
		return MEV_ESTORE;
	}
	if (rc == MEV_ENOTFOUND) {
		if (!(flags & MEV_STORE_CREATE)) {
			mev_error_set(MEV_ENOTFOUND, "no maintevo store at '%s'", s->dir);
			mev_error_hint("walk a repository into it first: maintevo walk --repo REPO --store %s", s->dir);
			return MEV_ENOTFOUND;
		}
		if ((rc = mev__store_begin(s)) || (rc = write_schema(s)) || (rc = mev__store_commit(s)))
			return rc;
		schema = MEV_STORE_SCHEMA;
	} else if (rc) {
		return rc;
	}
	if (schema != MEV_STORE_SCHEMA) {
		mev_error_set(MEV_ESTORE, "store '%s' was written by schema %u, this build reads %d", s->dir,
			      schema, MEV_STORE_SCHEMA);
		if (schema > MEV_STORE_SCHEMA)
			mev_error_hint("use a newer maintevo, or walk into a new store");
		else
			mev_error_hint("walk again into a new store, or with --rebuild");
		return MEV_ESTORE;
	}
	return 0;
}

int mev_store_open(mev_store **out, const char *dir, unsigned flags)
{
	mev_store *s;
	int st = dir_state(dir), rc;

	*out = NULL;
	if ((rc = check_dir(dir, st, flags)) || (st <= 1 && (rc = create_datafile(dir))))
		return rc;
	s = calloc(1, sizeof *s);
	if (!s || !(s->dir = strdup(dir))) {
		free(s);
		return mev_error_oom();
	}
	pthread_rwlock_init(&s->maplock, NULL);
	s->writable = (flags & (MEV_STORE_WRITE | MEV_STORE_CREATE)) != 0;
	if (!(rc = env_open(s))) {
		mev__store_map_note(s);
		rc = check_schema(s, st, flags);
	}
	if (rc) {
		mev_store_free(s);
		return rc;
	}
	*out = s;
	return 0;
}

void mev_store_free(mev_store *s)
{
	if (!s)
		return;
	if (s->wtxn)
		mdb_txn_abort(s->wtxn);
	if (s->rtxn)
		mdb_txn_abort(s->rtxn);
	mev__store_map_forget(s);
	if (s->env)
		mdb_env_close(s->env);
	mev__buf_free(&s->scratch);
	mev__pack_free(&s->cctx);
	for (int i = 0; i < MEV__STORE_MAX_TABLES; i++) {
		mev__buf_free(&s->last[i].raw);
		mev__buf_free(&s->last[i].packed);
	}
	pthread_rwlock_destroy(&s->maplock);
	free(s->dir);
	free(s);
}

const char *mev_store_dir(const mev_store *s) { return s->dir; }

int mev_store_read_begin(mev_store *s)
{
	int rc;
	/* nested: the outer snapshot; in a write transaction: that one */
	if (s->rdepth++ > 0 || s->wtxn)
		return 0;
	if ((rc = txn_begin(s, &s->rtxn, MDB_RDONLY))) {
		s->rtxn = NULL;
		s->rdepth--;
	}
	return rc;
}

void mev_store_read_end(mev_store *s)
{
	if (!s || s->rdepth == 0 || --s->rdepth > 0)
		return;
	/* committing a read-only transaction keeps the table handles it opened */
	if (s->rtxn)
		mdb_txn_commit(s->rtxn);
	s->rtxn = NULL;
}

int mev__store_begin(mev_store *s)
{
	int rc;
	if (!s->writable)
		return mev_error_set(MEV_ESTORE, "store '%s' is open read-only", s->dir);
	if (s->wtxn)
		return mev_error_set(MEV_ESTORE, "a store transaction is already open");
	if (s->rtxn)
		return mev_error_set(MEV_ESTORE, "cannot write to the store while a read snapshot is held");
	if ((rc = grow_if_needed(s)))
		return rc;
	s->npending = 0;
	s->free_before = mev__store_free_space(s->dir);
	return txn_begin(s, &s->wtxn, 0);
}

int mev__store_commit(mev_store *s)
{
	int rc;
	if (!s->wtxn)
		return mev_error_set(MEV_ESTORE, "no store transaction to commit");
	rc = mdb_txn_commit(s->wtxn);
	s->wtxn = NULL;
	if (rc) {
		s->npending = 0;
		return mev__store_write_fail(s->dir, rc, "cannot commit to the store", s->free_before, 0);
	}
	for (int i = 0; i < s->npending && s->ntables < MEV__STORE_MAX_TABLES; i++) {
		memcpy(s->table_names[s->ntables], s->pending_names[i], sizeof s->table_names[0]);
		s->tables[s->ntables++] = s->pending[i];
	}
	s->npending = 0;
	return 0;
}

void mev__store_abort(mev_store *s)
{
	if (s->wtxn)
		mdb_txn_abort(s->wtxn);
	s->wtxn = NULL;
	s->npending = 0;
}

int mev_store_write(mev_store *s, int (*fn)(mev_store *s, void *ctx), void *ctx)
{
	int rc = MEV_ELIMIT;
	/* A full map aborts the transaction: grow it and do the work again
	 * (three tries: each doubles the map). */
	for (int attempt = 0; attempt < 3 && rc == MEV_ELIMIT; attempt++) {
		if ((rc = mev__store_begin(s)))
			return rc;
		if (!(rc = fn(s, ctx))) {
			/* the commit itself may need a page more (LMDB's free list) */
			if ((rc = mev__store_commit(s)) != MEV_ELIMIT)
				return rc;
		} else {
			mev__store_abort(s);
		}
		if (rc == MEV_ELIMIT) {
			int grc = mev__store_grow(s);
			if (grc)
				return grc;
		}
	}
	return rc;
}

/*
 * The holder of the writer's lock writes into walk.lock who it is: "pid
 * N" on a line, then its command line (arguments joined by spaces), so
 * that a command refused names the one it waits for.  The record stays
 * when the lock is let go; a reader believes it only while that process
 * lives.
 */
static void lock_record(int fd)
{
	char rec[600], args[512];
	size_t n = 0;
	int cf = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC), len;
	if (cf >= 0) {
		ssize_t r = read(cf, args, sizeof args - 1);
		n = r > 0 ? (size_t)r : 0;
		close(cf);
	}
	while (n && args[n - 1] == '\0')
		n--;
	args[n] = '\0';
	{
		/* the program by its name, not its path */
		char *slash = strrchr(args, '/');
		if (slash && (size_t)(slash - args) < strlen(args)) {
			size_t cut = (size_t)(slash + 1 - args);
			memmove(args, slash + 1, n - cut);
			n -= cut;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (args[i] == '\0' || args[i] == '\n')
			args[i] = ' ';
	args[n] = '\0';
	len = snprintf(rec, sizeof rec, "pid %ld\n%s\n", (long)getpid(), n ? args : "maintevo");
	if (ftruncate(fd, 0) == 0 && len > 0 &&
	    pwrite(fd, rec, (size_t)len < sizeof rec ? (size_t)len : sizeof rec - 1, 0) < 0) {
		/* no record: the message lists the commands that write */
	}
}

/* Who holds the lock of path, from its record: "'CMDLINE' (pid N)" into
 * out; 0 when the record is missing or its process is gone. */
static int lock_holder(char *out, size_t size, const char *path)
{
	char rec[600], *nl, *end;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, rec, sizeof rec - 1) : -1;
	long pid;
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return 0;
	rec[n] = '\0';
	if (strncmp(rec, "pid ", 4) != 0 || (pid = strtol(rec + 4, &end, 10)) <= 0 || *end != '\n')
		return 0;
	if (kill((pid_t)pid, 0) != 0 && errno != EPERM)
		return 0;
	if ((nl = strchr(end + 1, '\n')))
		*nl = '\0';
	snprintf(out, size, "'%.300s' (pid %ld)", end + 1, pid);
	return 1;
}

/* Try the lock once: 0 (taken), 1 (another process holds it) or an error. */
static int lock_try(int *fd, const char *path)
{
	*fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (*fd < 0)
		return mev_error_set(MEV_EIO, "cannot create '%s': %s", path, strerror(errno));
	if (flock(*fd, LOCK_EX | LOCK_NB) == 0) {
		lock_record(*fd);
		return 0;
	}
	close(*fd);
	*fd = -1;
	return 1;
}

int mev_store_lock_wait(int *fd, const char *dir, double seconds, volatile int *stop)
{
	char path[4096], who[400], holder[460];
	const struct timespec nap = { 0, 50 * 1000000L };
	const double until = mev__now() + seconds;
	int rc;
	snprintf(path, sizeof path, "%s/walk.lock", dir);
	while ((rc = lock_try(fd, path)) == 1 && mev__now() < until) {
		if (stop && *stop)
			return mev_error_set(MEV_EINTR, "interrupted while waiting for store '%s'", dir);
		nanosleep(&nap, NULL);
	}
	if (rc != 1)
		return rc;
	if (lock_holder(who, sizeof who, path))
		snprintf(holder, sizeof holder, "another maintevo command, %s,", who);
	else
		snprintf(holder, sizeof holder, "another maintevo command (walk, import-pasta, cluster, "
			 "track, flow or store repair)");
	if (seconds > 0)
		mev_error_set(MEV_ESTORE, "%s still writes to store '%s' after %g s", holder, dir, seconds);
	else
		mev_error_set(MEV_ESTORE, "%s is writing to store '%s'", holder, dir);
	mev_error_hint("run this again when it has finished (walk, cluster, track and flow wait with "
		       "--wait SECONDS); readers can use the store meanwhile");
	return MEV_ESTORE;
}

int mev_store_lock(int *fd, const char *dir)
{
	return mev_store_lock_wait(fd, dir, 0, NULL);
}
