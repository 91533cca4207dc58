#!/usr/bin/env bash
# make-scale-repo.sh CASE DIR N: build a repository that stresses one cost
# of maintevo (issue 9, point 9: cost stays near linear in the input).
#
#   titles N    one release (v1.0) whose MAINTAINERS has N sections all
#               titled "X" (each over its own file): the display titles
#               become "X", "X #2" .. "X #N"
#   tags N      N releases v1.0, v1.1 .. (1,000 minor versions a major), each
#               a commit that changes MAINTAINERS (one section's F: line),
#               on a tree of a few files
#   sections N  one release (v1.0) whose N sections all cover the same
#               directory (F: dir/): the overlap graph is complete, with
#               N*(N-1)/2 edges between sections
#   dense N     the same N sections over the 20 files of dir/ (v1.0), then
#               v1.1, which adds a file to dir/ and a section over it:
#               the complete graph in two releases, for track (issue 32)
#   regex N     two releases of N files with long lowercase names: v1.0,
#               and v1.1 whose MAINTAINERS adds 20 sections EVIL 1 .. 20,
#               each with a catastrophic N: regex such as
#               ^(([a-z])+.)+[A-Z]([a-z])+$ (at lines 13, 17, .. 89)
#
# Deterministic (fixed identities and dates) and fast: one `git fast-import`
# stream, no checkout (maintevo reads the object database only).  Used by
# tests/cli/test_scale.sh and for the measurements in docs/walking.md.
set -euo pipefail

