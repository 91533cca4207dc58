/* Tests of linking two releases' clusters (mev__track_pair) and of the tracker's thresholds and keys. */
#include "test.h"
#include "track/track_internal.h"
#include "maintevo/error.h"
#include "maintevo/track.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static mev_track_params tp;

/* --- mev__track_pair on made-up overlaps ------------------------------------ */

typedef struct {
	size_t na, nb;
	double ca[8], cb[8], ta[8], tb[8];
	uint64_t la[8], lb[8];
	const char *ra[8], *rb[8];
	mev__overlap ov[16], tov[16];
	size_t nov, ntov;
	uint32_t lin[8];
} pair;

static mev__pair_out run(pair *p)
{
	mev__pair_in in = { 0 };
	mev__pair_out out;
	static const char *const names[] = { "C0", "C1", "C2", "C3", "C4", "C5", "C6", "C7" };
	for (size_t i = 0; i < 8; i++) {
		if (!p->ra[i])
			p->ra[i] = names[i];
		if (!p->rb[i])
			p->rb[i] = names[i];
		if (!p->lin[i])
			p->lin[i] = (uint32_t)i + 1;
	}
	in.na = p->na;
	in.nb = p->nb;
	in.ca = p->ca;
	in.cb = p->cb;
	in.la = p->la;
	in.lb = p->lb;
	in.rep_a = p->ra;
	in.rep_b = p->rb;
	in.ov = p->ov;
	in.nov = p->nov;
	in.ta = p->ta;
	in.tb = p->tb;
	in.tov = p->tov;
	in.ntov = p->ntov;
	in.lin_a = p->lin;
	in.next_lineage = 100;
	CHECK_INT(mev__track_pair(&out, &in, &tp), 0);
	return out;
}

/* The kind of the link a -> b (-1: none). */
static int kind(const mev__pair_out *o, uint32_t a, uint32_t b)
{
	for (size_t i = 0; i < o->nlinks; i++)
		if (o->links[i].a == a && o->links[i].b == b)
			return (int)o->links[i].kind;
	return -1;
}

static void test_identical(void)
{
	/* cluster 2's files are also covered by cluster 0: the cross overlaps
	 * must not turn into links */
	pair p = { .na = 3, .nb = 3, .ca = { 100, 50, 10 }, .cb = { 100, 50, 10 }, .la = { 100, 50, 10 },
		   .lb = { 100, 50, 10 },
		   .ov = { { 0, 0, 100 }, { 1, 1, 50 }, { 2, 2, 10 }, { 0, 2, 10 }, { 2, 0, 10 } }, .nov = 5 };
	mev__pair_out o = run(&p);
	CHECK_INT(o.nlinks, 3);
	for (uint32_t i = 0; i < 3; i++) {
		CHECK_INT(kind(&o, i, i), MEV_EVENT_CONTINUATION);
		CHECK_INT(o.lin_b[i], i + 1);
		CHECK_INT(o.par_b[i], 0);
	}
	CHECK_INT(o.next_lineage, 100);
	mev__pair_out_free(&o);
}

