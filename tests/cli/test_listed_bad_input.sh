# Bad input to the people's tables (issue 39, point 9): each case through
# every command it applies to (export listed, listed_sections, candidates,
# workload, all, report, chart): a clear message with a hint, the project's
# exit status (usage errors 2), and nothing half-written.  The planted
# history of test_listed.sh (tests/fixtures/people-repo.sh) again, so that
# the states a shallow clone makes unknown are known in advance.
. "$(dirname "$0")/lib.sh" "$@"
command -v python3 >/dev/null || skip "python3 is not installed"
. "$SRC/tests/fixtures/people-repo.sh"

tables="listed listed_sections candidates workload"

# no_output FILE: FILE was not written (and no temporary file of it is left).
no_output() {
	[ ! -e "$1" ] || fail "'$1' was written"
	! ls -a | grep -q "^\.$1\..*tmp\|^$1\..*tmp" || fail "a temporary file of '$1' is left: $(ls -a)"
}
# kept FILE: FILE still holds what keep_file put there.
keep_file() { echo "an older table" >"$1"; }
kept() { [ "$(cat "$1")" = "an older table" ] || fail "'$1' was touched"; }

step "a planted history, walked, clustered and tracked, without flow (noflow) and with (s)"
make_people_repo
expect_exit 0 "$MEV" walk --repo repo --store noflow -q
expect_exit 0 "$MEV" cluster --store noflow -q
expect_exit 0 "$MEV" track --store noflow -q
cp -r noflow walked # a copy to flow from shallow clones below
cp -r noflow s
expect_exit 0 "$MEV" flow --store s -q

step "a store without flow: each table refuses, with the hint to run flow, nothing written"
for t in $tables; do
	keep_file out.csv
	expect_exit 1 "$MEV" export "$t" --store noflow -o out.csv
	expect_error "store 'noflow' holds no patch flow"
	expect_stderr_contains "hint: run 'maintevo flow --store noflow' first"
	kept out.csv
	rm out.csv
	expect_exit 1 "$MEV" export "$t" --store noflow -o new.csv
	no_output new.csv
done
step "... export all writes the tables empty and says why; the report says to run flow; chart too"
expect_exit 0 "$MEV" export all --store noflow -o all.db
expect_stderr_contains "the workload, listed, listed_sections and candidates tables are empty: they need the patch flow (run 'maintevo flow')"
expect_exit 0 "$MEV" export all --store s -o all2.db
grep -q "tables are empty" "$ERR" && fail "export all with a flow says its tables are empty"
expect_exit 0 "$MEV" report --store noflow -o noflow.md
grep -q "needs the patch flow: run \`maintevo flow\`" noflow.md || fail "the report has no hint to run flow"
expect_exit 0 "$MEV" chart --store noflow -o noflow.html
expect_stderr_contains "chart: the panel lists no people: the store holds no patch flow (run 'maintevo flow --store noflow' first)"
expect_exit 0 "$MEV" chart --store s -o s.html
grep -q "panel lists no people" "$ERR" && fail "chart with a flow says it has no people"

step "--quiet-months that is not a whole number from 1 to 1200: a usage error everywhere it goes"
for q in 0 -1 abc 1e3 1.5 99999999999 1201 ''; do
	for t in listed listed_sections candidates; do
		expect_exit 2 "$MEV" export "$t" --store s --quiet-months "$q" -o out.csv
		expect_error "--quiet-months takes a whole number from 1 to 1200, not '$q'"
		expect_stderr_contains "hint: see 'maintevo export --help'"
		no_output out.csv
	done
	expect_exit 2 "$MEV" export all --store s --quiet-months "$q" -o out.db
	no_output out.db
done
expect_exit 2 "$MEV" export workload --store s --quiet-months 12
expect_error "--quiet-months goes with the listed, listed_sections and candidates tables only"

