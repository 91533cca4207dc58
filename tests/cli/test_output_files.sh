# Output files (issue 9, point 1): a command that fails leaves what -o names
# as it was; a regular file is replaced whole through a temporary file next
# to it, anything else (/dev/null, a FIFO, a device) is written directly and
# never removed.
. "$(dirname "$0")/lib.sh" "$@"
. "$SRC/tests/fixtures/tiny-repo.sh"

make_tiny_repo r
printf 'int a;\nint a;\nint a;\nint a;\n' >r/drivers/net/a.c
commit_all r v2
expect_exit 0 "$MEV" walk --repo r --store S --tags 'v*' -q
expect_exit 0 "$MEV" track --store S -q
expect_exit 0 "$MEV" releases --store S -o releases.csv
expect_exit 0 "$MEV" report --store S -o report.md

# no_temp_left: no ".NAME.maintevo-tmp.XXXXXX" of ours in the folder
no_temp_left() {
	local left
	left=$(find "${1:-.}" -maxdepth 1 -name '.*.maintevo-tmp.??????' | head -n 3)
	[ -z "$left" ] || fail "temporary files left behind: $left"
}

# Every command that writes -o, each failing after its output is opened
# (a release the store does not hold) or before (a bad --rev): the file
# there keeps its bytes.
failing_commands() {
	cat <<'EOF'
report --store S --to nosuch
report --store S --format html --from v2 --to v1
export sections --store S --release nosuch
export files --store S --release nosuch
export events --store S --method louvain
export graph --store S --release nosuch --format dot
releases --store missing
clusters --store S --release nosuch
events --store S --method louvain
lineages --store S --method louvain
section-changes --store S --to nosuch
filemap --store S --release nosuch
graph --store S --release nosuch --format graphml
sections --repo r --rev nosuch
filemap --repo r --rev nosuch
EOF
}

step "a failing command leaves an existing file byte-identical"
printf 'precious\ndata\n' >keep.orig
while read -r cmd; do
	cp keep.orig out.txt
	# shellcheck disable=SC2086 # the words of the command
	expect_exit 1 "$MEV" $cmd -o out.txt
	grep -q '^maintevo: error: ' "$ERR" || fail "$cmd: no error message"
	same_files keep.orig out.txt
	no_temp_left
	# and a file that was not there is not made
	rm -f new.txt
	# shellcheck disable=SC2086
	expect_exit 1 "$MEV" $cmd -o new.txt
	[ ! -e new.txt ] || fail "$cmd: a failed command left 'new.txt'"
done < <(failing_commands)

step "a write that fails half-way (file size limit) leaves the file as it was"
# With SIGXFSZ ignored, writes past 'ulimit -f' fail with EFBIG: with a
# limit of 0 every write fails (the file there is only read, never written).
cp keep.orig big.csv
# (messages through a pipe: the limit holds for every file written)
status=0
msg=$( (trap '' XFSZ; ulimit -f 0; exec "$MEV" export sections --store S -o big.csv) 2>&1) ||
	status=$?
[ "$status" -eq 1 ] || fail "export past the size limit: exit $status, expected 1"
case $msg in *Sanitizer*|*"runtime error:"*) fail "sanitizer report: $msg" ;; esac
case $msg in *"cannot write 'big.csv'"*) ;; *) fail "no 'cannot write' message: $msg" ;; esac
same_files keep.orig big.csv
no_temp_left

step "success replaces the file whole, keeping its mode; a new file gets the umask's"
cp keep.orig out.csv
chmod 640 out.csv
expect_exit 0 "$MEV" releases --store S -o out.csv
same_files releases.csv out.csv
[ "$(stat -c %a out.csv)" = 640 ] || fail "mode $(stat -c %a out.csv), expected 640 as before"
rm -f new.csv
(umask 027 && "$MEV" releases --store S -o new.csv) || fail "releases -o new.csv"
[ "$(stat -c %a new.csv)" = 640 ] || fail "umask 027: mode $(stat -c %a new.csv), expected 640"
rm -f new.csv
(umask 022 && "$MEV" releases --store S -o new.csv) || fail "releases -o new.csv"
[ "$(stat -c %a new.csv)" = 644 ] || fail "umask 022: mode $(stat -c %a new.csv), expected 644"
mkdir sub
expect_exit 0 "$MEV" report --store S -o sub/report.md
same_files report.md sub/report.md
no_temp_left
no_temp_left sub

