# walk's line of releases (issue 40, point 9; docs/walking.md, "One line of
# releases"): on a history whose maintenance line 1.0 goes on while v1.1 and
# v1.2 come out, the default walks the line of development only (each
# release dated after the one before), --line 1.0 walks the maintenance line
# into a store of its own and keeps to it, --tags that mixes them names the
# releases that go back in time, and a --line that names no line is refused
# with the lines there are.
. "$(dirname "$0")/lib.sh" "$@"

# at DAY: the next commit's dates (noon UTC of DAY)
at() {
	export GIT_AUTHOR_DATE="$1T12:00:00Z" GIT_COMMITTER_DATE="$1T12:00:00Z"
}

# release DAY TAG FILE: change FILE, commit at DAY, tag TAG
release() {
	at "$1"
	echo "$2" >>"repo/$3"
	git -C repo add -A
	git -C repo commit -q -m "$2"
	git -C repo tag -a "$2" -m "release $2"
}

step "a history: v1.0, v1.1, v1.2 on master; v1.0.1 and v1.0.2 on maint, made beside them"
mkrepo repo
mkdir -p repo/core repo/drv
printf 'CORE\nM:\tAnn <ann@core.org>\nF:\tcore/\n\nDRV\nM:\tDan <dan@drv.org>\nF:\tdrv/\n' >repo/MAINTAINERS
release 2020-01-01 v1.0 core/c.c
git -C repo checkout -q -b maint
release 2020-02-15 v1.0.1 core/c.c
git -C repo checkout -q master
release 2020-02-01 v1.1 drv/d.c
release 2020-03-01 v1.2 drv/d.c
git -C repo checkout -q maint
release 2020-04-01 v1.0.2 core/c.c
git -C repo checkout -q master
# in version order v1.0 v1.0.1 v1.0.2 v1.1 v1.2: v1.1 and v1.2 are dated before v1.0.2

step "the default: the line of development, in time order, no note"
expect_exit 0 "$MEV" walk --repo repo --store main
expect_stderr_contains "3 releases walked, 0 already stored, 3 release tags in all"
if grep -q 'back in time' "$ERR"; then fail "a note on the line of development"; fi
expect_exit 0 "$MEV" releases --store main
[ "$(cut -d, -f1 "$OUT" | tail -n +2 | tr '\n' ' ')" = "v1.0 v1.1 v1.2 " ] ||
	fail "releases: $(cut -d, -f1 "$OUT" | tr '\n' ' ')"

step "--line 1.0: the release the line starts from and its maintenance releases"
expect_exit 0 "$MEV" walk --repo repo --store maint --line 1.0
expect_stderr_contains "3 releases walked, 0 already stored, 3 release tags in all"
if grep -q 'back in time' "$ERR"; then fail "a note on line 1.0"; fi
expect_exit 0 "$MEV" releases --store maint
[ "$(cut -d, -f1 "$OUT" | tail -n +2 | tr '\n' ' ')" = "v1.0 v1.0.1 v1.0.2 " ] ||
	fail "releases: $(cut -d, -f1 "$OUT" | tr '\n' ' ')"
expect_exit 0 "$MEV" store info --store maint
expect_stdout_contains "tags:         maintenance line 1.0 of the dialect's releases"

step "the store keeps its line: a later walk without --line goes on with it"
release 2020-05-01 v1.0.3 core/c.c
git -C repo checkout -q master
expect_exit 0 "$MEV" walk --repo repo --store maint
expect_stderr_contains "1 release walked, 3 already stored, 4 release tags in all"
expect_exit 0 "$MEV" walk --repo repo --store main
expect_stderr_contains "0 releases walked, 3 already stored, 3 release tags in all"

step "another line, or --line on a store of the line of development, is refused"
expect_exit 1 "$MEV" walk --repo repo --store maint --line 1.1
expect_error "store 'maint' was walked with --line '1.0'"
expect_exit 1 "$MEV" walk --repo repo --store main --line 1.0
expect_error "was walked with --line '(none: the line of development)'"

step "--line that names no line: refused, with the lines there are, and no store made"
expect_exit 1 "$MEV" walk --repo repo --store none --line 2.0
expect_error "--line '2.0' names no line of 'repo' (dialect linux)"
expect_stderr_contains "its lines with maintenance releases: 1.0; a line is named by the release it starts from"
expect_exit 1 "$MEV" walk --repo repo --store none --line v1.0
expect_error "--line 'v1.0' names no line"
expect_exit 1 "$MEV" walk --repo repo --store none --line ''
expect_error "--line '' names no line"
expect_exit 2 "$MEV" walk --repo repo --store none --line 1.0 --tags 'v*'
expect_error "--line and --tags choose the tags two ways; give one"
expect_exit 2 "$MEV" walk --repo repo --store none --line
[ ! -e none ] || fail "a store was made"

step "--tags that mixes the lines: the releases that go back in time are named, three of them"
release 2020-04-10 v1.3 drv/d.c
release 2020-04-20 v1.4 drv/d.c
expect_exit 0 "$MEV" walk --repo repo --store all --tags 'v*'
expect_stderr_contains "8 releases walked"
expect_stderr_contains "4 releases go back in time (dated before a release that comes before them in version order): v1.1 of 2020-02-01 after v1.0.3 of 2020-05-01; v1.2 of 2020-03-01 after v1.0.3 of 2020-05-01; v1.3 of 2020-04-10 after v1.0.3 of 2020-05-01; and 1 more; walked in version order all the same"
# said once, when walked
expect_exit 0 "$MEV" walk --repo repo --store all
if grep -q 'back in time' "$ERR"; then fail "said again for stored releases"; fi

step "--line on a store of --tags: refused"
expect_exit 1 "$MEV" walk --repo repo --store all --line 1.0
expect_error "--line and --tags choose the tags two ways; give one"
