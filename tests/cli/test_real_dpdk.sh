# DPDK's real history ($MEV_REAL_DIR/DPDK+dpdk/repo; skipped without it or
# without the kernel's script):
# the file -> sections map of three releases spread over it equals what
# the kernel's get_maintainer.pl (Linux 6.12, the one DPDK's
# devtools/get-maintainer.sh is checked against) answers for every file
# (scripts/eval/check-getmaintainer.sh --script), --dialect auto takes the
# tree for DPDK, and the sections show the group headings, not their
# underlines.  The script: tag v6.12's of $MEV_REAL_DIR/linux5 (Debian's
# linux-source-6.12, docs/testing.md), else taken from
# /usr/src/linux-source-6.12.tar.xz (the same, installed).
. "$(dirname "$0")/lib.sh" "$@"
real_repo DPDK+dpdk
repo=$REAL
# v2.0.0: the first MAINTAINERS; v20.11: an LTS; v26.07: the newest
revs="v2.0.0 v20.11 v26.07"
command -v perl >/dev/null && command -v python3 >/dev/null ||
	skip "no perl or python3: the real script cannot run"
for r in $revs; do
	git --git-dir="$repo" rev-parse -q --verify "refs/tags/$r^{commit}" >/dev/null 2>&1 ||
		skip "no DPDK repository with tag $r at $repo"
done
script=$TMP/get_maintainer.pl
if ! git -C "$MEV_REAL_DIR/linux5" show v6.12:scripts/get_maintainer.pl >"$script" 2>/dev/null; then
	tarball=/usr/src/linux-source-6.12.tar.xz
	[ -f "$tarball" ] || skip "no kernel get_maintainer.pl (no $MEV_REAL_DIR/linux5 with v6.12, no $tarball: apt-get install linux-source-6.12)"
	tar -xJf "$tarball" --wildcards --no-anchored 'scripts/get_maintainer.pl' ||
		fail "cannot take scripts/get_maintainer.pl out of $tarball"
	script=$(find "$TMP" -path '*/scripts/get_maintainer.pl' | head -n 1)
fi
[ -f "$script" ] || skip "no kernel get_maintainer.pl at '$script'"

for r in $revs; do
	step "DPDK $r: every file as the kernel's get_maintainer.pl decides"
	MAINTEVO=$MEV bash "$SRC/scripts/eval/check-getmaintainer.sh" -j 2 --script "$script" "$repo" "refs/tags/$r" \
		>check.out 2>check.err || { cat check.out check.err >&2; fail "DPDK $r differs from the script"; }
	grep -q "files compared, \([0-9]*\) agree, 0 differ, 0 missing" check.out ||
		{ cat check.out >&2; fail "DPDK $r: no agreement line"; }
	cat check.out
done

step "--dialect auto: DPDK; sections shown by their headings"
expect_exit 0 "$MEV" walk --repo "$repo" --store st --tags v2.0.0 --tags v20.11 --tags v26.07 -q
expect_exit 0 "$MEV" releases --store st
python3 - "$OUT" <<'PY' || fail "releases: see above"
import csv, sys
rows = {r["release"]: r for r in csv.DictReader(open(sys.argv[1]))}
assert list(rows) == ["v2.0.0", "v20.11", "v26.07"], list(rows)
for t in rows:
    assert rows[t]["rules"].startswith("dpdk (the kernel's get_maintainer.pl): files ./MAINTAINERS;"), rows[t]["rules"]
    assert int(rows[t]["sections"]) > 0, rows[t]
PY
expect_exit 0 "$MEV" export sections --store st
python3 - "$OUT" <<'PY' || fail "export sections: see above"
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
under = [r for r in rows if r["title_kind"] == "underline"]
assert under, "no section under a group heading"
for r in rows:
    assert not re.fullmatch(r"[-=]+( #\d+)?", r["display_name"]), r
names = {(r["release"], r["display_name"]) for r in under}
assert ("v2.0.0", "Security Issues") in names, names
assert ("v26.07", "Networking Drivers") in names, names
PY
echo "PASS"
