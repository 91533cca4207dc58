# Odd repositories (issue 9, point 8): a tag too long for the store's keys,
# shallow and partial clones, a repository of another user, a full disk.
# Each gets a message that says what happened and what to do; the store
# keeps what was committed and the next walk goes on.  The cases that need
# root (chown, mount) are skipped without it.
. "$(dirname "$0")/lib.sh" "$@"
. "$SRC/tests/fixtures/tiny-repo.sh"

# Under AddressSanitizer: libgit2 1.5 leaks when it opens a partial clone,
# a leak the library's suppression lets be once it sees libgit2's frames
# (src/git/repo.c).
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"

MNT=$TMP/mnt
trap 'umount "$MNT" 2>/dev/null; rm -rf "$TMP"' EXIT

# releases_of STORE: the release tags a store holds, one a line.
releases_of() {
	"$MEV" releases --store "$1" | tail -n +2 | cut -d, -f1
}

# store_ok STORE: 'store check' finds nothing damaged.
store_ok() {
	expect_exit 0 "$MEV" store check --store "$1"
	expect_stdout_contains ", 0 damaged"
}

# r: v1 (the tiny repository), v2 (MAINTAINERS and a new file), v3 (the
# link docs/link leads elsewhere), v4 (a get_maintainer.pl), then a commit
# on top that changes all of them (a clone's checkout fetches none of the
# blobs of v2..v4).
make_tiny_repo r
printf '\nNEW SECTION\nS:\tMaintained\nF:\tdrivers/net/c.c\n' >>r/MAINTAINERS
printf 'int c;\n' >r/drivers/net/c.c
commit_all r v2
rm r/docs/link && ln -s ../drivers/tty r/docs/link
commit_all r v3
mkdir -p r/scripts && printf '#!/usr/bin/perl\n# get_maintainer.pl\n' >r/scripts/get_maintainer.pl
commit_all r v4
printf '\nLAST\nS:\tMaintained\nF:\tlib/\n' >>r/MAINTAINERS
printf 'int c2;\n' >r/drivers/net/c.c
rm -r r/docs/link r/scripts
commit_all r
git -C r config uploadpack.allowFilter true

step "reference: the full repository"
expect_exit 0 "$MEV" walk --repo r --store full --tags 'v*' -q
[ "$(releases_of full | tr '\n' ' ')" = "v1 v2 v3 v4 " ] || fail "releases of the full walk"

# --- 1. a tag too long to be a key ---------------------------------------------
step "a tag of 607 bytes is left out with a note naming it; the later releases are walked"
a=$(printf 'a%.0s' $(seq 200))
long="v1.5/$a/$a/$a"
git clone -q r longtags
git -C longtags tag "$long" v2
expect_exit 0 "$MEV" walk --repo longtags --store long --tags 'v*'
expect_stderr_contains "tag '$long' left out: its name has 607 bytes, a release tag at most 255"
[ "$(releases_of long | tr '\n' ' ')" = "v1 v2 v3 v4 " ] || fail "releases after a long tag"
expect_exit 0 "$MEV" walk --repo longtags --store long --tags 'v*'
expect_stderr_contains "0 releases walked, 4 already stored"
expect_exit 1 "$MEV" filemap --store long --release "$long"
expect_error "is not in store 'long'"
store_ok long

# --- 2. shallow clones ------------------------------------------------------------
step "a shallow clone whose history stops before the root: the message says --unshallow"
git clone -q --shallow-since=2020-01-02T00:00Z "file://$TMP/r" shallow
[ "$(git -C shallow tag | tr '\n' ' ')" = "v2 v3 v4 " ] || fail "tags of the shallow clone"
expect_exit 1 "$MEV" walk --repo shallow --store sh --tags 'v*'
expect_error "'shallow' is a shallow clone: its history stops at commit"
expect_stderr_contains "so the root commit (which names the repository in a store) is not there"
expect_stderr_contains "hint: fetch the whole history: 'git -C shallow fetch --unshallow'"
store_ok sh
[ -z "$(releases_of sh)" ] || fail "a release stored without the store's identity"

step "a store of the full history, walked with the shallow clone: --unshallow again"
expect_exit 1 "$MEV" walk --repo shallow --store full --tags 'v*'
expect_error "'shallow' is a shallow clone without commit"
expect_stderr_contains "the root of the history in store 'full'"
expect_stderr_contains "git -C shallow fetch --unshallow"

step "after 'git fetch --unshallow' the walk goes through"
git -C shallow fetch -q --unshallow
expect_exit 0 "$MEV" walk --repo shallow --store sh --tags 'v*' -q
[ "$(releases_of sh | tr '\n' ' ')" = "v1 v2 v3 v4 " ] || fail "releases after --unshallow"

