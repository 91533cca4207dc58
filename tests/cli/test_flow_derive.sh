# maintevo flow derives a commit's MAINTAINERS set from its parent's (a file
# edited, added or deleted) instead of reading the whole tree: the verdicts
# must be those --whole-trees gives, including the directory test of a new
# F: line, one through a symbolic link (read from the whole tree after all),
# and File::Find's order of an added MAINTAINERS file.
. "$(dirname "$0")/lib.sh" "$@"
command -v python3 >/dev/null || skip "python3 is not installed"

# commit everything in r with subject $1, then move the clock a day on
c() {
	git -C r add -A
	git -C r commit -q -m "$1"
	test_time=$((test_time + 86400))
	export GIT_AUTHOR_DATE="$test_time +0000" GIT_COMMITTER_DATE="$test_time +0000"
}

step "a U-Boot-style history: every */MAINTAINERS is read"
mkrepo r
mkdir -p r/drivers/a r/drivers/b r/board/x r/board/w r/lib/real/sub
printf 'A DRIVER\nM:\tAnn <ann@example.org>\nF:\tdrivers/a/\n' >r/MAINTAINERS
printf 'BOARD X\nM:\tXavier <x@example.org>\nF:\tboard/x/\n' >r/board/x/MAINTAINERS
printf 'BOARD W\nM:\tWill <w@example.org>\nF:\tboard/\n' >r/board/w/MAINTAINERS
echo a >r/drivers/a/a.c; echo b >r/drivers/b/b.c; echo x >r/board/x/x.c
echo s >r/lib/real/sub/s.c; ln -s real r/lib/ln
c "first release"
git -C r tag v2020.01
# c1: a new section whose F: names a directory without its '/'
printf '\nB DRIVER\nM:\tBea <bea@example.org>\nF:\tdrivers/b\n' >>r/MAINTAINERS
c "c1 B DRIVER"
echo b2 >>r/drivers/b/b.c; c "c2 touch drivers/b"
# c3: a new board MAINTAINERS file, found between board/w and board/x
mkdir -p r/board/wa
printf 'BOARD WA\nM:\tWanda <wa@example.org>\nF:\tboard/wa/\n' >r/board/wa/MAINTAINERS
echo y >r/board/wa/wa.c; c "c3 add board/wa"
echo y2 >>r/board/wa/wa.c; c "c4 touch board/wa"
# c5: an F: line through a symbolic link: the whole tree answers
printf '\nLINKED\nM:\tLin <lin@example.org>\nF:\tlib/ln/sub\n' >>r/MAINTAINERS
c "c5 LINKED"
echo s2 >>r/lib/real/sub/s.c; c "c6 touch lib/real"
# c7: a board MAINTAINERS file goes
git -C r rm -q board/x/MAINTAINERS; c "c7 drop board/x"
echo x2 >>r/board/x/x.c; c "c8 touch board/x"
# c9..c11: 'F: lib/new' tested no; a file below it makes it a directory
printf '\nNEW LIB\nM:\tNel <nel@example.org>\nF:\tlib/new\n' >>r/MAINTAINERS
c "c9 NEW LIB"
mkdir -p r/lib/new; echo n >r/lib/new/n.c; c "c10 add lib/new/n.c"
echo n2 >>r/lib/new/n.c; c "c11 touch lib/new"
# c12, c13: a file below drivers/b, a directory already: the same set
echo c >r/drivers/b/c.c; c "c12 add drivers/b/c.c"
echo c2 >>r/drivers/b/c.c; c "c13 touch drivers/b"
# c14..c17: a board file repeats a title of the top file ("A DRIVER #2" in
# the whole set), and drops it again
printf '\nA DRIVER\nM:\tAl <al@example.org>\nF:\tboard/w/w.c\n' >>r/board/w/MAINTAINERS
c "c14 BOARD W repeats A DRIVER"
echo w >r/board/w/w.c; c "c15 add board/w/w.c"
printf 'BOARD W\nM:\tWill <w@example.org>\nF:\tboard/\n' >r/board/w/MAINTAINERS
c "c16 BOARD W alone again"
echo w2 >>r/board/w/w.c; c "c17 touch board/w/w.c"
# c18, c19: a board file that begins with a field line, which joins the
# section read before it (BOARD WA's)
mkdir -p r/board/wb
printf 'F:\tboard/wb/\n\nBOARD WB\nM:\tWeb <wb@example.org>\nF:\tboard/wb/wb.h\n' >r/board/wb/MAINTAINERS
c "c18 add board/wb"
echo wb >r/board/wb/wb.c; c "c19 add board/wb/wb.c"
# c20, c21: a link no F: value and no searched folder goes through, and
# an unread file named like one: the same set, nothing read again
ln -s real r/lib/ln2; c "c20 add link lib/ln2"
echo notes >r/lib/MAINTAINERS.txt; c "c21 add lib/MAINTAINERS.txt"
echo more >>r/lib/MAINTAINERS.txt; c "c22 edit lib/MAINTAINERS.txt"
# c23..c25: 'F: board/wc' tested no; board/wc/MAINTAINERS makes it a
# folder: the test is asked again (yes) and the file is read
printf '\nWC ALL\nM:\tWal <wal@example.org>\nF:\tboard/wc\n' >>r/MAINTAINERS
c "c23 WC ALL"
mkdir -p r/board/wc
printf 'BOARD WC\nM:\tWen <wc@example.org>\nF:\tboard/wc/wc.c\n' >r/board/wc/MAINTAINERS
c "c24 add board/wc/MAINTAINERS"
printf 'R:\tRob <rob@example.org>\n' >>r/board/wc/MAINTAINERS
c "c25 edit board/wc/MAINTAINERS"
# c26..c28: 'F: lib/ln2' names the link itself; while it points to a
# folder the test makes it lib/ln2/, which the link's own path is not in
printf '\nLN2\nM:\tLen <len@example.org>\nF:\tlib/ln2\n' >>r/MAINTAINERS
c "c26 LN2"
ln -sfn real/sub/s.c r/lib/ln2; c "c27 lib/ln2 to a file"
ln -sfn real/sub r/lib/ln2; c "c28 lib/ln2 to a folder again"
git -C r tag v2020.04