static void test_split_merge(void)
{
	/* 0 splits into 0 (60%) and 1 (40%); 1 and 2 merge into 2 */
	pair p = { .na = 3, .nb = 3, .ca = { 100, 70, 30 }, .cb = { 60, 40, 100 }, .la = { 100, 70, 30 },
		   .lb = { 80, 40, 100 },
		   .ov = { { 0, 0, 60 }, { 0, 1, 40 }, { 1, 2, 70 }, { 2, 2, 30 } }, .nov = 4,
		   .lin = { 7, 8, 9 } };
	mev__pair_out o = run(&p);
	CHECK_INT(o.nlinks, 4);
	CHECK_INT(kind(&o, 0, 0), MEV_EVENT_SPLIT);
	CHECK_INT(kind(&o, 0, 1), MEV_EVENT_SPLIT);
	CHECK_INT(kind(&o, 1, 2), MEV_EVENT_MERGE);
	CHECK_INT(kind(&o, 2, 2), MEV_EVENT_MERGE);
	/* the split's largest successor keeps the id, the other gets a new one */
	CHECK_INT(o.lin_b[0], 7);
	CHECK_INT(o.lin_b[1], 100);
	CHECK_INT(o.par_b[1], 7);
	/* the merge continues its largest predecessor */
	CHECK_INT(o.lin_b[2], 8);
	CHECK_INT(o.par_b[2], 0);
	CHECK_INT(o.next_lineage, 101);
	/* rows come by (from, to) */
	CHECK(o.links[0].a == 0 && o.links[0].b == 0 && o.links[3].a == 2);
	CHECK(fabs(o.links[0].sim - 0.6) < 1e-9);
	mev__pair_out_free(&o);
}

static void test_absorption(void)
{
	/* 1 (100 lines) is absorbed by the big 0: 97 of its lines are in
	 * files 0's successor covers, Jaccard only 0.08; 2 dies, 30% of it
	 * went to 0; 1 is born from 0's code (40% of it) and new code */
	pair p = { .na = 3, .nb = 2, .ca = { 1000, 100, 30 }, .cb = { 1127, 20 },
		   .la = { 1000, 100, 100 }, .lb = { 1127, 50 },
		   .ov = { { 0, 0, 1000, 1000, 1000 }, { 1, 0, 97, 97, 97 }, { 2, 0, 30, 30, 30 },
			   { 0, 1, 20, 20, 20 } },
		   .nov = 4, .lin = { 3, 4, 5 } };
	mev__pair_out o = run(&p);
	const mev__link *l;
	CHECK_INT(kind(&o, 0, 0), MEV_EVENT_MERGE);
	CHECK_INT(kind(&o, 1, 0), MEV_EVENT_MERGE);
	CHECK_INT(kind(&o, 2, MEV_CLUSTER_NONE), MEV_EVENT_DEATH);
	CHECK_INT(kind(&o, MEV_CLUSTER_NONE, 1), MEV_EVENT_BIRTH);
	CHECK_INT(o.lin_b[0], 3); /* the merge continues the largest predecessor */
	for (size_t i = 0; i < o.nlinks; i++) {
		l = &o.links[i];
		if (l->a == 1)
			CHECK(fabs(l->share - 0.97) < 1e-9 && fabs(l->sim - 97.0 / 1130) < 1e-9);
		if (l->kind == MEV_EVENT_DEATH)
			CHECK(l->partner == 0 && fabs(l->partner_share - 0.3) < 1e-9);
		if (l->kind == MEV_EVENT_BIRTH)
			CHECK(l->partner == 0 && fabs(l->partner_share - 0.4) < 1e-9);
	}
	mev__pair_out_free(&o);
	/* with --absorb 0.98 the 97% are not enough: 1 dies, its code went to 0 */
	tp.absorb = 0.98;
	o = run(&p);
	CHECK_INT(kind(&o, 1, MEV_CLUSTER_NONE), MEV_EVENT_DEATH);
	CHECK_INT(kind(&o, 0, 0), MEV_EVENT_GROWTH);
	mev__pair_out_free(&o);
	tp.absorb = 0.5;
}

