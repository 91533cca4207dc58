# lib.sh: helpers shared by the end-to-end tests of the maintevo command.
#
# A test script starts with
#     . "$(dirname "$0")/lib.sh" "$@"    # $1: maintevo binary, $2: source dir
# and then has $MEV, $SRC, $HERE (this directory), a scratch directory $TMP
# (the current directory, removed at exit), a git with a fixed identity and
# fixed dates, and the helpers below.  Exit status: 0 passed, 1 failed,
# 77 skipped.
set -eu -o pipefail

[ $# -ge 2 ] || { echo "usage: $0 MAINTEVO SOURCE_DIR" >&2; exit 2; }
command -v git >/dev/null || { echo "SKIP: git is not installed"; exit 77; }
MEV=$(realpath -- "$1") SRC=$(realpath -- "$2")
HERE=$(cd "$(dirname "$0")" && pwd)
[ -x "$MEV" ] || { echo "FAIL: '$MEV' is not an executable" >&2; exit 1; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/maintevo-cli.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
cd "$TMP"

# Deterministic git: no user or system configuration, fixed identity, and a
# clock that moves one day per commit_all (like git's test_tick).
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=$TMP
export GIT_AUTHOR_NAME='A U Thor' GIT_AUTHOR_EMAIL='author@example.org'
export GIT_COMMITTER_NAME='C O Mitter' GIT_COMMITTER_EMAIL='committer@example.org'
export LC_ALL=C TZ=UTC
test_time=1577880000
export GIT_AUTHOR_DATE="$test_time +0000" GIT_COMMITTER_DATE="$test_time +0000"

# The command run last by expect_exit, and where its output went.
last_cmd=
OUT=$TMP/.stdout
ERR=$TMP/.stderr

# Print a progress line (shown by ctest --output-on-failure).
step() { echo "# $*"; }

# Stop the test: FAIL with a reason and the output of the last command.
fail() {
	echo "FAIL: $*" >&2
	if [ -n "$last_cmd" ]; then
		echo "last command: $last_cmd" >&2
		echo "--- stdout (first 40 lines)" >&2; head -n 40 "$OUT" >&2 || true
		echo "--- stderr (first 40 lines)" >&2; head -n 40 "$ERR" >&2 || true
	fi
	exit 1
}

skip() { echo "SKIP: $*"; exit 77; }

# need_real_dir: skip the test unless MEV_REAL_DIR names the folder of real
# data (docs/testing.md, "Real data"), so that the suite runs the same tests
# on every machine whatever lies on its disk, unless a developer opts in.
need_real_dir() {
	[ -n "${MEV_REAL_DIR:-}" ] ||
		skip "MEV_REAL_DIR is not set: the real-data checks are off (docs/testing.md, \"Real data\")"
}

# real_repo NAME: need_real_dir, then $REAL is the clone of a real project
# there, $MEV_REAL_DIR/NAME/repo (NAME: OWNER+NAME of its GitHub repository,
# u-boot+u-boot, DPDK+dpdk, ...).
real_repo() {
	need_real_dir
	REAL=$MEV_REAL_DIR/$1/repo
}

# mkrepo DIR: an empty repository with branch master.
mkrepo() { git -c init.defaultBranch=master init -q "$1"; }

# commit_all DIR [TAG]: commit everything in DIR (tagged TAG, annotated,
# when given), then move the clock one day on.
commit_all() {
	git -C "$1" add -A
	git -C "$1" commit -q --allow-empty -m "commit at $test_time"
	[ $# -lt 2 ] || git -C "$1" tag -a "$2" -m "release $2"
	test_time=$((test_time + 86400))
	export GIT_AUTHOR_DATE="$test_time +0000" GIT_COMMITTER_DATE="$test_time +0000"
}

# expect_exit CODE CMD...: run CMD (stdout to $OUT, stderr to $ERR) and
# require exit status CODE (a glob: '[01]' takes 0 or 1) and no sanitizer
# report.  The status is left in $status.
expect_exit() {
	local want=$1
	shift
	last_cmd="$*"
	status=0
	"$@" >"$OUT" 2>"$ERR" || status=$?
	if grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$ERR"; then
		fail "sanitizer report"
	fi
	case $status in
	$want) ;; # unquoted: a glob
	*) fail "exit status $status, expected $want" ;;
	esac
}

# expect_stderr_contains TEXT / expect_stdout_contains TEXT: fixed string.
expect_stderr_contains() {
	grep -qF -- "$1" "$ERR" || fail "stderr does not contain '$1'"
}
expect_stdout_contains() {
	grep -qF -- "$1" "$OUT" || fail "stdout does not contain '$1'"
}

# expect_error TEXT: an error message containing TEXT, then a hint.
expect_error() {
	expect_stderr_contains "$1"
	grep -q '^hint: ' "$ERR" || fail "no 'hint:' line on stderr"
}

# expect_stdout < EXPECTED / expect_stderr < EXPECTED / expect_file FILE <
# EXPECTED: exact bytes.
expect_stdout() { expect_file "$OUT"; }
expect_stderr() { expect_file "$ERR"; }
expect_file() {
	local want=$TMP/.expected
	cat >"$want"
	diff -u "$want" "$1" >&2 || fail "'$1' differs from the expected text (diff above)"
}

# same_files A B: byte-identical.
same_files() { cmp -s "$1" "$2" || fail "'$1' and '$2' differ"; }

# find_python MODULE...: print a python3 that imports every MODULE (the one
# on the PATH, else Debian's /usr/bin/python3, where apt installs
# python3-pandas when a pyenv or venv python3 comes first); 1 when none does.
find_python() {
	local py mods
	mods=$(IFS=,; echo "$*")
	for py in python3 /usr/bin/python3; do
		command -v "$py" >/dev/null || continue
		"$py" -c "import $mods" 2>/dev/null && { command -v "$py"; return 0; }
	done
	return 1
}

# demo_store STORE: the demo history (scripts/make-demo-repo.sh) in ./demo,
# walked, clustered and tracked into STORE.
demo_store() {
	[ -d demo ] || bash "$SRC/scripts/make-demo-repo.sh" demo >/dev/null
	expect_exit 0 "$MEV" walk --repo demo --store "$1" -q
	expect_exit 0 "$MEV" cluster --store "$1" -q
	expect_exit 0 "$MEV" track --store "$1" -q
}

# guide_setup: the user guide's world on the demo history: ~/u-boot is the
# demo repository, ./build/maintevo the binary under test, and the guide's
# shell snippets (tests/cli/helpers/guide_snippets.py) have run in $TMP/guide, the
# current directory afterwards (u-boot.store, csv/, u-boot.db ...).
guide_setup() {
	local f n
	command -v python3 >/dev/null || skip "python3 is not installed"
	bash "$SRC/scripts/make-demo-repo.sh" "$HOME/u-boot" >/dev/null
	mkdir -p "$TMP/guide/build"
	cd "$TMP/guide"
	ln -s "$MEV" build/maintevo
	n=$(python3 "$HERE/helpers/guide_snippets.py" "$SRC/docs/user-guide.md" sh snippets)
	[ "$n" -ge 4 ] || fail "only $n shell snippets in the user guide"
	for f in snippets/*.sh; do
		step "guide: $f"
		expect_exit 0 bash -e "$f"
	done
}
