# MAINTAINERS files a release's script does not read (U-Boot v2021.10's
# hole of one release), on the three releases of
# tests/fixtures/unread-repo.sh: the count in releases, the files in export
# health, the mark in the report and the chart; then walk --files-as, which
# reads every release's files as another release's script finds them, kept
# in the store.
. "$(dirname "$0")/lib.sh" "$@"
. "$SRC/tests/fixtures/unread-repo.sh"
make_unread_repo u

# column NAME of releases, one value per release, space-separated
releases_column() {
	expect_exit 0 "$MEV" releases --store "$1" --format jsonl
	python3 -c 'import sys, json; print(" ".join(str(json.loads(l)[sys.argv[1]]) for l in sys.stdin))' \
		"$2" <"$OUT"
}

step "walk: each release read as its own script reads it; v2021.10 leaves the two board files unread"
expect_exit 0 "$MEV" walk --repo u --store S
expect_stderr_contains "maintevo: v2021.10: its get_maintainer.pl reads 1 MAINTAINERS file and leaves 2 of its tree unread ('board/x/MAINTAINERS', ...): their sections are not this release's"
[ "$(grep -c 'unread' "$ERR")" = 1 ] || fail "one note, for v2021.10"
[ "$(releases_column S maintainers_files)" = "3 1 3" ] || fail "files read: $(releases_column S maintainers_files)"
[ "$(releases_column S sections)" = "3 1 3" ] || fail "sections: $(releases_column S sections)"
[ "$(releases_column S maintainers_files_not_read)" = "0 2 0" ] ||
	fail "files not read: $(releases_column S maintainers_files_not_read)"

step "export health lists them, for v2021.10 only"
expect_exit 0 "$MEV" export health --store S
grep '^v[0-9.]*,maintainers_file_not_read,' "$OUT" | cut -d, -f1,7 >got.txt
expect_file got.txt <<'EOF'
v2021.10,board/x/MAINTAINERS
v2021.10,board/y/MAINTAINERS
EOF

step "the report marks v2021.10 and says why; the health comparison counts them"
expect_exit 0 "$MEV" cluster --store S -q
expect_exit 0 "$MEV" track --store S -q
expect_exit 0 "$MEV" report --store S --from v2021.07 --to v2021.10 --format markdown
expect_stdout_contains '| v2021.10 † |'
expect_stdout_contains 'v2021.10 leaves 2 unread'
expect_stdout_contains '| MAINTAINERS files of the tree its get_maintainer.pl does not read | 0 | 2 |'
grep -c '†' "$OUT" >n.txt
[ "$(cat n.txt)" -ge 2 ] || fail "the mark and its note"
grep -q 'v2021.07 †\|v2022.01 †' "$OUT" && fail "only v2021.10 is marked"
expect_exit 0 "$MEV" report --store S --from v2021.07 --to v2021.10 --format html
expect_stdout_contains 'v2021.10 †'

step "the chart: one mark, at v2021.10, whose tooltip says why; a legend line"
expect_exit 0 "$MEV" chart --store S --format svg
[ "$(grep -c 'class="unread-mark"' "$OUT")" = 1 ] || fail "one mark"
expect_stdout_contains 'class="unread-mark" data-release="1" data-unread="2"'
expect_stdout_contains '<title>v2021.10: its own get_maintainer.pl does not read 2 MAINTAINERS files of its tree'
expect_stdout_contains 'its script leaves MAINTAINERS</text>'

step "--top-level-only: every release leaves them unread, as asked: counted, but no note and no mark"
expect_exit 0 "$MEV" walk --repo u --store T --top-level-only
grep -q 'unread' "$ERR" && fail "no note with --top-level-only"
[ "$(releases_column T maintainers_files_not_read)" = "2 2 2" ] || fail "counted"
expect_exit 0 "$MEV" cluster --store T -q
expect_exit 0 "$MEV" track --store T -q
expect_exit 0 "$MEV" chart --store T --format svg
grep -q 'unread-mark' "$OUT" && fail "no mark with --top-level-only"
expect_exit 0 "$MEV" report --store T --format markdown
grep -q '†\|does not read' "$OUT" && fail "no mark in the report with --top-level-only"

step "walk --files-as v2022.01: every release reads the board files, none leaves one unread"
expect_exit 0 "$MEV" walk --repo u --store F --files-as v2022.01 -q
[ "$(releases_column F maintainers_files)" = "3 3 3" ] || fail "files read: $(releases_column F maintainers_files)"
[ "$(releases_column F sections)" = "3 3 3" ] || fail "sections: $(releases_column F sections)"
[ "$(releases_column F maintainers_files_not_read)" = "0 0 0" ] || fail "files not read"
expect_exit 0 "$MEV" releases --store F --format jsonl
[ "$(grep -c 'as v2022.01 finds them (--files-as)' "$OUT")" = 3 ] || fail "each release's rules say it"
expect_exit 0 "$MEV" store info --store F
expect_stdout_contains 'dialect:      uboot, MAINTAINERS files found as the script of v2022.01'
expect_exit 0 "$MEV" cluster --store F -q
expect_exit 0 "$MEV" track --store F -q
expect_exit 0 "$MEV" chart --store F --format svg
grep -q 'unread-mark' "$OUT" && fail "no mark without unread files"

step "the store keeps it: a walk without the option goes on, another one is refused"
git -C u tag v2022.04
expect_exit 0 "$MEV" walk --repo u --store F -q
[ "$(releases_column F maintainers_files)" = "3 3 3 3" ] || fail "v2022.04 read as v2022.01 finds files"
expect_exit 1 "$MEV" walk --repo u --store F --files-as v2021.10
expect_error "store 'F' was walked with --files-as 'v2022.01'; this walk asks for another"
expect_exit 1 "$MEV" walk --repo u --store S --files-as v2022.01
expect_error "store 'S' was walked with --files-as '(each release's own files)'"

step "what cannot be: a release the repository lacks (no store made), with --top-level-only"
expect_exit 1 "$MEV" walk --repo u --store N --files-as v1999.01
expect_error "--files-as 'v1999.01': unknown revision 'v1999.01'"
[ ! -e N ] || fail "a store was made"
expect_exit 2 "$MEV" walk --repo u --store N --files-as v2022.01 --top-level-only
expect_stderr_contains "--files-as and --top-level-only"
