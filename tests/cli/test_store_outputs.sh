# Output written over the store (issue 32, point 1): every command that
# writes -o refuses, before it writes anything, a file of the store it
# reads (data.mdb, lock.mdb, walk.lock: compared by device and inode, so
# through a symbolic link, a hard link or a '..' path as well) and any
# file in the folder of a store, with a message saying why; the store
# stays byte for byte as it was.  The commands are found from 'maintevo
# --help': one that takes -o and is not in the list below fails the test.
. "$(dirname "$0")/lib.sh" "$@"
. "$SRC/tests/fixtures/tiny-repo.sh"

make_tiny_repo r
printf 'int a;\nint a;\nint a;\nint a;\n' >r/drivers/net/a.c
commit_all r v2
expect_exit 0 "$MEV" walk --repo r --store S --tags 'v*' -q
expect_exit 0 "$MEV" track --store S -q

# A run of every command that writes -o, one that succeeds into a plain file.
runs() {
	cat <<'EOF'
filemap --store S --release v1
filemap --repo r --rev v1
graph --store S --release v1
sections --repo r --rev v1
releases --store S
clusters --store S --release v1
events --store S
lineages --store S
section-changes --store S
history --store S drivers/net/a.c
report --store S
chart --store S
export sections --store S
export graph --store S --release v2
export all --store S
dialects
EOF
}

step "every command with -o has a run here"
expect_exit 0 "$MEV" --help
for c in $(sed -n '/^commands:$/,/^$/s/^  \([a-z-]*\) .*/\1/p' "$OUT"); do
	# (not "$MEV" help | grep -q: grep leaves at the first match, and a
	# help longer than a pipe's write dies of SIGPIPE; under pipefail the
	# command was skipped)
	help=$("$MEV" help "$c") || fail "'maintevo help $c' failed"
	grep -q -- '-o, --out' <<<"$help" || continue
	runs | grep -q "^$c " || runs | grep -qx "$c" || fail "'$c' takes -o: add a run of it to test_store_outputs.sh"
done

step "each succeeds into a plain file"
while read -r cmd; do
	rm -f ok.out
	# shellcheck disable=SC2086 # the words of the command
	expect_exit 0 "$MEV" $cmd -o ok.out
	[ -s ok.out ] || fail "$cmd -o ok.out wrote nothing"
done < <(runs)

cp -r S S.orig
ln -s S/data.mdb sym.mdb
ln S/data.mdb hard.mdb
mkdir -p sub
ln -s ../S sub/store-link
# intact: every file of the store as it was, and nothing else in its folder
intact() {
	[ "$(ls -A S | sort | tr '\n' ' ')" = "$(ls -A S.orig | sort | tr '\n' ' ')" ] ||
		fail "$1: the store's folder now holds: $(ls -A S | tr '\n' ' ')"
	same_files S.orig/data.mdb S/data.mdb
	[ -L sym.mdb ] || fail "$1: the symbolic link was replaced"
	[ "$(stat -c %i hard.mdb)" = "$(stat -c %i S/data.mdb)" ] || fail "$1: the hard link was replaced"
}

step "-o a file of the store or of its folder: refused, nothing written"
while read -r cmd; do
	# a hard link elsewhere is the store's file only for a command reading
	# S (for another, writing it replaces the link, not the store's file)
	case $cmd in *"--store S"*) hard=hard.mdb ;; *) hard= ;; esac
	for target in S/data.mdb S/lock.mdb S/walk.lock S/new.csv S/../S/data.mdb ./S/./lock.mdb \
		sym.mdb $hard sub/store-link/data.mdb sub/store-link/other.csv "$TMP/S/data.mdb"; do
		# shellcheck disable=SC2086
		expect_exit 1 "$MEV" $cmd -o "$target"
		expect_error "cannot write '$target': it "
		grep -qE "it (is '(data|lock)\.mdb|is 'walk\.lock'|lies in the folder)" "$ERR" ||
			fail "$cmd -o $target: the message does not say why"
		[ "$(grep -c '^maintevo: error:' "$ERR")" -eq 1 ] || fail "$cmd -o $target: more than one error"
		intact "$cmd -o $target"
	done
done < <(runs)
expect_exit 0 "$MEV" store check --store S

step "the message names the link"
expect_exit 1 "$MEV" releases --store S -o hard.mdb
expect_stderr_contains "it is 'data.mdb' of store 'S' (the same file by another name: a hard link)"
expect_exit 1 "$MEV" releases --store S -o sym.mdb
expect_stderr_contains "it is 'data.mdb' of store 'S' (through a symbolic link)"

step "the folder of another store, and of the default store, are refused too"
cp -r S.orig Other
expect_exit 1 "$MEV" filemap --repo r --rev v1 -o Other/x.csv
expect_error "it lies in the folder of a store"
[ ! -e Other/x.csv ] || fail "a file was written into another store's folder"
mkdir work
cp -r S.orig work/maintevo.store
(cd work && "$MEV" releases -o maintevo.store/releases.csv >/dev/null 2>&1) && fail "default store: not refused"
[ ! -e work/maintevo.store/releases.csv ] || fail "a file was written into the default store"

step "a file next to the store (not in it) is written as before"
expect_exit 0 "$MEV" releases --store S -o S.csv
expect_exit 0 "$MEV" releases --store S -o sub/../releases.csv
[ -s releases.csv ] || fail "sub/../releases.csv not written"
echo "PASS"
