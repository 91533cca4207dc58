# Many readers at once (issue 32, point 2).  The store's reader table
# holds far more than LMDB's 126 places (tests/unit/store/test_store.c begins 300
# reads at once); here, on a store made with a table of 3
# (MEV_STORE_MAX_READERS, for testing), three exports stopped in the
# middle of their reading (their output a FIFO nobody reads) take every
# place: the next reader, and a writer, fail with a message in words and
# a hint, not LMDB's MDB_READERS_FULL.  Two of them killed with kill -9
# leave their places taken by dead processes (while the third keeps the
# store open, LMDB does not clear its table): the next command frees
# them and runs.
. "$(dirname "$0")/lib.sh" "$@"

command -v mdb_stat >/dev/null || skip "mdb_stat (lmdb-utils) is not installed"

step "a history of 3,000 files (an export of one release: over 200 kB)"
mkrepo big
awk 'BEGIN {
	printf "blob\nmark :1\ndata 7\nint a;\n\n"
	m = "NET\nS:\tMaintained\nF:\tdrivers/\n"
	printf "blob\nmark :2\ndata %d\n%s\n", length(m), m
	printf "commit refs/heads/master\nmark :3\n"
	printf "author A U Thor <author@example.org> 1577880000 +0000\n"
	printf "committer C O Mitter <committer@example.org> 1577880000 +0000\n"
	printf "data 2\nv1\nM 100644 :2 MAINTAINERS\n"
	for (i = 0; i < 3000; i++)
		printf "M 100644 :1 drivers/some/rather/long/path/to/a/driver/file%05d.c\n", i
	printf "\nreset refs/tags/v1\nfrom :3\n\n"
}' | git -C big fast-import --quiet
expect_exit 0 "$MEV" walk --repo big --store T --tags 'v*' -q
# (every command: a lock file of fewer places would grow to the default when
# no other process has the store open)
export MEV_STORE_MAX_READERS=3
expect_exit 0 "$MEV" walk --repo big --store S --tags 'v*' -q

# readers: the places of the reader table in use, by live processes or not
readers() { mdb_stat -r S | awk '/^ *[0-9]+ +[0-9a-f]+ +[0-9]+$/ { n++ } END { print n + 0 }'; }

step "three exports stopped half-way hold the three places"
pids=
for i in 1 2 3; do
	mkfifo "p$i"
	"$MEV" export files --store S --release v1 -o "p$i" 2>"e$i" &
	pids="$pids $!"
	# a reader that never reads: the export fills the pipe and waits
	eval "exec {fd$i}<>p$i"
done
# (mdb_stat only once the exports have the store open: the first to open
# it sets its lock file up, and mdb_stat's would have LMDB's 126 places)
for pid in $pids; do
	until [ -n "$(find /proc/$pid/fd -lname '*/S/lock.mdb' 2>/dev/null)" ]; do
		kill -0 $pid 2>/dev/null || fail "an export ended: $(cat e1 e2 e3)"
		sleep 0.01
	done
done
for _ in $(seq 1 500); do
	[ "$(readers)" -ge 3 ] && break
	sleep 0.02
done
[ "$(readers)" -eq 3 ] || fail "$(readers) readers, expected the three exports"

step "the fourth reader, and a writer, are refused in words"
expect_exit 1 "$MEV" releases --store S
expect_error "store 'S' has as many readers at once as it can hold (3): its reader table is full"
expect_stderr_contains "hint: each maintevo command reading the store"
grep -q MDB_ "$ERR" && fail "LMDB's own words in the message"
expect_exit 1 "$MEV" track --store S
expect_error "its reader table is full"

step "two killed with kill -9 leave their places; the next command frees them"
set -- $pids
kill -9 "$1" "$2"
wait "$1" "$2" 2>/dev/null || true
[ "$(readers)" -eq 3 ] || fail "$(readers) places taken, expected 3 (two of dead processes)"
expect_exit 0 "$MEV" releases --store S
expect_stdout_contains "v1,"
expect_exit 0 "$MEV" track --store S -q
expect_exit 0 "$MEV" export files --store S --release v1 -o files.csv
[ "$(wc -l <files.csv)" -eq 3002 ] || fail "files.csv has $(wc -l <files.csv) lines"
kill -9 "$3"
wait "$3" 2>/dev/null || true

step "a store made without the setting has places for a thousand readers"
[ "$(stat -c %s T/lock.mdb)" -ge $((1024 * 64)) ] || fail "T/lock.mdb: $(stat -c %s T/lock.mdb) bytes"
echo "PASS"
