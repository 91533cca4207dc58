/* Tests of which tags are releases, per dialect (their version order: test_release_order.c). */
#include "test.h"
#include "maintevo/dialect.h"

static void test_release_patterns(void)
{
	CHECK(mev_tag_is_release(MEV_DIALECT_LINUX, "v6.1", 0));
	CHECK(mev_tag_is_release(MEV_DIALECT_LINUX, "v2.6.39", 0));
	CHECK(!mev_tag_is_release(MEV_DIALECT_LINUX, "v6.1-rc3", 0));
	CHECK(mev_tag_is_release(MEV_DIALECT_LINUX, "v6.1-rc3", 1));
	CHECK(!mev_tag_is_release(MEV_DIALECT_LINUX, "v2.6.11.1", 0));
	CHECK(!mev_tag_is_release(MEV_DIALECT_LINUX, "6.1", 0));
	CHECK(!mev_tag_is_release(MEV_DIALECT_LINUX, "v6.1-foo", 1));
	CHECK(mev_tag_is_release(MEV_DIALECT_UBOOT, "v2024.01", 0));
	CHECK(!mev_tag_is_release(MEV_DIALECT_UBOOT, "v2024.01-rc1", 0));
	CHECK(mev_tag_is_release(MEV_DIALECT_UBOOT, "v2024.01-rc1", 1));
	CHECK(!mev_tag_is_release(MEV_DIALECT_UBOOT, "v6.1", 0));
	CHECK(!mev_tag_is_release(MEV_DIALECT_UBOOT, "u-boot-1.3.0", 0));
	CHECK(mev_tag_is_release(MEV_DIALECT_XEN, "RELEASE-4.22.0", 0));
	CHECK(!mev_tag_is_release(MEV_DIALECT_XEN, "xen-RELEASE-4.14.5", 0));
	CHECK(!mev_tag_is_release(MEV_DIALECT_XEN, "RELEASE-4.22", 0));
	CHECK(mev_tag_is_release(MEV_DIALECT_QEMU, "v8.2.0", 0));
	CHECK(!mev_tag_is_release(MEV_DIALECT_QEMU, "v8.2", 0));
}

int main(void)
{
	RUN(test_release_patterns);
	return test_summary();
}