step "--people: bad rows, a handle twice, missing, a directory: usage errors naming FILE:LINE, nothing written"
printf '# handles\n\noctocat oct@ex.org\nbroken\n' >bad.txt
printf 'octocat oct@ex.org\nOctoCat other@ex.org\n' >twice.txt
printf 'octo@cat oct@ex.org\n' >at.txt
printf 'octocat oct@ex.org extra\n' >extra.txt
mkdir adir
for t in listed listed_sections candidates all; do
	o=out.csv
	[ "$t" != all ] || o=out.db
	keep_file "$o"
	expect_exit 2 "$MEV" export "$t" --store s --people bad.txt -o "$o"
	expect_error "bad.txt:4: expected 'HANDLE ADDRESS' (a handle without '@', then one address)"
	expect_stderr_contains "hint: one entry a line"
	kept "$o"
	rm "$o"
	expect_exit 2 "$MEV" export "$t" --store s --people twice.txt -o "$o"
	expect_error "twice.txt:2: 'octocat' is mapped twice"
	expect_exit 2 "$MEV" export "$t" --store s --people at.txt -o "$o"
	expect_error "at.txt:1: expected 'HANDLE ADDRESS'"
	expect_exit 2 "$MEV" export "$t" --store s --people extra.txt -o "$o"
	expect_error "extra.txt:1: expected 'HANDLE ADDRESS'"
	expect_exit 2 "$MEV" export "$t" --store s --people no-such.txt -o "$o"
	expect_error "cannot read 'no-such.txt': No such file or directory"
	expect_stderr_contains "hint: --people FILE: a file of lines 'HANDLE ADDRESS'"
	expect_exit 2 "$MEV" export "$t" --store s --people adir -o "$o"
	expect_error "cannot read 'adir': Is a directory"
	if [ "$(id -u)" != 0 ]; then
		printf 'octocat oct@ex.org\n' >locked.txt
		chmod 000 locked.txt
		expect_exit 2 "$MEV" export "$t" --store s --people locked.txt -o "$o"
		expect_error "cannot read 'locked.txt': Permission denied"
	fi
	no_output "$o"
done
step "... an empty --people file maps nothing: the same table as without"
: >empty.txt
for t in listed listed_sections candidates; do
	expect_exit 0 "$MEV" export "$t" --store s -o plain.csv
	expect_exit 0 "$MEV" export "$t" --store s --people empty.txt -o empty.csv
	cmp -s plain.csv empty.csv || fail "$t: an empty --people file changes the table"
done

step "--orgs: a key twice for the same time, a directory: usage errors, nothing written; an empty file maps nothing"
printf 'ex.org Acme\nidle.org Idle < 2021-01-01\nidle.org Other < 2021-01-01\n' >twice-orgs.txt
printf 'ex.org Acme\nex.org Other\n' >twice-open.txt
printf 'idle.org Later\nidle.org Early < 2021-01-01\n' >dated.txt
for t in workload all; do
	o=out.csv
	[ "$t" != all ] || o=out.db
	keep_file "$o"
	expect_exit 2 "$MEV" export "$t" --store s --orgs twice-orgs.txt -o "$o"
	expect_error "twice-orgs.txt:3: 'idle.org' is mapped twice for the same time (line 2 maps it first)"
	expect_stderr_contains "hint: each line is"
	expect_exit 2 "$MEV" export "$t" --store s --orgs twice-open.txt -o "$o"
	expect_error "twice-open.txt:2: 'ex.org' is mapped twice for the same time (line 1 maps it first)"
	expect_exit 2 "$MEV" export "$t" --store s --orgs adir -o "$o"
	expect_error "cannot read the --orgs file 'adir': Is a directory"
	kept "$o"
	rm "$o"
done
expect_exit 0 "$MEV" export workload --store s --orgs dated.txt -o dated.csv
expect_exit 0 "$MEV" export workload --store s -o plain.csv
expect_exit 0 "$MEV" export workload --store s --orgs empty.txt -o empty.csv
cmp -s plain.csv empty.csv || fail "an empty --orgs file changes the table"

step "a reversed range: refused by workload, report and chart, nothing written"
for c in "export workload" report chart; do
	# shellcheck disable=SC2086
	expect_exit 1 "$MEV" $c --store s --from v2.0 --to v1.0 -o out.txt
	expect_error "--from 'v2.0' comes after --to 'v1.0': the range is reversed"
	expect_stderr_contains "hint: releases are in version order, oldest first"
	no_output out.txt
done

