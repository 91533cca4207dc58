/* Whose history a store holds (meta/identity, record I) and the blob-size cache ("blobs"). */
#include "release_internal.h"
#include "maintevo/error.h"
#include "maintevo/version.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int identity_damaged(mev_store *s, int rc)
{
	if (rc == MEV_ECORRUPT)
		mev_error_hint("whose history the store holds is lost: 'maintevo store repair --store %s' "
			       "drops it with every release, and the next walk starts over", mev_store_dir(s));
	return rc;
}

int mev_release_identity_get(mev_identity *id, mev_store *s)
{
	void *val;
	size_t len, n;
	const char *p;
	mev__record_reader r;
	int rc = mev_store_get_record(&val, &len, s, "meta", 'I', "identity", 8);
	memset(id, 0, sizeof *id);
	if (rc == MEV_ECORRUPT)
		mev_error_prefix("the store's identity record");
	if (rc)
		return identity_damaged(s, rc);
	mev__record_reader_init(&r, val, len);
	id->schema = (uint32_t)mev__get_uv(&r);
#define GETS(field) do { p = mev__get_str(&r, &n); \
	snprintf(id->field, sizeof id->field, "%.*s", (int)n, p); } while (0)
	GETS(repo);
	mev__get_bytes(id->root.id, &r, 20);
	GETS(dialect);
	GETS(tags);
	GETS(exclude);
	id->rc = (int)mev__get_uv(&r);
	id->top_level_only = (int)mev__get_uv(&r);
	id->created = mev__get_sv(&r);
	GETS(version);
	id->tags_too = 1;
	if (!r.bad && r.p < r.end) { /* written by a maintevo that walks branches */
		GETS(branch);
		id->every = (int)mev__get_uv(&r);
		id->since = mev__get_sv(&r);
		id->tags_too = (int)mev__get_uv(&r);
	}
	/* trailing fields, in the order they were added: each is there when it
	 * or one after it is set (mev_release_identity_set) */
	if (!r.bad && r.p < r.end) /* written by a maintevo that walks maintenance lines */
		GETS(line);
	if (!r.bad && r.p < r.end) /* walked with --files-as */
		GETS(files_as);
#undef GETS
	if (r.bad)
		rc = mev_error_set(MEV_ECORRUPT, "the store's identity record is damaged");
	free(val);
	return identity_damaged(s, rc);
}

int mev_release_reads_top_level_only(mev_store *s)
{
	mev_identity id;
	if (mev_release_identity_get(&id, s)) {
		mev_error_clear();
		return 0;
	}
	return id.top_level_only != 0;
}

/* The message of mev_release_repo_holds(): `lacks` of the n releases in
 * list have no commit in the repository, list[first] the oldest of them. */
static int lacks_commits(mev_store *s, const char *path, const mev_release *list, size_t n,
			 size_t lacks, size_t first)
{
	mev_identity id;
	char hex[41], stored[1024] = "";
	/* the store's own repository, read before the message is set */
	if (mev_release_identity_get(&id, s) == 0 && strcmp(id.repo, path))
		snprintf(stored, sizeof stored, "%s", id.repo);
	mev_oid_fmt(hex, &list[first].commit);
	if (lacks == n)
		mev_error_set(MEV_ESTORE, "repository '%s' does not hold the releases of store '%s': it "
			      "has none of their commits (release %s is commit %.12s)", path, mev_store_dir(s),
			      list[first].tag, hex);
	else
		mev_error_set(MEV_ESTORE, "repository '%s' lacks the commits of %zu of the %zu releases of "
			      "store '%s' (release %s is commit %.12s)", path, lacks, n, mev_store_dir(s),
			      list[first].tag, hex);
	if (stored[0])
		mev_error_hint("pass the repository the store was walked from (--repo %s, as the store "
			       "records it), or a clone of it that has these commits", stored);
	else
		mev_error_hint("pass the repository the store was walked from, or a clone of it that has "
			       "these commits (git fetch them)");
	return MEV_ESTORE;
}

int mev_release_repo_holds(mev_repo *repo, const char *path, mev_store *s)
{
	mev_release *list = NULL;
	size_t n = 0, lacks = 0, first = 0;
	int rc = mev_release_list(&list, &n, s);
	if (rc)
		return rc;
	for (size_t i = n; i-- > 0;)
		if (!mev_repo_has_commit(repo, &list[i].commit)) {
			lacks++;
			first = i;
		}
	if (lacks)
		rc = lacks_commits(s, path, list, n, lacks, first);
	mev_release_list_free(list, n);
	return rc;
}

