# coreboot's real history ($MEV_REAL_DIR/coreboot+coreboot/repo, skipped
# without it): the file -> sections map
# of three releases spread over it equals what each release's own
# util/scripts/get_maintainer.pl answers for every file
# (scripts/eval/check-getmaintainer.sh), --dialect auto takes the tree for
# coreboot, and a walk of the three records the rules of each script.
. "$(dirname "$0")/lib.sh" "$@"
real_repo coreboot+coreboot
repo=$REAL
# 4.1: the first MAINTAINERS, the 2015 script (\C); 4.12: the 2017 one
# ([A-Z]), comment lines in the file; 26.06: the newest
revs="4.1 4.12 26.06"
command -v perl >/dev/null && command -v python3 >/dev/null ||
	skip "no perl or python3: the real script cannot run"
for r in $revs; do
	git --git-dir="$repo" rev-parse -q --verify "refs/tags/$r^{commit}" >/dev/null 2>&1 ||
		skip "no coreboot repository with tag $r at $repo"
done

for r in $revs; do
	step "coreboot $r: every file as util/scripts/get_maintainer.pl decides"
	MAINTEVO=$MEV bash "$SRC/scripts/eval/check-getmaintainer.sh" -j 2 "$repo" "refs/tags/$r" \
		>check.out 2>check.err || { cat check.out check.err >&2; fail "coreboot $r differs from its script"; }
	grep -q "files compared, \([0-9]*\) agree, 0 differ, 0 missing" check.out ||
		{ cat check.out >&2; fail "coreboot $r: no agreement line"; }
	cat check.out
done

step "--dialect auto: coreboot, with the rules of each release's script"
expect_exit 0 "$MEV" walk --repo "$repo" --store st --tags 4.1 --tags 4.12 --tags 26.06 -q
expect_exit 0 "$MEV" store info --store st
grep -q "coreboot" "$OUT" || fail "store info names no coreboot dialect"
expect_exit 0 "$MEV" releases --store st
python3 - "$OUT" <<'PY' || fail "releases: see above"
import csv, sys
rows = {r["release"]: r for r in csv.DictReader(open(sys.argv[1]))}
assert list(rows) == ["4.1", "4.12", "26.06"], list(rows)
assert "fields any byte" in rows["4.1"]["rules"], rows["4.1"]["rules"]
for t in rows:
    assert rows[t]["rules"].startswith("coreboot: files ./MAINTAINERS;"), rows[t]["rules"]
    assert "# lines read" in rows[t]["rules"], rows[t]["rules"]
    assert int(rows[t]["sections"]) > 0, rows[t]
assert "fields [A-Z]" in rows["26.06"]["rules"]
PY
echo "PASS"