step "through a symbolic link: the file it leads to is replaced, the link kept"
printf 'old\n' >sub/target.csv
ln -s sub/target.csv link.csv
expect_exit 0 "$MEV" releases --store S -o link.csv
[ -L link.csv ] || fail "link.csv is no longer a symbolic link"
same_files releases.csv sub/target.csv
no_temp_left sub
expect_exit 1 "$MEV" releases --store missing -o link.csv
[ -L link.csv ] || fail "a failure replaced the link"
same_files releases.csv sub/target.csv

step "-o /dev/null: written, never removed (as root too), on success and failure"
expect_exit 0 "$MEV" releases --store S -o /dev/null
[ -c /dev/null ] || fail "/dev/null is not a character device any more"
for cmd in "report --store S --to nosuch" "export sections --store S --release nosuch"; do
	# shellcheck disable=SC2086
	expect_exit 1 "$MEV" $cmd -o /dev/null
	[ -c /dev/null ] || fail "'$cmd -o /dev/null' removed /dev/null"
done
if [ "$(id -u)" = 0 ]; then
	# a private null device, so that the same check needs no /dev
	mknod mynull c 1 3
	expect_exit 1 "$MEV" report --store S --to nosuch -o mynull
	[ -c mynull ] || fail "a failure removed the character device 'mynull'"
	expect_exit 0 "$MEV" report --store S -o mynull
	[ -c mynull ] || fail "success replaced the character device 'mynull'"
fi

step "-o /dev/full: the write error is reported, the device stays"
if [ -w /dev/full ]; then
	expect_exit 1 "$MEV" export sections --store S -o /dev/full
	expect_error "cannot write '/dev/full'"
	[ -c /dev/full ] || fail "/dev/full is not a character device any more"
fi

step "a FIFO gets the data, and stays a FIFO"
mkfifo fifo
cat fifo >got.csv &
reader=$!
expect_exit 0 "$MEV" releases --store S -o fifo
wait "$reader"
same_files releases.csv got.csv
[ -p fifo ] || fail "the FIFO was replaced"
cat fifo >/dev/null &
reader=$!
expect_exit 1 "$MEV" report --store S --to nosuch -o fifo
# the reader ends when the report closes the FIFO; if it never opened it
# (failing earlier), the reader still waits: stop it
kill "$reader" 2>/dev/null || true
wait "$reader" 2>/dev/null || true
[ -p fifo ] || fail "a failure removed the FIFO"

step "-o /dev/stdout appends to where standard output goes, like '>>'"
printf 'first line\n' >log
"$MEV" releases --store S -o /dev/stdout >>log || fail "releases -o /dev/stdout"
{ printf 'first line\n'; cat releases.csv; } >log.want
same_files log.want log
"$MEV" releases --store S -o - >stdout.csv || fail "releases -o -"
same_files releases.csv stdout.csv

step "a folder that does not exist, a directory: errors that name them"
expect_exit 1 "$MEV" releases --store S -o no/such/dir/out.csv
expect_error "cannot write 'no/such/dir/out.csv'"
expect_exit 1 "$MEV" releases --store S -o sub
expect_error "cannot write 'sub'"
[ -d sub ] || fail "the directory went away"

step "a full disk (a write past the size limit half-way): one message, with its hint"
# (the chart, 25 kB, is written in pieces: the first that fails is seen
# before the end, where "cannot write the chart" came first, without a hint)
cp keep.orig big.html
status=0
msg=$( (trap '' XFSZ; ulimit -f 8; exec "$MEV" chart --store S -o big.html) 2>&1) || status=$?
[ "$status" -eq 1 ] || fail "chart past the size limit: exit $status, expected 1"
[ "$(printf '%s\n' "$msg" | grep -c '^maintevo: error: ')" -eq 1 ] || fail "more than one message: $msg"
case $msg in *"cannot write 'big.html': File too large"*) ;; *) fail "not the write's message: $msg" ;; esac
case $msg in *"hint: "*) ;; *) fail "no hint: $msg" ;; esac
same_files keep.orig big.html
no_temp_left

