# scripts/nightly.sh on the demo history: a first run writes every table, the
# graphs and both reports and points 'latest' at the newest release; a new
# tag fetched from the remote moves it; a run with nothing new rewrites
# nothing; two runs never overlap; failures are one line and exit 1.
. "$(dirname "$0")/lib.sh" "$@"
command -v flock >/dev/null || skip "flock is not installed"
NIGHTLY=$SRC/scripts/nightly.sh

step "a remote without v1.7, and a clone of it"
bash "$SRC/scripts/make-demo-repo.sh" origin >/dev/null
v17=$(git -C origin rev-parse 'v1.7^{commit}')
git -C origin tag -d v1.7 >/dev/null
git clone -q origin repo

step "first run: everything for v1.6"
expect_exit 0 "$NIGHTLY" --repo repo --store S --out out --maintevo "$MEV"
expect_stdout_contains "report: out/latest/report.html"
expect_stdout_contains "tables: out/latest/csv/"
# every file counted once, the link apart
expect_stdout_contains "chart:  out/latest/chart.html"
expect_stderr_contains "nightly.sh: v1.6: 19 files written, 0 unchanged; latest -> v1.6, in "
[ "$(find out/v1.6 -type f | wc -l)" -eq 19 ] || fail "out/v1.6 holds $(find out/v1.6 -type f | wc -l) files"
[ "$(readlink out/latest)" = v1.6 ] || fail "latest -> $(readlink out/latest), expected v1.6"
for f in report.md report.html chart.html csv/flows.csv graph.graphml clusters.graphml csv/releases.csv csv/sections.csv \
	csv/edges.csv csv/clusters.csv csv/events.csv csv/lineages.csv csv/section_changes.csv \
	csv/files.csv csv/listed.csv csv/candidates.csv; do
	[ -s "out/latest/$f" ] || fail "out/latest/$f is missing or empty"
done
grep -q '^# Linux: v1.5 → v1.6$' out/latest/report.md || fail "report.md: $(head -n 1 out/latest/report.md)"
grep -q 'id="maintevo-chart"' out/latest/chart.html || fail "chart.html is not the lineage chart"
grep -qF 'shaded: v1.5 → v1.6' out/latest/chart.html || fail "chart.html does not shade the pair v1.5 → v1.6"

step "a new tag upstream: fetched, walked, reported; latest moves"
git -C origin tag -a v1.7 -m "release v1.7" "$v17"
expect_exit 0 "$NIGHTLY" --repo repo --store S --out out --maintevo "$MEV"
expect_stderr_contains "fetched tags"
[ "$(readlink out/latest)" = v1.7 ] || fail "latest -> $(readlink out/latest), expected v1.7"
grep -q '^# Linux: v1.6 → v1.7$' out/latest/report.md || fail "report.md is not about v1.7"
[ -s out/v1.6/report.md ] || fail "the v1.6 folder went away"

step "nothing new: no file is rewritten, in seconds"
sleep 1
touch marker
start=$(date +%s)
expect_exit 0 "$NIGHTLY" --repo repo --store S --out out --maintevo "$MEV"
took=$(($(date +%s) - start))
expect_stderr_contains "v1.7: nothing new since the last run (the same refs, day and store), nothing written, in "
changed=$(find out -newer marker -not -path 'out/.nightly*' || true)
[ -z "$changed" ] || fail "a run with nothing new changed: $changed"
[ "$took" -le 20 ] || fail "a run with nothing new took $took s"
echo "# second run: $took s"
# the store written by another command: the commands run, and find nothing new
expect_exit 0 "$MEV" cluster --store S --method louvain -q
expect_exit 0 "$NIGHTLY" --repo repo --store S --out out --maintevo "$MEV"
expect_stderr_contains "v1.7: nothing new since the last run, nothing written, in "
expect_stderr_contains "maintevo: 0 releases walked"
# without the stamps of the last run it writes everything again, unchanged
rm out/.nightly/stamp out/.nightly/inputs
expect_exit 0 "$NIGHTLY" --repo repo --store S --out out --maintevo "$MEV"
expect_stderr_contains "v1.7: 0 files written, 19 unchanged, in "
changed=$(find out -newer marker -not -path 'out/.nightly*' || true)
[ -z "$changed" ] || fail "a run without its stamp changed: $changed"
[ -s out/.nightly/stamp ] || fail "no stamp after a whole run"