static void test_birth_death_growth(void)
{
	/* 0 grows, 1 shrinks, 2 stays, 3 dies; 3 is born (new code only) */
	pair p = { .na = 4, .nb = 4, .ca = { 100, 100, 100, 0 }, .cb = { 100, 100, 100, 0 },
		   .la = { 100, 100, 100, 40 }, .lb = { 120, 85, 95, 60 },
		   .ov = { { 0, 0, 100 }, { 1, 1, 100 }, { 2, 2, 100 } }, .nov = 3 };
	mev__pair_out o = run(&p);
	CHECK_INT(kind(&o, 0, 0), MEV_EVENT_GROWTH);
	CHECK_INT(kind(&o, 1, 1), MEV_EVENT_CONTRACTION);
	CHECK_INT(kind(&o, 2, 2), MEV_EVENT_CONTINUATION);
	CHECK_INT(kind(&o, 3, MEV_CLUSTER_NONE), MEV_EVENT_DEATH);
	CHECK_INT(kind(&o, MEV_CLUSTER_NONE, 3), MEV_EVENT_BIRTH);
	CHECK_INT(o.lin_b[3], 100);
	CHECK_INT(o.par_b[3], 0);
	CHECK(isnan(o.links[o.nlinks - 1].sim));
	mev__pair_out_free(&o);
}

static void test_thresholds(void)
{
	/* a sliver (2% of 0) becomes cluster 1: below the Jaccard threshold it
	 * is a birth, with a low threshold a split */
	pair p = { .na = 1, .nb = 2, .ca = { 100 }, .cb = { 98, 2 }, .la = { 100 }, .lb = { 98, 2 },
		   .ov = { { 0, 0, 98 }, { 0, 1, 2 } }, .nov = 2 };
	mev__pair_out o = run(&p);
	CHECK_INT(kind(&o, 0, 0), MEV_EVENT_CONTINUATION);
	CHECK_INT(kind(&o, MEV_CLUSTER_NONE, 1), MEV_EVENT_BIRTH);
	mev__pair_out_free(&o);
	tp.link = 0.01;
	o = run(&p);
	CHECK_INT(kind(&o, 0, 1), MEV_EVENT_SPLIT);
	mev__pair_out_free(&o);
	mev_track_params_init(&tp);
	/* a weak overlap both ways (30% of each): no link under match 0.5 */
	{
		pair q = { .na = 1, .nb = 1, .ca = { 100 }, .cb = { 100 }, .la = { 100 }, .lb = { 100 },
			   .ov = { { 0, 0, 30 } }, .nov = 1 };
		o = run(&q);
		CHECK_INT(kind(&o, 0, 0), -1);
		CHECK_INT(o.nlinks, 2);
		mev__pair_out_free(&o);
		tp.match = 0.3;
		o = run(&q);
		CHECK_INT(kind(&o, 0, 0), MEV_EVENT_CONTINUATION);
		mev__pair_out_free(&o);
		mev_track_params_init(&tp);
	}
}

static void test_second_chance(void)
{
	/* cluster 1 covers no code (a section matching no file): titles link it;
	 * cluster 0 moved all its files: titles link it too */
	pair p = { .na = 2, .nb = 2, .ca = { 100, 0 }, .cb = { 100, 0 }, .la = { 100, 0 }, .lb = { 100, 0 },
		   .nov = 0, .ta = { 3, 1 }, .tb = { 3, 1 }, .tov = { { 0, 0, 3 }, { 1, 1, 1 } }, .ntov = 2 };
	mev__pair_out o = run(&p);
	CHECK_INT(kind(&o, 0, 0), MEV_EVENT_CONTINUATION);
	CHECK_INT(kind(&o, 1, 1), MEV_EVENT_CONTINUATION);
	CHECK_INT(o.nlinks, 2);
	mev__pair_out_free(&o);
}

static void test_no_code(void)
{
	/* cluster 0's code left the tree and its one surviving title is a
	 * section covering nothing (cluster 0 of the newer release): no link
	 * by titles, 0 dies, and the newer cluster 0, covering no code, is not
	 * born (a new lineage without an event); cluster 1 covered nothing and
	 * goes away: no death either */
	pair p = { .na = 2, .nb = 1, .ca = { 0, 0 }, .cb = { 0 }, .la = { 500, 0 }, .lb = { 0 },
		   .nov = 0, .ta = { 1, 1 }, .tb = { 1 }, .tov = { { 0, 0, 1 } }, .ntov = 1 };
	mev__pair_out o = run(&p);
	CHECK_INT(kind(&o, 0, 0), -1);
	CHECK_INT(kind(&o, 0, MEV_CLUSTER_NONE), MEV_EVENT_DEATH);
	CHECK_INT(kind(&o, 1, MEV_CLUSTER_NONE), -1);
	CHECK_INT(kind(&o, MEV_CLUSTER_NONE, 0), -1);
	CHECK_INT(o.nlinks, 1);
	CHECK_INT(o.lin_b[0], 100);
	CHECK_INT(o.next_lineage, 101);
	mev__pair_out_free(&o);
}

