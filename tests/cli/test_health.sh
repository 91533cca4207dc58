# MAINTAINERS health over releases (export health, the new columns of
# releases, store check) on a repository built for it: a line no file even
# starts with (what get_maintainer.pl --self-test reports), one files start
# with at another depth only (the self-test passes it, it covers nothing),
# an N: found nowhere, the directory test, a repeated title, orphaned and
# obsolete code, uncovered code by directory; then a release whose health
# changes.
. "$(dirname "$0")/lib.sh" "$@"

mkrepo h
mkdir -p h/a/b h/x/y h/old h/lost/deep h/docs
printf 'int a;\n' > h/a/b/one.c
printf 'int z;\nint z;\n' > h/x/y/z.c
printf 'old\nold\nold\n' > h/old/gone.c
printf '1\n2\n3\n4\n' > h/lost/deep/file.c
printf 'top\n' > h/top.c
printf 'd\n' > h/docs/index.rst
sed 's/^\([A-Z]\): /\1:\t/' > h/MAINTAINERS <<'EOF'
Preamble

ALPHA
M: A <a@example.org>
S: Maintained
F: a/b
F: nothing/here.c
N: zzzz

XSTAR
M: X <x@example.org>
S: Maintained
F: x/*.c

OLD DRIVER
S: Obsolete
F: old/

ORPHANED
S: Orphan
F: docs/

ALPHA
M: B <b@example.org>
S: Maintained
F: a/
EOF
commit_all h v1.0

step "walk: the health record of each release"
expect_exit 0 "$MEV" walk --repo h --store S -q
expect_exit 0 "$MEV" export health --store S --format csv
expect_stdout <<'EOF'
release,check,section,display_name,type,value,file,line,directory,level,files,lines,share,self_test
v1.0,pattern_matches_nothing,ALPHA,ALPHA,F,nothing/here.c,MAINTAINERS,7,,,,,,1
v1.0,pattern_matches_nothing,ALPHA,ALPHA,N,zzzz,MAINTAINERS,8,,,,,,
v1.0,pattern_matches_nothing,XSTAR,XSTAR,F,x/*.c,MAINTAINERS,13,,,,,,0
v1.0,orphan_code,,,,,,,,,1,1,0.0263158,
v1.0,orphan_only_code,,,,,,,,,1,1,0.0263158,
v1.0,obsolete_code,,,,,,,,,1,3,0.0789474,
v1.0,obsolete_only_code,,,,,,,,,1,3,0.0789474,
v1.0,uncovered,,,,,,,.,0,2,27,1,
v1.0,uncovered,,,,,,,lost/,1,1,4,1,
v1.0,uncovered,,,,,,,lost/deep/,2,1,4,1,
v1.0,uncovered,,,,,,,x/,1,1,2,1,
v1.0,uncovered,,,,,,,x/y/,2,1,2,1,
v1.0,section_covers_nothing,XSTAR,XSTAR,,,MAINTAINERS,10,,,,,,
v1.0,section_without_maintainer,OLD DRIVER,OLD DRIVER,,,MAINTAINERS,15,,,1,3,0.0789474,
v1.0,section_without_maintainer,ORPHANED,ORPHANED,,,MAINTAINERS,19,,,1,1,0.0263158,
v1.0,section_orphan,ORPHANED,ORPHANED,,,MAINTAINERS,19,,,1,1,0.0263158,
v1.0,section_obsolete,OLD DRIVER,OLD DRIVER,,,MAINTAINERS,15,,,1,3,0.0789474,
v1.0,duplicate_title,ALPHA #2,ALPHA #2,,,MAINTAINERS,23,,,,,,
EOF

step "releases: the health columns at the end"
expect_exit 0 "$MEV" releases --store S
head -n 1 "$OUT" | grep -q ',rules,sections_covering_nothing,sections_obsolete,comment_titles,duplicate_titles,patterns_matching_nothing,orphan_lines,obsolete_lines,kind,commit_date,same_as,maintainers_files_not_read,listed_addresses,listed_never_seen,listed_quiet,listed_gone,listed_quiet_24,listed_gone_24$' ||
	fail "releases header"
tail -n 1 "$OUT" | grep -q ',1,1,0,1,3,1,3,tag,[0-9TZ:-]*,,0,,,,,,$' || fail "releases: health numbers of v1.0"

step "a new release: a file for x/*.c, the orphaned section gone; store check is clean"
printf 'int w;\n' > h/x/w.c
sed -i '/^ORPHANED$/,/^F:\tdocs\/$/d' h/MAINTAINERS
commit_all h v1.1
expect_exit 0 "$MEV" walk --repo h --store S -q
expect_exit 0 "$MEV" export health --store S --release v1.1 --format csv
! grep -q 'x/\*\.c' "$OUT" || fail "x/*.c still matches nothing"
grep -q '^v1.1,orphan_code,,,,,,,,,0,0,0,$' "$OUT" || fail "orphaned code left"
grep -q '^v1.1,uncovered,,,,,,,docs/,1,1,1,1,$' "$OUT" || fail "docs/ not uncovered"
expect_exit 0 "$MEV" store check --store S
[ ! -s "$ERR" ] || fail "store check: $(cat "$ERR")"

step "the report: the health of the two releases compared"
expect_exit 0 "$MEV" report --store S --format md
expect_stdout_contains "### MAINTAINERS health"
expect_stdout_contains "| F:, X: and N: lines that match no file | 3 | 2 | -1 |"
step "an imported release has no health record: the table says so, releases leaves its columns empty"
mkdir csvs
for t in v1.0 v1.1; do
	"$MEV" graph --store S --release $t --keep-rest |
		awk -F, 'NR == 1 { print "from,to,lines,size"; next } { print $1 "," $2 "," $3 "," $4 }' > csvs/$t.csv
done
expect_exit 0 "$MEV" import-pasta --store I csvs -q
expect_exit 0 "$MEV" export health --store I
grep -q '^v1.0,health_not_stored,,,,,,,,,,,,$' "$OUT" || fail "no health_not_stored row"
expect_exit 0 "$MEV" releases --store I
sed -n 2p "$OUT" | grep -q ',1,0,0,,,,,tag,1970-01-01T00:00:00Z,,,,,,,,$' || fail "releases of an import: $(sed -n 2p "$OUT")"
expect_exit 0 "$MEV" report --store I --format md
expect_stdout_contains "| F:, X: and N: lines that match no file | – | – |  |"
expect_stdout_contains "need the health a walk by this maintevo stores"
echo "PASS"
