# Closed standard descriptors (issue 9, point 2): started with 0, 1 or 2
# closed, a command opens them on /dev/null first, so that the store's
# files and output files never get descriptors 0-2 (progress text or CSV
# written into data.mdb or lock.mdb would destroy the store).
. "$(dirname "$0")/lib.sh" "$@"
. "$SRC/tests/fixtures/tiny-repo.sh"

make_tiny_repo r
printf 'int a;\nint a;\nint a;\nint a;\n' >r/drivers/net/a.c
commit_all r v2
expect_exit 0 "$MEV" walk --repo r --store ref --tags 'v*' -q
expect_exit 0 "$MEV" releases --store ref -o ref.csv
expect_exit 0 "$MEV" export sections --store ref -o ref-sections.csv

# closed WHICH CMD...: run CMD with the descriptors WHICH ("0 1 2", "1 2"
# ...) closed; the exit status in $status.  A sanitizer's report has no
# stderr to go to: it exits 86 instead of 1, which no case expects.
closed() {
	local which=$1 redir=
	shift
	last_cmd="$* (descriptors $which closed)"
	for fd in $which; do redir="$redir $fd>&-"; done
	status=0
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86" \
	UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=86" \
		eval "\"\$@\" $redir" || status=$?
	[ "$status" -ne 86 ] || fail "a sanitizer report (exit 86)"
}

# store_ok DIR: the store opens and lists the releases it should.
store_ok() {
	expect_exit 0 "$MEV" store info --store "$1"
	expect_stdout_contains "releases:     2 (v1 .. v2)"
	expect_exit 0 "$MEV" releases --store "$1" -o check.csv
	same_files ref.csv check.csv
	expect_exit 0 "$MEV" export sections --store "$1" -o check.csv
	same_files ref-sections.csv check.csv
}

step "walk with standard output and error closed: the store is whole"
closed "1 2" "$MEV" walk --repo r --store S1 --tags 'v*'
[ "$status" -eq 0 ] || fail "walk exit $status"
store_ok S1

step "walk with 0, 1 and 2 closed, with its progress and summary"
closed "0 1 2" "$MEV" walk --repo r --store S2 --tags 'v*'
[ "$status" -eq 0 ] || fail "walk exit $status"
store_ok S2

step "walk --rebuild with 1 and 2 closed: its note (the store open) goes nowhere"
# before: "maintevo: --rebuild: forgot ..." was written over data.mdb's first page
closed "1 2" "$MEV" walk --repo r --store S2 --tags 'v*' --rebuild
[ "$status" -eq 0 ] || fail "walk --rebuild exit $status"
if grep -qa 'forgot the' S2/*; then
	fail "the walk's note is in the store's files"
fi
store_ok S2

step "walk with standard error closed: the summary does not reach the store"
closed "2" "$MEV" walk --repo r --store S3 --tags 'v*' >walk.out
[ "$status" -eq 0 ] || fail "walk exit $status"
store_ok S3
if grep -qa 'release.* walked' S3/*; then
	fail "the walk's summary is in the store's files"
fi

step "releases with standard input and output closed: no CSV in lock.mdb"
cp -r S1 S4
closed "0 1" "$MEV" releases --store S4
[ "$status" -eq 0 ] || fail "releases exit $status"
if grep -qa 'release,position' S4/*; then
	fail "the CSV went into the store's files"
fi
store_ok S4

step "export -o FILE with 0, 1 and 2 closed: the file is right, the store intact"
closed "0 1 2" "$MEV" export sections --store S4 -o sections.csv
[ "$status" -eq 0 ] || fail "export exit $status"
same_files ref-sections.csv sections.csv
closed "0 1 2" "$MEV" export graph --store S4 --release v2 --format dot -o g.dot
[ "$status" -eq 0 ] || fail "export graph exit $status"
grep -q '^graph "v2" {$' g.dot || fail "g.dot"
store_ok S4

step "a failing command with 1 and 2 closed: exit 1, nothing written anywhere"
closed "1 2" "$MEV" export sections --store S4 --release nosuch -o none.csv
[ "$status" -eq 1 ] || fail "exit $status, expected 1"
[ ! -e none.csv ] || fail "none.csv made"
closed "1 2" "$MEV" releases --store missing
[ "$status" -eq 1 ] || fail "exit $status, expected 1"
[ ! -e missing ] || fail "a store 'missing' was made"
store_ok S4

step "track (clustering first) with 0, 1 and 2 closed"
closed "0 1 2" "$MEV" track --store S4
[ "$status" -eq 0 ] || fail "track exit $status"
expect_exit 0 "$MEV" lineages --store S4
expect_stdout_contains "lineage,name"
expect_exit 0 "$MEV" store info --store S4
expect_stdout_contains "releases:     2 (v1 .. v2)"
echo "PASS"