static void test_params(void)
{
	mev_track_params p;
	mev_track_params_init(&p);
	CHECK_INT(mev_track_params_check(&p), 0);
	p.link = 0;
	CHECK_ERR(mev_track_params_check(&p), MEV_EINVAL, "the link threshold must be in (0, 1], not 0");
	p.link = 0.1;
	p.match = 1.5;
	CHECK_ERR(mev_track_params_check(&p), MEV_EINVAL, "the match threshold must be in (0, 1], not 1.5");
	p.match = 0.5;
	p.growth = 0;
	CHECK_ERR(mev_track_params_check(&p), MEV_EINVAL, "the growth threshold must be positive, not 0");
	CHECK_STR(mev_event_name(MEV_EVENT_SPLIT), "split");
	CHECK_INT(mev_event_parse("contraction"), MEV_EVENT_CONTRACTION);
	CHECK_INT(mev_event_parse("explosion"), -1);
	CHECK_STR(mev_section_change_name(MEV_SECTION_RENAMED), "renamed");
	/* the key that names a result, and reading it back */
	{
		char k[256];
		mev_cluster_params cp;
		mev_track_params q;
		mev_cluster_params_init(&cp);
		mev_track_params_init(&p);
		p.link = 0.05;
		p.absorb = 1.0 / 3;
		mev_track_result_key(k, sizeof k, &cp, &p);
		CHECK_STR(k, "temporal:res=1:seed=1:tol=0.97:top=1/link=0.05:match=0.5:growth=0.1:"
			     "absorb=0.33333333333333331:gap=1");
		mev_track_params_init(&q);
		CHECK_INT(mev_track_params_parse(&q, strchr(k, '/') + 1), 0);
		CHECK(q.link == p.link && q.absorb == p.absorb && q.match == p.match);
		mev_track_result_key(k, sizeof k, &cp, NULL);
		CHECK_STR(k, "temporal:res=1:seed=1:tol=0.97:top=1/link=0.1:match=0.5:growth=0.1:absorb=0.5:gap=1");
		CHECK_ERR(mev_track_params_parse(&q, "link=0.1:size=3"), MEV_EINVAL, "unknown threshold 'size'");
		CHECK_ERR(mev_track_params_parse(&q, "absorb=2"), MEV_EINVAL, "absorb threshold must be in");
		CHECK_ERR(mev_track_params_parse(&q, "link"), MEV_EINVAL, "is not NAME=VALUE");
		mev_track_params_init(&q);
		CHECK_INT(mev_track_params_parse(&q, "gap=0:link=0.2"), 0);
		CHECK(q.gap == 0 && q.link == 0.2);
		CHECK_ERR(mev_track_params_parse(&q, "gap=9"), MEV_EINVAL, "of gap in tracker key");
		q.gap = -1;
		CHECK_ERR(mev_track_params_check(&q), MEV_EINVAL, "the gap must be 0 to 5 releases");
	}
}

int main(void)
{
	mev_track_params_init(&tp);
	RUN(test_params);
	RUN(test_identical);
	RUN(test_split_merge);
	RUN(test_birth_death_growth);
	RUN(test_absorption);
	RUN(test_thresholds);
	RUN(test_second_chance);
	RUN(test_no_code);
	return test_summary();
}
