/* Tests of repeats: releases stored as another release of the same commit (src/release/alias.c). */
#include "test.h"
#include "release_test.h"
#include "store_internal.h"
#include "maintevo/error.h"
#include "maintevo/release.h"

/* A repeat (a period with no new commit): stored as its name alone, read
 * as the release it repeats; never a delta base; gone with its target's
 * old commit; damage when its target is missing, dropped by a repair. */
static void test_alias(void)
{
	mev_store *s = open_store("alias");
	mev_filemap *a = make_fm(50, 0, 0), *b = make_fm_holes(40, 1, 1, 1), *back = NULL;
	mev_graph *ga = NULL, *gb = NULL;
	mev_release_input in = { 0 };
	mev_release_check_result r;
	mev_release *list, *one = NULL;
	mev_oid c1 = { { 1 } }, c2 = { { 2 } };
	size_t n;

	CHECK_INT(mev_graph_build(&ga, a, NULL), 0);
	CHECK_INT(mev_graph_build(&gb, b, NULL), 0);
	CHECK_INT(mev__store_begin(s), 0);
	in.tag = "m@2024-01-31";
	in.commit = c1;
	in.time = 100;
	CHECK_INT(mev_release_put(s, &in, a, ga, NULL, NULL), 0);
	CHECK_INT(mev_release_put_alias(s, "m@2024-02-29", "m@2024-01-31", &c1, 100), 0);
	/* a repeat of a repeat repeats the release */
	CHECK_INT(mev_release_put_alias(s, "m@2024-03-31", "m@2024-02-29", &c1, 100), 0);
	/* the next one's table is a delta against the release, never a repeat */
	in.tag = "m@2024-04-30";
	in.commit = c2;
	CHECK_INT(mev_release_put(s, &in, b, gb, a, "m@2024-03-31"), 0);
	CHECK_INT(mev__store_commit(s), 0);
	CHECK(mev_release_is_alias(s, "m@2024-03-31") && !mev_release_is_alias(s, "m@2024-01-31"));
	CHECK_INT(mev_release_list(&list, &n, s), 0);
	CHECK(n == 4 && strcmp(list[1].tag, "m@2024-02-29") == 0 && strcmp(list[2].tag, "m@2024-03-31") == 0);
	CHECK(n == 4 && list[2].files == list[0].files && list[2].stored_bytes == 0);
	CHECK(n == 4 && strcmp(list[3].base, "m@2024-01-31") == 0);
	mev_release_list_free(list, n);
	CHECK_INT(mev_release_find(&one, s, "m@2024-03-31"), 0);
	CHECK(one && mev_oid_equal(&one->commit, &c1) && strcmp(one->tag, "m@2024-03-31") == 0);
	mev_release_free(one);
	CHECK_INT(mev_release_load_filemap(&back, s, "m@2024-03-31"), 0);
	CHECK(back && same_fm(back, a));
	mev_filemap_free(back);
	CHECK_INT(mev_release_load_filemap(&back, s, "m@2024-04-30"), 0);
	CHECK(back && same_fm(back, b));
	mev_filemap_free(back);
	CHECK_INT(mev_release_check(&r, s, MEV_RELEASE_CHECK_FULL), 0);
	CHECK(r.n == 0 && r.releases == 4);
	mev_release_check_free(&r);
	/* stored again as a release: no longer a repeat */
	CHECK_INT(mev__store_begin(s), 0);
	in.tag = "m@2024-03-31";
	in.commit = c1;
	CHECK_INT(mev_release_put(s, &in, a, ga, NULL, NULL), 0);
	CHECK_INT(mev__store_commit(s), 0);
	CHECK(!mev_release_is_alias(s, "m@2024-03-31"));
	/* the target stored again with another commit takes its repeats along */
	CHECK_INT(mev__store_begin(s), 0);
	in.tag = "m@2024-01-31";
	in.commit = c2;
	CHECK_INT(mev_release_put(s, &in, b, gb, NULL, NULL), 0);
	CHECK_INT(mev__store_commit(s), 0);
	CHECK(!mev_release_is_alias(s, "m@2024-02-29") && !mev_release_has(NULL, s, "m@2024-02-29"));
	/* a repeat whose release is gone: damage, dropped by a repair */
	CHECK_INT(mev__store_begin(s), 0);
	CHECK_INT(mev_release_put_alias(s, "m@2024-05-31", "m@2024-04-30", &c2, 100), 0);
	CHECK_INT(mev_store_delete(s, "releases", "m@2024-04-30", 12), 0);
	CHECK_INT(mev__store_commit(s), 0);
	CHECK_ERR(mev_release_list(&list, &n, s), MEV_ECORRUPT, "repeats a release that is not stored");
	CHECK_INT(mev_release_repair(&r, s, 0), 0);
	CHECK(r.n >= 1);
	mev_release_check_free(&r);
	CHECK_INT(mev_release_list(&list, &n, s), 0);
	for (size_t i = 0; i < n; i++)
		CHECK(strcmp(list[i].tag, "m@2024-05-31") != 0);
	mev_release_list_free(list, n);
	mev_graph_free(ga);
	mev_graph_free(gb);
	mev_filemap_free(a);
	mev_filemap_free(b);
	mev_store_free(s);
}

int main(void)
{
	dir = test_tmpdir("release_alias");
	RUN(test_alias);
	return test_summary();
}