step "flow, derived and from whole trees"
expect_exit 0 "$MEV" walk --repo r --store s --dialect uboot -q
expect_exit 0 "$MEV" cluster --store s -q
cp -r s s2
expect_exit 0 "$MEV" flow --store s
grep -q "28 commits" "$ERR" || fail "summary"
# c1, c3, c7, c9, c10, c14, c16, c18, c23..c25 derived, c1, c3, c7 and c9
# spliced (c10 and c24 turn a directory test, c14 repeats a title and c16
# drops the repeat, c18 begins with a field line, which c23's base still
# holds); c5 tried, then read whole like the first parent; c21 adds a
# file named like a MAINTAINERS file (read whole, its set reused); c26's
# test meets a link and c27, c28 change that link (read whole); c12, c20
# and c22 keep their parent's set
grep -q "16 MAINTAINERS sets parsed (11 from a parent's set, 4 of those spliced onto a set parsed whole), 6 trees read whole" "$ERR" ||
	fail "not the sets derived"
expect_exit 0 "$MEV" flow --store s2 --whole-trees
grep -q "(0 from a parent's set," "$ERR" || fail "--whole-trees derived a set"
expect_exit 0 "$MEV" export commits --store s -o derived.csv
expect_exit 0 "$MEV" export commits --store s2 -o whole.csv
same_files derived.csv whole.csv

step "the sections of each commit"
git -C r log --format='%H %s' >subjects.txt
python3 - derived.csv subjects.txt <<'PY' || fail "sections differ"
import csv, sys
subj = dict(l.rstrip("\n").split(" ", 1) for l in open(sys.argv[2]))
want = {
 "c1": "",                      # MAINTAINERS alone: covered by no section's F:
 "c2": "B DRIVER",              # 'F: drivers/b' is a directory: drivers/b/
 "c3": "BOARD W",               # board/wa/ files, by BOARD W's board/ (BOARD WA not yet)
 "c4": "BOARD W | BOARD WA",
 "c6": "",                      # lib/ln/sub/ is a directory only through the link
 "c8": "BOARD W",               # BOARD X is gone
 "c10": "",                     # lib/new/n.c is one '/' deeper than 'lib/new'
 "c11": "NEW LIB",              # lib/new is a directory now: lib/new/
 "c13": "B DRIVER",
 "c15": "A DRIVER #2 | BOARD W",  # the repeat, numbered as in the whole set
 "c17": "BOARD W",
 "c19": "BOARD W | BOARD WA",     # board/wb/ is BOARD WA's line
 "c20": "",
 "c22": "",
 "c25": "BOARD W | WC ALL",     # board/wc is a directory now
 "c27": "",                     # lib/ln2/ then
 "c28": "LN2",                  # lib/ln2, a link to a file: read whole again
}
rows = {subj[r["commit"]].split()[0]: r["sections"] for r in csv.DictReader(open(sys.argv[1]))}
bad = [(k, rows.get(k), v) for k, v in want.items() if rows.get(k) != v]
for b in bad:
    print("commit %s: sections %r, want %r" % b)
sys.exit(1 if bad else 0)
PY