step "a clone of depth 1 at every tag holds what a walk needs (the root is v1 itself)"
git clone -q --depth 1 --no-single-branch "file://$TMP/r" tips 2>/dev/null
git -C tips fetch -q --depth 1 origin 'refs/tags/*:refs/tags/*'
[ -s tips/.git/shallow ] || fail "the clone of depth 1 is not shallow"
expect_exit 0 "$MEV" walk --repo tips --store tips.store --tags 'v*' -q
"$MEV" releases --store full >full.csv
"$MEV" releases --store tips.store >tips.csv
same_files full.csv tips.csv

# --- 3. partial clones --------------------------------------------------------------
step "a partial clone: v1's blobs fetched, v2 lacks MAINTAINERS: v2 fails, v1 is kept"
git clone -q --filter=blob:none "file://$TMP/r" partial
git -C partial -c advice.detachedHead=false checkout -q v1
git -C partial checkout -q master
expect_exit 1 "$MEV" walk --repo partial --store part --tags 'v*'
expect_error "v2: 'partial' is a partial clone and lacks the blob of 'MAINTAINERS' ("
expect_stderr_contains "): it lists the sections"
expect_stderr_contains "hint: let git fetch it: 'git -C partial cat-file -e "
expect_stderr_contains "'git -C partial config --unset remote.origin.partialclonefilter && git -C partial fetch --refetch origin'"
cp "$ERR" hint.txt
[ "$(releases_of part | tr '\n' ' ')" = "v1 " ] || fail "releases of the partial clone"
store_ok part

# run_hint N: run the N-th command quoted in the hint kept in hint.txt
run_hint() {
	local cmd
	cmd=$(grep '^hint: ' hint.txt | grep -o "'git [^']*'" | sed -n "${1}p" | tr -d "'") || true
	[ -n "$cmd" ] || fail "no command $1 in the hint"
	# shellcheck disable=SC2086 # the words of the command
	$cmd >/dev/null
}

step "MAINTAINERS fetched as the hint says: v2 is walked (its new file counted as 0 lines, with a note), v3 lacks the link's target"
run_hint 1
expect_exit 1 "$MEV" walk --repo partial --store part --tags 'v*'
expect_stderr_contains "v2: 1 blob missing from the repository (a partial clone; docs/walking.md says how to fetch them), counted as 0 lines: 'drivers/net/c.c'"
expect_error "v3: 'partial' is a partial clone and lacks the blob of symbolic link 'docs/link' ("
expect_stderr_contains "where it leads decides what the patterns match"
cp "$ERR" hint.txt
[ "$(releases_of part | tr '\n' ' ')" = "v1 v2 " ] || fail "releases after fetching MAINTAINERS"

step "the link fetched: v4 lacks its get_maintainer.pl"
run_hint 1
expect_exit 1 "$MEV" walk --repo partial --store part --tags 'v*'
expect_error "v4: 'partial' is a partial clone and lacks the blob of 'scripts/get_maintainer.pl' ("
expect_stderr_contains "the rules of the release come from it"
store_ok part

if (git fetch -h 2>&1 || true) | grep -q -- --refetch; then
	step "every blob fetched (the hint's second command): the walk ends as the full one"
	git -C partial config --unset remote.origin.partialclonefilter
	git -C partial fetch -q --refetch origin
	expect_exit 0 "$MEV" walk --repo partial --store part --tags 'v*' --rebuild -q
	"$MEV" releases --store part >part.csv
	same_files full.csv part.csv
else
	step "skipped: this git has no 'fetch --refetch'"
fi

step "a partial clone with nothing checked out: the dialect of a new store comes from HEAD's listing, the release says which blob it lacks"
# An OP-TEE tree (core/arch/ and ta/; releases X.Y.Z, which no Linux rule
# takes): the clone has none of its blobs, HEAD's get_maintainer.py
# neither.  The dialect is OP-TEE all the same (guessed from the paths),
# so 3.22.0 is chosen and fails for the blob its rules come from.
mkrepo ot
mkdir -p ot/core/arch/arm ot/ta/pkcs11 ot/scripts
printf 'ARM ARCH\nM:\tAnn <ann@example.org>\nS:\tMaintained\nF:\tcore/arch/arm/\n' >ot/MAINTAINERS
printf '#!/usr/bin/env python3\n# get_maintainer.py\n' >ot/scripts/get_maintainer.py
printf 'int a;\n' >ot/core/arch/arm/a.c
printf 'int t;\n' >ot/ta/pkcs11/t.c
commit_all ot 3.22.0
git -C ot config uploadpack.allowFilter true
git clone -q --no-checkout --filter=blob:none "file://$TMP/ot" otp
expect_exit 1 "$MEV" walk --repo otp --store otp.store
expect_error "3.22.0: 'otp' is a partial clone and lacks the blob of 'scripts/get_maintainer.py' ("
expect_stderr_contains "the rules of the release come from it"
[ -z "$(releases_of otp.store)" ] || fail "releases of the clone without blobs"