step "a broken .mailmap: as git, bad lines ignored and a NUL ends its line; the mapping after it holds"
git clone -q repo mm
printf 'not a mailmap line\n<broken@\nNul Line <nul@x.org> <zed@old.org>\0junk\nZed New <zed@new.org> <zed@old.org>\n' >mm/.mailmap
git -C mm add .mailmap
GIT_AUTHOR_NAME=Zed GIT_AUTHOR_EMAIL=zed@old.org GIT_AUTHOR_DATE="2022-06-01T00:00:00 +0000" \
GIT_COMMITTER_DATE="2022-06-01T00:00:00 +0000" git -C mm commit -q -m "a broken mailmap"
GIT_COMMITTER_DATE="2022-06-02T00:00:00 +0000" git -C mm tag -a v3.0 -m v3.0
[ "$(git -C mm check-mailmap 'Zed <zed@old.org>')" = "Zed New <zed@new.org>" ] ||
	fail "git reads the mailmap otherwise: $(git -C mm check-mailmap 'Zed <zed@old.org>')"
expect_exit 0 "$MEV" walk --repo mm --store mms -q
expect_exit 0 "$MEV" flow --store mms -q
expect_exit 0 "$MEV" export commits --store mms --release v3.0
python3 - "$OUT" <<'PY' || fail "the author is not folded as git folds it"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["author"] for r in rows] == ["zed@new.org"], rows
PY
expect_exit 0 "$MEV" export listed --store mms --release v3.0

step "a shallow clone: walk refuses it (a store is named by the root commit it lacks)"
git clone -q --bare --shallow-since=2020-11-01 "file://$TMP/repo" cut.git
[ -s cut.git/shallow ] || skip "git made no shallow clone"
expect_exit 1 "$MEV" walk --repo cut.git --store shallow-walk
expect_error "'cut.git' is a shallow clone: its history stops at commit"
expect_stderr_contains "hint: fetch the whole history: 'git -C cut.git fetch --unshallow'"

step "flow --repo of a clone cut at Ida's commit of 2020-12-01: judged after the cut, warned, stored"
cp -r walked cut
expect_exit 0 "$MEV" flow --store cut --repo cut.git -q
expect_stderr_contains "maintevo: warning: the repository is a shallow clone: 1 commit at its cut not judged, the history before 2020-12-01 unknown"
expect_stderr_contains "hint: 'git fetch --unshallow' in the clone, then 'maintevo flow --rebuild'"
expect_exit 0 "$MEV" export commits --store cut
[ "$(($(wc -l <"$OUT") - 1))" = 5 ] || fail "the release range after the cut is not judged whole"
step "... listed: history_from, and 'unknown' where a state rests on months before it"
expect_exit 0 "$MEV" export listed --store cut --repo cut.git
awk -F, '{print $1","$3","$4","$12","$15}' "$OUT" >got.csv
cat >want.csv <<'EOF'
release,section,entry,state,history_from
v1.0,CORE,ann@core.org,unknown,2020-12-01T00:00:00Z
v1.0,CORE,pam@pre.org,unknown,2020-12-01T00:00:00Z
v1.0,CORE,rae@rev.org,unknown,2020-12-01T00:00:00Z
v1.0,DRV,dan@drv.org,unknown,2020-12-01T00:00:00Z
v1.0,DRV,nev@never.org,unknown,2020-12-01T00:00:00Z
v1.0,HND,octocat,unknown,2020-12-01T00:00:00Z
v1.0,IDLE,ida@idle.org,unknown,2020-12-01T00:00:00Z
v2.0,CORE,ann@core.org,active,2020-12-01T00:00:00Z
v2.0,CORE,pam@pre.org,unknown,2020-12-01T00:00:00Z
v2.0,CORE,rae@rev.org,gone,2020-12-01T00:00:00Z
v2.0,DRV,dan@drv.org,unknown,2020-12-01T00:00:00Z
v2.0,DRV,nev@never.org,unknown,2020-12-01T00:00:00Z
v2.0,HND,octocat,unknown,2020-12-01T00:00:00Z
v2.0,IDLE,ida@idle.org,quiet,2020-12-01T00:00:00Z
EOF
diff want.csv got.csv || fail "the states of a shallow clone's flow"
step "... listed_sections: DRV's maintainers are unknown, so it is not called orphaned in fact"
expect_exit 0 "$MEV" export listed_sections --store cut --repo cut.git --release v2.0
cut -d, -f3,7,11,14 "$OUT" >got.csv
printf 'section,maintainers_active,maintainers_unknown,orphaned_in_fact\nCORE,1,1,0\nDRV,0,2,0\nHND,0,1,0\nIDLE,0,0,0\n' >want.csv
diff want.csv got.csv || fail "listed_sections of a shallow clone's flow"
step "... flow --rebuild from the whole clone: history_from empty again, the states as planted"
expect_exit 0 "$MEV" flow --store cut --rebuild -q
expect_exit 0 "$MEV" export listed --store cut
awk -F, 'NR > 1 && $15 != "" {print}' "$OUT" | grep -q . && fail "history_from left after a whole flow"
expect_exit 0 "$MEV" export listed --store s
cp "$OUT" whole.csv
expect_exit 0 "$MEV" export listed --store cut
diff whole.csv "$OUT" || fail "the whole clone's states differ after a shallow flow"