step "a branch too: today's snapshot beside the tags; nothing new the next time"
since=$(date -u -d '2 days ago' +%F) today=$(date -u +%F)
expect_exit 0 "$NIGHTLY" --repo repo --store B --out outb --maintevo "$MEV" --branch master --every day --since "$since"
if [ "$(date -u +%F)" != "$today" ]; then
	# the run may have taken either day for today: the names below are unknown
	echo "# midnight UTC passed during the run: the snapshot names are not checked"
	today=$(date -u +%F)
	expect_exit 0 "$NIGHTLY" --repo repo --store B --out outb --maintevo "$MEV" --branch master --every day --since "$since"
	expect_stderr_contains "nightly.sh: master@$today: "
else
	expect_stderr_contains "nightly.sh: master@$today: 19 files written, 0 unchanged; latest -> master@$today"
fi
[ "$(readlink outb/latest)" = "master@$today" ] || fail "latest -> $(readlink outb/latest)"
grep -q "^master@$today,.*,snapshot," outb/latest/csv/releases.csv || fail "no snapshot of today in releases.csv"
grep -q "^v1.7,.*,tag," outb/latest/csv/releases.csv || fail "the tags are not walked beside the branch"
grep -q "master@$(date -u -d '1 day ago' +%F) → master@$today" outb/latest/report.md ||
	fail "the report is not of the last two snapshots"
expect_exit 0 "$NIGHTLY" --repo repo --store B --out outb --maintevo "$MEV"
expect_stderr_contains "master@$today: nothing new since the last run"
expect_exit 2 "$NIGHTLY" --repo repo --store B --out outb --maintevo "$MEV" --every day
expect_stderr_contains "--every and --since go with --branch"

step "two runs never overlap"
# another holder of the lock, until the file unlock appears (or this test
# ends: a holder blocked on a FIFO would outlive a failure, and keep ctest
# waiting on its output); the run starts once it holds the lock, not after
# 5 s at most
flock out/.nightly/lock sh -c "while kill -0 $$ 2>/dev/null && [ ! -e unlock ]; do sleep 0.02; done" &
holder=$!
until ! flock -n out/.nightly/lock true; do
	kill -0 $holder 2>/dev/null || fail "flock(1) could not take the lock"
	sleep 0.01
done
expect_exit 1 "$NIGHTLY" --repo repo --store S --out out --maintevo "$MEV"
expect_stderr_contains "another nightly run holds"
touch unlock
wait "$holder"

step "no network: a warning, and the run goes on"
git -C repo remote set-url origin "file://$TMP/no-such-remote"
expect_exit 0 "$NIGHTLY" --repo repo --store S --out out --maintevo "$MEV" -q
expect_stderr_contains "warning: 'git fetch --tags' failed"

step "failures: exit 1 with one line; usage: exit 2"
expect_exit 1 "$NIGHTLY" --repo nowhere --store S --out out --maintevo "$MEV"
[ "$(wc -l < "$ERR")" -eq 1 ] || fail "more than one line on stderr"
expect_stderr_contains "'nowhere' does not exist"
mkdir plain
expect_exit 1 "$NIGHTLY" --repo plain --store S --out out --maintevo "$MEV"
expect_stderr_contains "'plain' is not a git repository"
mkdir notastore && echo x > notastore/file
expect_exit 1 "$NIGHTLY" --repo repo --store notastore --out out2 --maintevo "$MEV" --no-fetch
[ "$(wc -l < "$ERR")" -eq 1 ] || fail "more than one line on stderr"
expect_stderr_contains "walk failed: "
expect_exit 2 "$NIGHTLY" --repo repo --store S
expect_stderr_contains "--out is required"
expect_exit 0 "$NIGHTLY" --help
expect_stdout_contains "usage: scripts/nightly.sh"
step "a run killed by kill -9 leaves its scratch folder; the next run removes it, and only it"
# (issue 38, point 6: 109 MB left for ever).  A real one, killed while its
# commands run (the lock is free once the command it was running has ended)
rm out/.nightly/stamp out/.nightly/inputs
"$NIGHTLY" --repo repo --store S --out out --maintevo "$MEV" --no-fetch -q 2>/dev/null &
run_pid=$!
until [ -n "$(find out/.nightly -maxdepth 1 -name "run.$run_pid.*" 2>/dev/null)" ]; do
	kill -0 $run_pid 2>/dev/null || fail "the run ended before its scratch folder was seen"
	sleep 0.01