# --- 4. a repository of another user ----------------------------------------------
if [ "$(id -u)" = 0 ]; then
	step "a repository of another user: 'dubious ownership', the hint names safe.directory"
	cp -a r owned
	chown -R 12345 owned
	safe="git config --global --add safe.directory $(realpath owned)"
	for cmd in "walk --repo owned --store own --tags v*" "filemap --repo owned --rev v1"; do
		# shellcheck disable=SC2086 # the words of the command
		expect_exit 1 "$MEV" $cmd
		expect_error "cannot open repository 'owned': it belongs to another user (uid 12345; you are root, uid 0)"
		expect_stderr_contains "git refuses to read such a repository (\"dubious ownership\")"
		expect_stderr_contains "hint: if you trust it, mark it safe: $safe"
	done
	step "marked safe as the hint says: the walk goes through"
	env -u GIT_CONFIG_GLOBAL $safe
	expect_exit 0 "$MEV" walk --repo owned --store own --tags 'v*' -q
	[ "$(releases_of own | tr '\n' ' ')" = "v1 v2 v3 v4 " ] || fail "releases of the owned clone"
else
	step "skipped: a repository of another user (needs root)"
fi

# --- 5. a full disk ------------------------------------------------------------------
mkdir -p "$MNT"
if [ "$(id -u)" != 0 ] || ! mount -t tmpfs -o size=2m tmpfs "$MNT" 2>/dev/null; then
	step "skipped: a full disk (needs root and a tmpfs mount)"
	exit 0
fi

bash "$SRC/scripts/make-demo-repo.sh" demo >/dev/null 2>&1 || fail "cannot build the demo history"
expect_exit 0 "$MEV" walk --repo demo --store demo.store -q
"$MEV" releases --store demo.store >demo.csv

# fill_leaving BYTES: fill the tmpfs so that about BYTES stay free.
fill_leaving() {
	local free
	rm -f "$MNT/fill"
	free=$(df -B1 --output=avail "$MNT" | tail -n 1)
	head -c $((free - $1)) /dev/zero >"$MNT/fill" || true
}

step "the disk fills in the middle of a walk: a clear message, the store intact"
size=$(stat -c %s demo.store/data.mdb)
# half the data file, and room for the new store's lock.mdb (its reader table)
fill_leaving $((size / 2 + $(stat -c %s demo.store/lock.mdb)))
expect_exit 1 "$MEV" walk --repo demo --store "$MNT/S"
expect_error "cannot commit to the store: the file system of store '$MNT/S' is full ("
expect_stderr_contains "were free when the write began, too little for it)"
expect_stderr_contains "hint: free some space there (or move the store to a larger file system) and run the command again"
n=$(releases_of "$MNT/S" | wc -l)
[ "$n" -ge 1 ] && [ "$n" -lt 8 ] || fail "$n releases stored before the disk was full"
store_ok "$MNT/S"

step "with space again, the walk goes on from there and ends as on a roomy disk"
rm "$MNT/fill"
expect_exit 0 "$MEV" walk --repo demo --store "$MNT/S"
expect_stderr_contains "$((8 - n)) releases walked, $n already stored"
"$MEV" releases --store "$MNT/S" >S.csv
same_files demo.csv S.csv
store_ok "$MNT/S"

step "no room for a new store: a message, not a crash (SIGBUS), and nothing left behind"
fill_leaving 0
expect_exit 1 "$MEV" walk --repo demo --store "$MNT/new"
expect_error "the file system of store '$MNT/new' is full ("
[ ! -e "$MNT/new/data.mdb" ] || fail "a data.mdb on a full disk"
[ -z "$(find "$MNT/new" -name 'data.mdb.new.*')" ] || fail "a half-made data file left"

step "an output file on a full disk: the write failure is reported, the old file kept"
printf 'old\n' >old.txt
rm -f "$MNT/fill"
cp old.txt "$MNT/out.csv"
fill_leaving 0
expect_exit 1 "$MEV" releases --store demo.store -o "$MNT/out.csv"
expect_error "cannot write '$MNT/out.csv': No space left on device ("
expect_stderr_contains "hint: free some space there or write the file elsewhere; '$MNT/out.csv' is left as it was"
same_files old.txt "$MNT/out.csv"
[ -z "$(find "$MNT" -maxdepth 1 -name '.out.csv.*')" ] || fail "a temporary file left on the full disk"
rm -f "$MNT/fill"
expect_exit 0 "$MEV" releases --store demo.store -o "$MNT/out.csv"
same_files demo.csv "$MNT/out.csv"