step "flow --repo of a clone cut after v1.0: refused before anything is judged, with the day to fetch from"
git clone -q --bare --shallow-since=2021-01-01 "file://$TMP/repo" late.git
cp -r walked late
expect_exit 1 "$MEV" flow --store late --repo late.git
expect_error "the shallow clone lacks commit"
expect_stderr_contains "of release 'v1.0' (2020-12-15): its MAINTAINERS and commits cannot be read"
expect_stderr_contains "hint: fetch the history from before it: 'git fetch --shallow-since=2020-12-14' in the clone (or --unshallow)"
expect_exit 1 "$MEV" export listed --store late --repo late.git
expect_error "holds no patch flow"

step "flow --repo of the release tags alone at depth 1: every release commit at the cut, counted, nothing crashes"
git init -q --bare tags.git
git -C tags.git fetch -q --depth=1 "file://$TMP/repo" tag v1.0 tag v2.0
cp -r walked tags
expect_exit 0 "$MEV" flow --store tags --repo tags.git -q
expect_stderr_contains "2 commits at its cut not judged, the history before 2022-05-15 unknown"
expect_exit 0 "$MEV" export listed --store tags --repo tags.git
awk -F, 'NR > 1 {print $12","$15}' "$OUT" | sort -u >got.txt
printf 'unknown,2020-12-15T00:00:00Z\nunknown,2022-05-15T00:00:00Z\n' >want.txt
diff want.txt got.txt || fail "the states of a flow that judged nothing"
for t in listed_sections candidates workload; do
	expect_exit 0 "$MEV" export "$t" --store tags --repo tags.git
done
expect_exit 0 "$MEV" report --store tags -o tags.md

step "flow --repo of a shallow clone whose releases are on three branches: which holds which is found above the cut"
# v1.0 and v1.5 on side branches, v2.0 on master, each from a root of 2019
# that the clone lacks: libgit2 asked for the root to see that v2.0 holds
# neither ("cannot compare two commits' histories: object not found")
mkrepo two
printf 'CORE\nM:\tAnn Core <ann@core.org>\nF:\tcore/\n' >two/MAINTAINERS
mkdir two/core && echo start >two/core/a.c
git -C two add -A
GIT_AUTHOR_DATE="2019-01-01T00:00:00 +0000" GIT_COMMITTER_DATE="2019-01-01T00:00:00 +0000" git -C two commit -q -m root
git -C two checkout -q -b side
echo side >>two/core/a.c
GIT_AUTHOR_DATE="2020-06-01T00:00:00 +0000" GIT_COMMITTER_DATE="2020-06-01T00:00:00 +0000" git -C two commit -qam side
GIT_COMMITTER_DATE="2020-06-01T00:00:00 +0000" git -C two tag -a v1.0 -m v1.0
git -C two checkout -q -b side2 master
echo side2 >>two/core/a.c
GIT_AUTHOR_DATE="2020-09-01T00:00:00 +0000" GIT_COMMITTER_DATE="2020-09-01T00:00:00 +0000" git -C two commit -qam side2
GIT_COMMITTER_DATE="2020-09-01T00:00:00 +0000" git -C two tag -a v1.5 -m v1.5
git -C two checkout -q master
echo main >>two/core/a.c
GIT_AUTHOR_DATE="2021-01-01T00:00:00 +0000" GIT_COMMITTER_DATE="2021-01-01T00:00:00 +0000" git -C two commit -qam main
GIT_COMMITTER_DATE="2021-01-01T00:00:00 +0000" git -C two tag -a v2.0 -m v2.0
git clone -q --bare --no-single-branch --shallow-since=2020-01-01 "file://$TMP/two" two.git
expect_exit 0 "$MEV" walk --repo two --store two.store -q
expect_exit 0 "$MEV" flow --store two.store --repo two.git -q
expect_stderr_contains "3 commits at its cut not judged, the history before 2021-01-01 unknown"
echo "PASS"
