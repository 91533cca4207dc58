#!/usr/bin/env bash
# layering-selftest.sh SOURCE_DIR: show that scripts/dev/layering.py
# catches what it is for.  On a copy of the tree, each planted fault (an
# include upward, a private header used outside its folder, a unit test
# outside its module's folder, a library out of its home, a folder
# docs/design.md does not name, a file over 800 lines, a function over
# 120) must fail the check with its own message; the copy as it is must
# pass, and so must a module's shared header included from a module
# above it.
set -euo pipefail
case ${1:-} in -h | --help) echo "usage: scripts/dev/layering-selftest.sh [SOURCE_DIR]"; exit 0 ;; esac
src=$(cd "${1:-$(dirname "$0")/../..}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
fresh() {
	rm -rf "$tmp/t"
	mkdir -p "$tmp/t/docs" "$tmp/t/scripts/dev"
	cp -r "$src/src" "$src/store" "$src/include" "$src/tests" "$tmp/t/"
	cp "$src/docs/design.md" "$tmp/t/docs/"
	cp "$src/scripts/dev/layering.py" "$tmp/t/scripts/dev/"
}
expect() { # name, regex the output must match
	local out
	if out=$(python3 "$tmp/t/scripts/dev/layering.py" "$tmp/t" 2>&1); then
		echo "FAIL: $1: the check passed"; fail=1
	elif ! grep -Eq "$2" <<<"$out"; then
		echo "FAIL: $1: no line matches /$2/:"; echo "$out"; fail=1
	else
		echo "ok: $1"
	fi
}
fresh
if python3 "$tmp/t/scripts/dev/layering.py" "$tmp/t" >/dev/null; then echo "ok: the tree as it is"; else
	echo "FAIL: the tree as it is does not pass"; fail=1; fi
fresh; echo '#include "maintevo/track.h"' >>"$tmp/t/src/graph/graph.c"
expect "an include upward" 'src/graph/graph.c:[0-9]+: graph includes "maintevo/track.h" of track'
fresh; echo '#include "track/track_internal.h"' >>"$tmp/t/src/report/facts.c"
expect "a private header outside its folder" 'src/report/facts.c:[0-9]+: "track/track_internal.h" is private to src/track/'
fresh; echo '#include "export/export_internal.h"' >>"$tmp/t/tests/unit/git/test_git.c"
expect "another module's private header in a test" 'tests/unit/git/test_git.c:[0-9]+: "export/export_internal.h" is private'
fresh; cp "$tmp/t/tests/unit/git/test_git.c" "$tmp/t/tests/test_git_old.c"
expect "a unit test outside tests/unit/" '^tests/test_git_old.c: unit tests go to tests/unit/<module>/'
fresh; cp "$tmp/t/tests/unit/git/test_git.c" "$tmp/t/tests/unit/match/test_git_more.c"
expect "a unit test in another module's folder" '^tests/unit/match/test_git_more.c: a test in tests/unit/match/ is named'
fresh; echo '#include <igraph.h>' >>"$tmp/t/src/match/match.c"
expect "a library outside its home" 'src/match/match.c:[0-9]+: <igraph.h> belongs in cluster/ only'
fresh; echo '#include <git2.h>' >>"$tmp/t/include/maintevo/graph.h"
expect "a library in a public header" 'include/maintevo/graph.h:[0-9]+: <git2.h> \(libgit2\) in a public header'
fresh; mkdir "$tmp/t/src/newmod"; echo 'int x;' >"$tmp/t/src/newmod/a.c"
expect "a folder the design does not name" '^src/newmod/: a folder'
fresh; echo '/* x */' >"$tmp/t/include/maintevo/stray.h"
expect "a public header nobody owns" 'include/maintevo/stray.h: a public header no module'
# A module's shared header goes to the modules above it; its other headers
# stay private.  Shown on the first module that still has a shared header
# and a file of another module including it (none: nothing to show).
includer=""
for sh in $(cd "$src/src" && ls -- */*_shared.h 2>/dev/null); do
	includer=$(cd "$src" && grep -rlF "\"$sh\"" src | grep -v "^src/${sh%%/*}/" | head -1 || true)
	[ -n "$includer" ] && break
done
if [ -n "$includer" ]; then
	mod=${sh%%/*}
	priv=$(cd "$src/src" && ls -- "$mod"/*.h | grep -v '_shared\.h$' | head -1)
	fresh; echo "#include \"$sh\"" >"$tmp/t/${includer%/*}/layering_probe.c"
	if python3 "$tmp/t/scripts/dev/layering.py" "$tmp/t" >/dev/null; then
		echo "ok: a shared header ($sh) from another module"
	else
		echo "FAIL: a shared header ($sh) from another module: the check failed"; fail=1
	fi
	fresh; echo "#include \"$priv\"" >"$tmp/t/${includer%/*}/layering_probe.c"
	expect "that module's private header ($priv) from another module" \
		"${includer%/*}/layering_probe.c:[0-9]+: \"$priv\" is private to src/$mod/"
	fresh; touch "$tmp/t/src/$mod/other_shared.h"
	expect "two shared headers" "src/$mod/: more than one shared header"
else
	echo "skip: no module has a shared header another module includes"
fi
fresh; rm "$tmp/t/tests/unit/graph/test_graph.c"
expect "a module without its test program" '^src/graph/: no tests/unit/graph/test_graph.c'
fresh; for i in $(seq 801); do echo "int v$i;"; done >>"$tmp/t/src/graph/graph.c"
expect "a file over 800 lines" 'src/graph/graph.c: [0-9]+ lines, more than 800'
fresh; { echo 'int f(void);'; echo 'int f(void)'; echo '{'; for i in $(seq 125); do echo '	(void)0;'; done; echo '	return 0;'; echo '}'; } >>"$tmp/t/src/util/buf.c"
expect "a function over 120 lines" 'src/util/buf.c:[0-9]+: function f has [0-9]+ lines'
exit $fail