die() { echo "make-scale-repo.sh: error: $*" >&2; exit 1; }
[ $# -eq 3 ] || { echo "usage: scripts/eval/make-scale-repo.sh titles|tags|sections|dense|regex DIR N" >&2; exit 2; }
case=$1 dir=$2 n=$3
case $n in '' | *[!0-9]*) die "N must be a number, not '$n'" ;; esac
if [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
	die "'$dir' exists and is not empty (remove it first)"
fi
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=/nonexistent LC_ALL=C TZ=UTC
git -c init.defaultBranch=master init -q "$dir"

t0=1577880000
# blob MARK: read the contents on stdin, write it as blob :MARK (commits
# are marks 1 .. N, blobs from 1000000 on).
blob() {
	local data
	data=$(cat; echo x)
	data=${data%x}
	printf 'blob\nmark :%s\ndata %d\n%s\n' "$1" "$(printf '%s' "$data" | wc -c)" "$data"
}
# commit MARK TIME: the header of a commit on master (its file lines follow).
commit() {
	printf 'commit refs/heads/master\nmark :%s\n' "$1"
	printf 'author A U Thor <author@example.org> %d +0000\n' "$2"
	printf 'committer C O Mitter <committer@example.org> %d +0000\n' "$2"
	printf 'data 7\nrelease\n'
}
# tag NAME MARK: a lightweight tag.
tag() { printf 'reset refs/tags/%s\nfrom :%s\n\n' "$1" "$2"; }

titles() {
	{
		printf 'THE REST\nM:\tA U Thor <author@example.org>\nS:\tBuried alive in reporters\nF:\t*\nF:\t*/\n'
		awk -v n="$n" 'BEGIN { for (i = 1; i <= n; i++) printf "\nX\nS:\tMaintained\nF:\tsrc/f%d.c\n", i }'
	} | blob 1000000
	printf 'int a;\n' | blob 1000001
	commit 1 $t0
	printf 'M 100644 :1000000 MAINTAINERS\nM 100644 :1000001 src/f1.c\nM 100644 :1000001 src/f2.c\n\n'
	tag v1.0 1
}

tags() {
	# one awk program: a shell loop forks too much for thousands of commits
	awk -v n="$n" -v t0=$t0 '
	function blob(mark, data) { printf "blob\nmark :%d\ndata %d\n%s\n", mark, length(data), data }
	BEGIN {
		blob(1000000, "int a;\n")
		for (i = 0; i < n; i++) {
			# the sections S0 .. S9 as always, REVISION over rev/r<i>
			m = "THE REST\nS:\tBuried alive in reporters\nF:\t*\nF:\t*/\n"
			for (k = 0; k < 10; k++)
				m = m sprintf("\nS%d\nS:\tMaintained\nF:\tdrivers/d%d/\n", k, k)
			m = m sprintf("\nREVISION\nS:\tMaintained\nF:\trev/r%d\n", i)
			blob(1000001 + i, m)
			printf "commit refs/heads/master\nmark :%d\n", i + 1
			printf "author A U Thor <author@example.org> %d +0000\n", t0 + 3600 * i
			printf "committer C O Mitter <committer@example.org> %d +0000\n", t0 + 3600 * i
			printf "data 7\nrelease\n"
			if (i == 0)
				printf "M 100644 :1000000 README\nM 100644 :1000000 drivers/d1/a.c\n"
			printf "M 100644 :%d MAINTAINERS\n\n", 1000001 + i
			printf "reset refs/tags/v%d.%d\nfrom :%d\n\n", int(i / 1000) + 1, i % 1000, i + 1
		}
	}'
}

sections() {
	{
		printf 'THE REST\nS:\tBuried alive in reporters\nF:\t*\nF:\t*/\n'
		awk -v n="$n" 'BEGIN { for (i = 1; i <= n; i++) printf "\nDIR %d\nS:\tMaintained\nF:\tdir/\n", i }'
	} | blob 1000000
	printf 'int a;\nint b;\n' | blob 1000001
	commit 1 $t0
	printf 'M 100644 :1000000 MAINTAINERS\n'
	for ((i = 0; i < 20; i++)); do printf 'M 100644 :1000001 dir/f%d.c\n' "$i"; done
	printf 'M 100644 :1000001 README\n\n'
	tag v1.0 1
}

dense() {
	sections
	printf 'THE REST\nS:\tBuried alive in reporters\nF:\t*\nF:\t*/\n\nDIR NEW\nS:\tMaintained\nF:\tdir/f20.c\n' |
		cat - <(awk -v n="$n" 'BEGIN { for (i = 1; i <= n; i++) printf "\nDIR %d\nS:\tMaintained\nF:\tdir/\n", i }') |
		blob 1000002
	printf 'int c;\n' | blob 1000003
	commit 2 $((t0 + 86400))
	printf 'from :1\nM 100644 :1000002 MAINTAINERS\nM 100644 :1000003 dir/f20.c\n\n'
	tag v1.1 2
}

regex() {
	awk -v n="$n" -v t0=$t0 '
	function blob(mark, data) { printf "blob\nmark :%d\ndata %d\n%s\n", mark, length(data), data }
	function commit(mark, time) {
		printf "commit refs/heads/master\nmark :%d\n", mark
		printf "author A U Thor <author@example.org> %d +0000\n", time
		printf "committer C O Mitter <committer@example.org> %d +0000\n", time
		printf "data 7\nrelease\n"
	}
	BEGIN {
		m = "THE REST\nS:\tBuried alive in reporters\nF:\t*\nF:\t*/\n\nLIB\nS:\tMaintained\n" \
		    "F:\tlib/\nN:\tparser\n\n"
		blob(1000000, m)
		for (k = 1; k <= 20; k++)
			m = m sprintf("EVIL %d\nS:\tMaintained\nN:\t^(([a-z])+.)+[A-Z]([a-z])+%c$\n\n", k,
				      96 + k)
		blob(1000001, m)
		blob(1000002, "int a;\n")
		commit(1, t0)
		printf "M 100644 :1000000 MAINTAINERS\n"
		for (i = 0; i < n; i++)
			printf "M 100644 :1000002 lib/abcdefghijklmnopqrstuvwxyz%05d.c\n", i
		printf "\nreset refs/tags/v1.0\nfrom :1\n\n"
		commit(2, t0 + 86400)
		printf "from :1\nM 100644 :1000001 MAINTAINERS\n\nreset refs/tags/v1.1\nfrom :2\n\n"
	}'
}

case $case in
titles | tags | sections | dense | regex) "$case" | git -C "$dir" fast-import --quiet ;;
*) die "unknown case '$case' (titles, tags, sections, dense or regex)" ;;
esac
# tags packed as a clone or `git gc` leaves them (not thousands of files)
git -C "$dir" pack-refs --all
