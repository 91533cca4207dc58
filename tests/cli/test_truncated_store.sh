# A store's file changing under a reader (issue 32, point 3): data.mdb is
# read through a map, so when another program truncates it while an
# export reads (a sync tool, a disk filling), a read past its new end
# raises SIGBUS.  maintevo says what happened (the store's file changed
# size while it was read), points to 'store check', exits 1 (not 135,
# silently) and leaves neither the output file nor its temporary file.
. "$(dirname "$0")/lib.sh" "$@"

step "a history of 20 releases of 3,000 files and more"
mkrepo big
awk 'BEGIN {
	printf "blob\nmark :1\ndata 7\nint a;\n\n"
	m = "NET\nS:\tMaintained\nF:\tdrivers/\n"
	printf "blob\nmark :2\ndata %d\n%s\n", length(m), m
	for (r = 1; r <= 20; r++) {
		printf "commit refs/heads/master\nmark :%d\n", 10 + r
		printf "author A U Thor <author@example.org> %d +0000\n", 1577880000 + r * 86400
		printf "committer C O Mitter <committer@example.org> %d +0000\n", 1577880000 + r * 86400
		printf "data 2\nv%d\n", r % 10
		if (r > 1)
			printf "from :%d\n", 9 + r
		else
			printf "M 100644 :2 MAINTAINERS\n"
		for (i = (r == 1 ? 0 : 2900 + r * 100); i < 3000 + r * 100; i++)
			printf "M 100644 :1 drivers/some/path/to/a/driver/r%02d/file%05d.c\n", r, i
		printf "\nreset refs/tags/v1.%d\nfrom :%d\n\n", r, 10 + r
	}
}' | git -C big fast-import --quiet
expect_exit 0 "$MEV" walk --repo big --store S.orig -q
expect_exit 0 "$MEV" export files --store S.orig --path drivers/ -o whole.csv
[ "$(wc -l <whole.csv)" -gt 50000 ] || fail "only $(wc -l <whole.csv) rows"

step "data.mdb cut short before the export reads it: a message, exit 1"
# The export opens the store, then its output, a FIFO: it waits there for
# a reader while the file is cut.
rm -rf S
cp -r S.orig S
mkfifo fifo
"$MEV" export files --store S --path drivers/ -o fifo >"$OUT" 2>"$ERR" &
pid=$!
# (LMDB's environment open: lock.mdb and data.mdb at once.  data.mdb alone
# may be the check before it, which opens and closes it: cut then, the
# store is found cut short, another message; lock.mdb's size says nothing,
# the copy has one)
until [ -n "$(find /proc/$pid/fd -lname '*/S/lock.mdb' 2>/dev/null)" ] &&
	[ -n "$(find /proc/$pid/fd -lname '*/S/data.mdb' 2>/dev/null)" ]; do
	kill -0 $pid 2>/dev/null || break
	sleep 0.01
done
truncate -s 16384 S/data.mdb
cat fifo >/dev/null
status=0
wait $pid || status=$?
last_cmd="export files --store S --path drivers/ -o fifo (data.mdb cut to 16 kB)"
[ "$status" -eq 1 ] || fail "exit status $status, expected 1"
expect_error "maintevo: error: the data file of store 'S' changed size while it was read"
expect_stderr_contains "hint: run 'maintevo store check --store S'"

step "the same in the middle of 'export all': no database, no temporary file left"
# The export is stopped once its temporary file is there (the database
# still to read), the file cut, the export let go.  One that ended first
# (a fast machine) is tried again.
tries=0
while :; do
	tries=$((tries + 1))
	[ $tries -le 10 ] || fail "the export always ended before it could be stopped"
	rm -rf S out.db
	cp -r S.orig S
	"$MEV" export all --store S -o out.db >"$OUT" 2>"$ERR" &
	pid=$!
	tmp=
	while kill -0 $pid 2>/dev/null; do
		tmp=$(find . -maxdepth 1 -name '.out.db.*' | head -n 1)
		[ -z "$tmp" ] || break
	done
	kill -STOP $pid 2>/dev/null || true
	if [ -z "$tmp" ] || [ -e out.db ]; then
		kill -CONT $pid 2>/dev/null || true
		wait $pid || true
		continue
	fi
	truncate -s 16384 S/data.mdb
	kill -CONT $pid
	status=0
	wait $pid || status=$?
	break
done
last_cmd="export all --store S -o out.db (data.mdb cut to 16 kB)"
[ "$status" -eq 1 ] || fail "exit status $status, expected 1"
expect_error "maintevo: error: the data file of store 'S' changed size while it was read"
[ ! -e out.db ] || fail "out.db was written"
[ -z "$(find . -maxdepth 1 -name '.out.db.*')" ] || fail "temporary file left: $(ls -a)"

step "'store check' then says the store is damaged, with a message"
expect_exit 1 "$MEV" store check --store S
grep -q '^maintevo: error: ' "$ERR" || fail "store check: no message"
echo "PASS"