int mev_release_identity_set(mev_store *s, const mev_identity *id)
{
	mev_buf b = MEV_BUF_INIT;
	int rc = 0;
	rc |= mev__put_uv(&b, MEV_STORE_SCHEMA);
	rc |= mev__put_cstr(&b, id->repo);
	rc |= mev__buf_put(&b, id->root.id, 20);
	rc |= mev__put_cstr(&b, id->dialect);
	rc |= mev__put_cstr(&b, id->tags);
	rc |= mev__put_cstr(&b, id->exclude);
	rc |= mev__put_uv(&b, (uint64_t)id->rc);
	rc |= mev__put_uv(&b, (uint64_t)id->top_level_only);
	rc |= mev__put_sv(&b, id->created ? id->created : (int64_t)time(NULL));
	rc |= mev__put_cstr(&b, id->version[0] ? id->version : mev_version());
	if (id->branch[0] || id->line[0] || id->files_as[0]) {
		/* a store of tags alone writes an empty branch before the fields after it */
		rc |= mev__put_cstr(&b, id->branch);
		rc |= mev__put_uv(&b, (uint64_t)(id->branch[0] ? id->every : 0));
		rc |= mev__put_sv(&b, id->branch[0] ? id->since : 0);
		rc |= mev__put_uv(&b, (uint64_t)(id->branch[0] ? id->tags_too : 1));
	}
	if (id->line[0] || id->files_as[0]) /* empty: the dialect's default line */
		rc |= mev__put_cstr(&b, id->line);
	if (id->files_as[0])
		rc |= mev__put_cstr(&b, id->files_as);
	if (rc)
		rc = mev_error_oom();
	else
		rc = mev_store_put_record(NULL, s, "meta", 'I', 3, "identity", 8, b.ptr, b.len);
	mev__buf_free(&b);
	return rc;
}

/*
 * --- blobs: oid -> lines, bytes ------------------------------------------------
 *
 * Raw values (read for every blob a walk meets): two varints and the
 * CRC-32 of the blob id and those varints, 4 bytes little-endian.  A value
 * of two varints alone was written before the check existed: unknown.
 */

static uint32_t crc32(uint32_t crc, const unsigned char *p, size_t n)
{
	crc = ~crc;
	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = crc >> 1 ^ (0xEDB88320u & (0u - (crc & 1)));
	}
	return ~crc;
}

static uint32_t blob_check(const mev_oid *oid, const void *sizes, size_t n)
{
	return crc32(crc32(0, oid->id, 20), sizes, n);
}

int mev__blob_decode(uint64_t *lines, uint64_t *bytes, const mev_oid *oid, const void *val,
		     size_t len)
{
	const unsigned char *c;
	size_t n;
	mev__record_reader r;
	char hex[41];
	mev__record_reader_init(&r, val, len);
	*lines = mev__get_uv(&r);
	*bytes = mev__get_uv(&r);
	n = (size_t)(r.p - (const unsigned char *)val);
	c = r.p;
	if (!r.bad && n == len)
		return 0; /* no check: from before it existed, measured again */
	if (!r.bad && n + 4 == len &&
	    (c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16 | (uint32_t)c[3] << 24) ==
		    blob_check(oid, val, n))
		return 1;
	mev_oid_fmt(hex, oid);
	return mev_error_set(MEV_ECORRUPT, "the stored size of blob %s is damaged", hex);
}

int mev_release_blob_get(uint64_t *lines, uint64_t *bytes, mev_store *s, const mev_oid *oid)
{
	void *val;
	size_t len;
	int rc = mev_store_get_record(&val, &len, s, "blobs", MEV_STORE_RAW, oid->id, 20);
	if (rc)
		return rc == MEV_ENOTFOUND ? 0 : rc;
	rc = mev__blob_decode(lines, bytes, oid, val, len);
	free(val);
	return rc;
}

int mev_release_blob_peek(uint64_t *lines, uint64_t *bytes, mev_store_view *v, const mev_oid *oid)
{
	const void *val;
	size_t len;
	uint64_t l, b;
	int rc;
	if (!mev_store_view_get(&val, &len, v, oid->id, 20))
		return 0;
	/* the check's message, if it fails, is not this thread's to give */
	rc = mev__blob_decode(&l, &b, oid, val, len);
	if (rc != 1) {
		mev_error_clear();
		return rc < 0 ? -1 : 0;
	}
	*lines = l;
	*bytes = b;
	return 1;
}

int mev_release_blob_put(mev_store *s, const mev_oid *oid, uint64_t lines, uint64_t bytes)
{
	mev_buf b = MEV_BUF_INIT;
	int rc = mev__put_uv(&b, lines) || mev__put_uv(&b, bytes) ? mev_error_oom() : 0;
	if (!rc) {
		uint32_t c = blob_check(oid, b.ptr, b.len);
		unsigned char le[4] = { (unsigned char)c, (unsigned char)(c >> 8),
					(unsigned char)(c >> 16), (unsigned char)(c >> 24) };
		rc = mev__buf_put(&b, le, 4) ? mev_error_oom() : 0;
	}
	if (!rc)
		rc = mev_store_put_record(NULL, s, "blobs", MEV_STORE_RAW, 0, oid->id, 20, b.ptr, b.len);
	mev__buf_free(&b);
	return rc;
}
