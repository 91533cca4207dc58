# flow-repo.sh: make_flow_repo DIR builds a history (tags v1.0, v2.0, v3.0) where
# every patch flow verdict and route is planted.  Sourced after lib.sh.
#
# Sections: NET-CORE (M: Nick, F: net/core/, net/common.h), NET-DRV (M: Dan,
# R: Rita, F: net/drv -- a folder without '/': the directory test makes it
# net/drv/ -- and net/common.h), both with T: git git://git.example.org/net.git;
# USB (M: Uma, T: https://git.example.org/usb.git next, F: usb/); THE REST
# (M: Linus).  .mailmap maps Nick Old <nick@old.org> to nick@net.org.
# Every commit's subject names it; tests/cli/test_flow.sh lists the verdicts.

# flow_commit DIR AUTHOR COMMITTER FILE MESSAGE: change FILE and commit it.
flow_commit() {
	local d=$1 author=$2 committer=$3 file=$4 msg=$5
	mkdir -p "$(dirname "$d/$file")"
	echo "$msg" >>"$d/$file"
	git -C "$d" add -A
	GIT_AUTHOR_NAME=${author% <*} GIT_AUTHOR_EMAIL=$(echo "$author" | sed 's/.*<\(.*\)>/\1/') \
	GIT_COMMITTER_NAME=${committer% <*} GIT_COMMITTER_EMAIL=$(echo "$committer" | sed 's/.*<\(.*\)>/\1/') \
		git -C "$d" commit -q -m "$msg"
	test_time=$((test_time + 3600))
	export GIT_AUTHOR_DATE="$test_time +0000" GIT_COMMITTER_DATE="$test_time +0000"
}

# flow_merge DIR BRANCH SUBJECT: merge BRANCH into master (no fast-forward).
flow_merge() {
	GIT_COMMITTER_NAME='Linus Top' GIT_COMMITTER_EMAIL=linus@top.org \
		git -C "$1" merge -q --no-ff --allow-unrelated-histories -m "$3" "$2"
	test_time=$((test_time + 3600))
	export GIT_AUTHOR_DATE="$test_time +0000" GIT_COMMITTER_DATE="$test_time +0000"
}

flow_maintainers() {
	sed 's/^\([A-Z]\): /\1:\t/' <<'EOF2'
NET-CORE
M: Nick Net <nick@net.org>
S: Maintained
T: git git://git.example.org/net.git
F: net/core/
F: net/common.h

NET-DRV
M: Dan Drv <dan@drv.org>
R: Rita Review <rita@rev.org>
S: Maintained
T: git git://git.example.org/net.git
F: net/drv
F: net/common.h

USB
M: Uma Usb <uma@usb.org>
S: Maintained
T: git https://git.example.org/usb.git next
F: usb/

THE REST
M: Linus Top <linus@top.org>
S: Buried alive in reporters
F: *
F: */
EOF2
}

make_flow_repo() {
	local d=$1 L='Linus Top <linus@top.org>' N='Nick Net <nick@net.org>'
	local U='Uma Usb <uma@usb.org>' D='Dora Dev <dora@dev.org>' A='Alice Auth <alice@ex.org>'
	mkrepo "$d"
	mkdir -p "$d"/net/core "$d"/net/drv "$d"/usb "$d"/misc
	flow_maintainers >"$d"/MAINTAINERS
	printf 'Nick Net <nick@net.org> Nick Old <nick@old.org>\n' >"$d"/.mailmap
	for f in net/core/a.c net/core/b.c net/drv/x.c net/drv/y.c net/common.h usb/u.c misc/m.c; do
		echo "/* $f */" >"$d/$f"
	done
	commit_all "$d" v1.0
	flow_commit "$d" "$A" "$N" net/core/a.c "c01 maintainer applies

Signed-off-by: Alice Auth <alice@ex.org>
Signed-off-by: Nick Net <nick@net.org>"
	flow_commit "$d" "$A" "$L" usb/u.c "c02 acked by the maintainer

Signed-off-by: Alice Auth <alice@ex.org>
Acked-by: Uma Usb <uma@usb.org>
Signed-off-by: Linus Top <linus@top.org>"
	flow_commit "$d" "$A" "$L" usb/u.c "c03 top applies alone

Signed-off-by: Alice Auth <alice@ex.org>
Signed-off-by: Linus Top <linus@top.org>"
	flow_commit "$d" "$A" "$L" misc/m.c "c04 only THE REST

Signed-off-by: Linus Top <linus@top.org>"
	git -C "$d" checkout -q -b net
	flow_commit "$d" "$A" 'Nick Old <nick@old.org>' net/core/b.c "c05 mailmapped maintainer

Signed-off-by: Nick Old <nick@old.org>"
	flow_commit "$d" "$D" "$D" net/drv/x.c "c06 reviewed by R

Signed-off-by: Dora Dev <dora@dev.org>
Reviewed-by: Rita Review <rita@rev.org>"
	git -C "$d" checkout -q master
	flow_merge "$d" net "Merge tag 'net-2020' of git://git.example.org/net"
	git -C "$d" checkout -q -b usb-next
	flow_commit "$d" "$U" "$U" usb/u.c "c07 maintainer in his tree

Signed-off-by: Uma Usb <uma@usb.org>"
	git -C "$d" checkout -q master
	flow_merge "$d" usb-next "Merge branch 'usb-next' of https://git.example.org/usb.git/ into master"
	git -C "$d" checkout -q -b misc
	flow_commit "$d" "$D" "$D" usb/u.c "c08 through an unlisted tree

Signed-off-by: Dora Dev <dora@dev.org>"
	git -C "$d" checkout -q master
	flow_merge "$d" misc "Merge branch 'misc' of git://elsewhere.org/dora"
	flow_commit "$d" "$A" "$N" net/drv/y.c "c09 maintainer of the same subsystem

Signed-off-by: Nick Net <nick@net.org>"
	flow_commit "$d" "$(printf 'J\366rg L <joerg@ex.org>')" "$N" net/core/a.c "$(printf 'c10 latin-1 name

Signed-off-by: J\366rg L <joerg@ex.org>
Signed-off-by: Nick Net <nick@net.org>')"
	flow_commit "$d" "$D" "$D" net/core/a.c "c11 malformed trailers

Signed-off-by Nick Net
Acked-by:"
	flow_commit "$d" "$A" 'Nick Net <NICK@Net.ORG>' net/common.h "c12 upper-case address

Signed-off-by: Alice Auth <alice@ex.org>"
	git -C "$d" tag -a v2.0 -m "release v2.0"
	sed -i 's/^M:\tUma Usb <uma@usb.org>$/M:\tUma Usb <uma@usb.org>\nM:\tDora Dev <dora@dev.org>/' \
		"$d"/MAINTAINERS
	flow_commit "$d" "$L" "$L" MAINTAINERS "c13 Dora maintains USB

Signed-off-by: Linus Top <linus@top.org>"
	flow_commit "$d" "$D" "$D" usb/u.c "c14 new maintainer applies

Signed-off-by: Dora Dev <dora@dev.org>"
	git -C "$d" checkout -q --orphan imported
	git -C "$d" rm -q -rf .
	flow_commit "$d" "$A" "$A" imported/z.c "c15 a root commit"
	git -C "$d" checkout -q master
	flow_merge "$d" imported "Merge branch 'imported'"
	git -C "$d" tag -a v3.0 -m "release v3.0"
}