done
kill -9 $run_pid
wait $run_pid 2>/dev/null || true
flock out/.nightly/lock true
dead=$(find out/.nightly -maxdepth 1 -name "run.$run_pid.*")
[ -n "$dead" ] || fail "the killed run left no scratch folder (nothing to test)"
# planted beside it: an older script's folder (run.XXXXXX, under the lock
# a dead run's), one of a live process, and folders of other names
mkdir out/.nightly/run.AbC123 "out/.nightly/run.$$.Live12" out/.nightly/run.keep out/.nightly/mine
expect_exit 0 "$NIGHTLY" --repo repo --store S --out out --maintevo "$MEV" --no-fetch
expect_stderr_contains "nightly.sh: removed '$dead', left by a run that did not end"
expect_stderr_contains "nightly.sh: removed 'out/.nightly/run.AbC123', left by a run that did not end"
[ ! -e "$dead" ] && [ ! -e out/.nightly/run.AbC123 ] || fail "a dead run's scratch folder stayed"
[ -d "out/.nightly/run.$$.Live12" ] && [ -d out/.nightly/run.keep ] && [ -d out/.nightly/mine ] ||
	fail "a folder that is not a dead run's went"
[ -z "$(find out/.nightly -maxdepth 1 -name "run.*" ! -name "run.$$.Live12" ! -name run.keep)" ] ||
	fail "scratch folders left: $(ls out/.nightly)"

# (issue 38, point 6: "export files failed: ", the error log on the full
# disk).  A small tmpfs, which needs root ('ulimit -f' cannot stand in:
# it stops the store's writes as well as the exports')
mkdir -p small
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=1m tmpfs small 2>/dev/null; then
	step "--out on a full disk: the reason of the failure, not an empty one"
	trap 'umount "$TMP/small" 2>/dev/null || true; rm -rf "$TMP"' EXIT
	head -c $(($(df -B1 --output=avail small | tail -n 1) - 40000)) /dev/zero >small/fill || true
	expect_exit 1 "$NIGHTLY" --repo repo --store S --out small/out --maintevo "$MEV" --no-fetch -q
	expect_stderr_contains "nightly.sh: error: export "
	expect_stderr_contains " failed: cannot write 'small/out/.nightly/run."
	expect_stderr_contains "No space left on device"
	[ "$(wc -l <"$ERR")" -eq 1 ] || fail "more than one line on stderr"
	umount small
else
	step "skipped: --out on a full disk (needs root and a tmpfs mount)"
fi

step "a blob missing from the clone: a warning even with --quiet"
mkrepo dmg
printf 'NET\nM:\tA <a@example.org>\nS:\tMaintained\nF:\tnet/\n' >dmg/MAINTAINERS
mkdir dmg/net && echo "int a;" >dmg/net/a.c && echo "int b;" >dmg/net/b.c
commit_all dmg v1.0
blob=$(git -C dmg rev-parse v1.0:net/b.c)
rm "dmg/.git/objects/${blob:0:2}/${blob:2}"
expect_exit 0 "$NIGHTLY" --repo dmg --store D --out outd --maintevo "$MEV" --no-fetch -q
expect_stderr_contains "nightly.sh: warning: walk: v1.0: 1 blob missing from the repository"
expect_stderr_contains "'net/b.c'"
grep -q "releases\{0,1\} walked" "$ERR" && fail "walk's summary passed on with --quiet"
[ "$(wc -l <"$ERR")" -eq 1 ] || fail "more than the warning on stderr with --quiet"
[ -s outd/latest/csv/files.csv ] || fail "no files.csv for the damaged clone"
echo "PASS"
