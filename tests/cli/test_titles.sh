# Titles that are not names (docs/matching.md): a QEMU-style tree whose
# script titles are an underline and a commented-out field line.  The
# title stays the key; display_name and title_kind sit beside it in
# 'sections' and the exports; a change of display name alone, and a
# commented-out maintainer that comes back, are no section changes, while
# a real rename still is one.
. "$(dirname "$0")/lib.sh" "$@"

# write_maintainers DIR HEADER BETA_M GAMMA: QEMU's default rules (no
# script in the tree) keep '#' lines, so "#M:" can be a title.
write_maintainers() {
	cat >"$1"/MAINTAINERS <<EOF
QEMU Maintainers
================

General Project Administration
------------------------------
M: Peter <p@example.org>
F: docs/admin.txt

$2
--------------
M: Richard <r@example.org>
F: hw/alpha/

BETA BOARD
$3
S: Orphan
F: hw/beta/

$4
M: Gail <g@example.org>
F: hw/gamma/
EOF
}

step "two releases: v1, then a new group header, a maintainer back, a rename"
mkrepo q
mkdir -p q/docs q/hw/alpha q/hw/beta q/hw/gamma q/hw/delta
touch q/qemu-options.hx
printf 'admin\n' >q/docs/admin.txt
printf 'a\na\n' >q/hw/alpha/a.c
printf 'b\nb\nb\n' >q/hw/beta/b.c
printf 'c\nc\nc\nc\n' >q/hw/gamma/c.c
printf 'd\n' >q/hw/delta/d.c
write_maintainers q "Alpha Machines" "#M: Gone <gone@example.org>" "GAMMA"
commit_all q v1.0.0
write_maintainers q "Alpha Boards" "M: Back <back@example.org>" "GAMMA DRIVERS"
printf '\nDELTA\nM: Dee <d@example.org>\nF: hw/delta/\n' >>q/MAINTAINERS
commit_all q v2.0.0

step "sections: the exact title, its display name and kind"
expect_exit 0 "$MEV" sections --repo q --rev v1.0.0
cat >want.csv <<'EOF'
section,file,line,status,maintainers,reviewers,lists,trees,patterns,display_name,title_kind
------------------------------,MAINTAINERS,5,,1,0,0,0,1,General Project Administration,underline
--------------,MAINTAINERS,10,,1,0,0,0,1,Alpha Machines,underline
#M: Gone <gone@example.org>,MAINTAINERS,15,Orphan,0,0,0,0,1,BETA BOARD,comment
GAMMA,MAINTAINERS,19,,1,0,0,0,1,GAMMA,name
EOF
expect_stdout <want.csv
expect_exit 0 "$MEV" sections --repo q --rev v1.0.0 --patterns
grep -qx -- '--------------,MAINTAINERS,12,F,hw/alpha/,hw/alpha/,Alpha Machines' "$OUT" ||
	fail "--patterns: no display_name"

step "walk, cluster, track"
expect_exit 0 "$MEV" walk --repo q --store S -q
expect_exit 0 "$MEV" track --store S
expect_stderr_contains "sections: 1 added, 0 removed, 1 renamed"

step "export sections: display_name and title_kind after the older columns"
expect_exit 0 "$MEV" export sections --store S --release v2.0.0
head -n 1 "$OUT" | grep -qx 'release,section,status,maintainers,reviewers,lists,trees,patterns,files,lines,bytes,cluster,representative,lineage,lineage_name,display_name,title_kind,representative_display_name' ||
	fail "sections header"
grep -q '^v2.0.0,--------------,.*,Alpha Boards,underline,' "$OUT" || fail "underline display in v2"
grep -q '^v2.0.0,BETA BOARD,.*,BETA BOARD,name,' "$OUT" || fail "BETA BOARD is a name in v2"
expect_exit 0 "$MEV" export sections --store S --release v1.0.0
grep -q '^v1.0.0,#M: Gone <gone@example.org>,Orphan,.*,BETA BOARD,comment,' "$OUT" || fail "comment display in v1"

step "section-changes: a display name alone, or a maintainer back, is no change"
expect_exit 0 "$MEV" section-changes --store S
cat >want.csv <<'EOF'
from_release,to_release,change,section,new_section,lines,coverage,display_name,new_display_name
v1.0.0,v2.0.0,added,DELTA,,1,,DELTA,
v1.0.0,v2.0.0,renamed,GAMMA,GAMMA DRIVERS,4,1,GAMMA,GAMMA DRIVERS
EOF
expect_stdout <want.csv

step "edges and graphs carry display names"
expect_exit 0 "$MEV" export graph --store S --release v1.0.0 --format json
grep -qF '{"id": "--------------", "display_name": "Alpha Machines"' "$OUT" || fail "graph json"
expect_exit 0 "$MEV" export graph --store S --release v1.0.0 --format dot
grep -qF 'label="Alpha Machines", name="--------------"' "$OUT" || fail "graph dot"

step "the report shows display names, not the keys"
expect_exit 0 "$MEV" report --store S --from v1.0.0 --to v2.0.0
grep -qF 'Alpha Boards' "$OUT" || fail "report: no display name"
! grep -qF -- '--------------' "$OUT" || fail "report: shows an underline key"
! grep -qF '#M: Gone' "$OUT" || fail "report: shows a comment key"