step "killed runs (kill -9) leave temporary files; the next run writing the target removes them"
# (issue 32, point 4) 'export all' killed as soon as its temporary file is
# there, five times: the target is never half-written, and each run
# removes what the one killed before it left.  A temporary file of a run
# still writing (stopped, holding its lock) and files of other names stay.
expect_exit 0 "$MEV" export all --store S -o good.db
printf 'mine\n' >.all.db.backup
printf 'mine\n' >.all.db.maintevo-tmp.toolong
kills=0
for _ in $(seq 1 40); do
	[ $kills -lt 5 ] || break
	cp good.db all.db
	"$MEV" export all --store S -o all.db 2>/dev/null &
	pid=$!
	tmp=
	while kill -0 $pid 2>/dev/null; do
		# (find fails on a file renamed between reading the folder and
		# looking at it: the run finished; a pipeline failing here is no
		# test failure)
		tmp=$(find . -maxdepth 1 -name '.all.db.maintevo-tmp.??????' -newer good.db 2>/dev/null | head -n 1 || true)
		[ -z "$tmp" ] || break
	done
	kill -9 $pid 2>/dev/null || true
	wait $pid 2>/dev/null || true
	same_files good.db all.db # never half-written
	if [ -n "$tmp" ] && [ -e "$tmp" ]; then kills=$((kills + 1)); fi
	left=$(find . -maxdepth 1 -name '.all.db.maintevo-tmp.??????' | wc -l)
	[ "$left" -le 1 ] || fail "$left temporary files after $kills kills: the runs did not remove them"
done
[ $kills -eq 5 ] || fail "only $kills runs were killed while writing"
# The loop's last killed run may have left its file: a run stopped below
# before its clean-up would leave it, and the count below would be off.
rm -f .all.db.maintevo-tmp.??????
# a stopped run left behind would hold the test's output open
live=
trap 'if [ -n "$live" ]; then kill -9 $live 2>/dev/null || true; fi; rm -rf "$TMP"' EXIT
livetmp=
for _ in $(seq 1 40); do
	"$MEV" export all --store S -o all.db 2>/dev/null &
	live=$!
	while kill -0 $live 2>/dev/null; do
		# its temporary file, once it holds the lock on it (a file not yet
		# locked is taken for a stale one; the run makes another); find
		# fails when a descriptor closes while it reads the folder
		fd=$(find /proc/$live/fd -lname '*/.all.db.maintevo-tmp.*' -printf '%f\n' 2>/dev/null | head -n 1 || true)
		[ -n "$fd" ] && grep -qs FLOCK /proc/$live/fdinfo/$fd || continue
		livetmp=$(readlink /proc/$live/fd/$fd 2>/dev/null || true)
		[ -z "$livetmp" ] || break
	done
	if [ -n "$livetmp" ]; then
		kill -STOP $live 2>/dev/null || true
		[ -e "$livetmp" ] && break # else it finished before it stopped
		kill -CONT $live 2>/dev/null || true
		livetmp=
	fi
	wait $live || fail "a run writing all.db failed"
done
[ -n "$livetmp" ] || fail "no run could be stopped while writing, in 40 tries"
# what runs killed meanwhile left (files no process holds a lock on)
for x in AAAAA1 AAAAA2 AAAAA3 AAAAA4 AAAAA5; do printf 'half\n' >".all.db.maintevo-tmp.$x"; done
expect_exit 0 "$MEV" export all --store S -o all.db
expect_stderr_contains "maintevo: removed '.all.db.maintevo-tmp."
expect_stderr_contains "and 4 more, left by runs writing 'all.db' that were killed"
[ -e "$livetmp" ] || fail "the temporary file of a run still writing was removed"
[ -e .all.db.backup ] && [ -e .all.db.maintevo-tmp.toolong ] || fail "a file of another name was removed"
[ "$(find . -maxdepth 1 -name '.all.db.maintevo-tmp.??????' | wc -l)" -eq 1 ] || fail "stale files left"
kill -CONT $live
wait $live || fail "the stopped run failed"
[ ! -e "$livetmp" ] || fail "the stopped run left its temporary file"
no_temp_left

if [ "$(id -u)" != 0 ]; then # root writes anywhere
	step "a folder we may not write in: the file there stays as it was"
	mkdir ro
	cp keep.orig ro/out.csv
	chmod 555 ro
	expect_exit 1 "$MEV" releases --store S -o ro/out.csv
	expect_error "cannot write 'ro/out.csv'"
	chmod 755 ro
	same_files keep.orig ro/out.csv
fi
echo "PASS"
