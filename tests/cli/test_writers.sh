# One writer at a time (issue 9, point 7): cluster and track hold the
# store's writer's lock, as walk and import-pasta do.  A second writer is
# refused with one message (or waits, with --wait); readers are never
# refused.  Then walks (--rebuild, and a tag moved back and forth) run in
# a loop while cluster, track and the readers run again and again: no
# command may fail but for that message, and the store ends as an
# uninterrupted walk and track leave it.  MEV_TEST_SECONDS sets the length
# of the loop (default 8).
. "$(dirname "$0")/lib.sh" "$@"

command -v flock >/dev/null || skip "flock(1) is not installed"
seconds=${MEV_TEST_SECONDS:-8}
lockmsg="is writing to store 'S'"

step "demo history"
bash "$SRC/scripts/make-demo-repo.sh" demo >/dev/null
git clone -q --mirror demo m.git
expect_exit 0 "$MEV" walk --repo m.git --store S -q

step "while another writer holds the lock: cluster and track are refused, readers are not"
# another writer: flock(1) holding the lock until the file unlock appears
# (or this test ends), not for 2 s, which six commands under ASan on a
# loaded machine may take
hold() {
	rm -f unlock
	flock S/walk.lock sh -c "while kill -0 $$ 2>/dev/null && [ ! -e unlock ]; do sleep 0.02; done" &
	holder=$!
	until ! flock -n S/walk.lock true; do
		kill -0 $holder 2>/dev/null || fail "flock(1) could not take the lock"
		sleep 0.01
	done
}
hold
for c in cluster track; do
	expect_exit 1 "$MEV" $c --store S
	printf "maintevo: error: another maintevo command (walk, import-pasta, cluster, track, flow or store repair) is writing to store 'S'\nhint: run this again when it has finished (walk, cluster, track and flow wait with --wait SECONDS); readers can use the store meanwhile\n" |
		expect_stderr
done
expect_exit 1 "$MEV" walk --repo m.git --store S
expect_error "$lockmsg"
expect_exit 1 "$MEV" track --store S --wait 0.2
expect_error "still writes to store 'S' after 0.2 s"
expect_exit 0 "$MEV" releases --store S
expect_exit 0 "$MEV" filemap --store S --release v1.0
step "--wait: track waits for the writer to finish"
(sleep 2 && touch unlock) &
expect_exit 0 "$MEV" track --store S --wait 30
kill -0 $holder 2>/dev/null && fail "track did not wait for the lock"
wait $holder
expect_stderr_contains "8 releases tracked"
expect_exit 0 "$MEV" events --store S
expect_stdout_contains "split"
step "--wait: a walk waits for the writer to finish"
hold
(sleep 1 && touch unlock) &
expect_exit 0 "$MEV" walk --repo m.git --store S --wait 30
kill -0 $holder 2>/dev/null && fail "walk did not wait for the lock"
wait $holder
expect_exit 2 "$MEV" cluster --store S --wait -1
expect_error "--wait"

step "walks in a loop; cluster, track and readers meanwhile (${seconds} s)"
c7=$(git -C m.git rev-parse v1.4^{commit})
rc1=$(git -C m.git rev-parse v1.3-rc1^{commit})
walker=
# on any end, the walk loop ends too (then lib.sh's cleanup)
trap 'touch "$TMP/stop"; [ -z "$walker" ] || wait $walker 2>/dev/null; rm -rf "$TMP"' EXIT
(
	i=0
	while [ ! -e "$TMP/stop" ]; do
		i=$((i + 1))
		case $((i % 3)) in
		0) "$MEV" walk --repo m.git --store S --rebuild -q ;;
		1) git -C m.git tag -f v1.4 "$rc1" >/dev/null; "$MEV" walk --repo m.git --store S -q ;;
		2) git -C m.git tag -f v1.4 "$c7" >/dev/null; "$MEV" walk --repo m.git --store S -q ;;
		esac 2>>walk.err || echo "walk failed" >>walk.err
		echo $i > walks
	done
) &
walker=$!
end=$((SECONDS + seconds))
writes=0 refused=0 waits=0 reads=0
# a writer: exit 0, or 1 with the lock's message only
writer() {
	local status=0
	"$MEV" "$@" -q 2>w.err || status=$?
	if [ $status -eq 0 ]; then
		writes=$((writes + 1))
	elif [ $status -eq 1 ] && [ "$(grep -c '^maintevo: error:' w.err)" -eq 1 ] && grep -qF "$lockmsg" w.err; then
		refused=$((refused + 1))
	else
		cat w.err >&2
		fail "'$*' failed during a walk (exit $status)"
	fi
}
# a writer that waits for the lock: exit 0 always
waiter() {
	"$MEV" "$@" -q --wait 60 2>w.err || { cat w.err >&2; fail "'$* --wait 60' failed during a walk"; }
	waits=$((waits + 1))
}
# a reader: exit 0 always
reader() {
	"$MEV" "$@" >/dev/null 2>r.err || { cat r.err >&2; fail "'$*' failed during a walk"; }
	reads=$((reads + 1))
}
while [ $SECONDS -lt $end ]; do
	writer track --store S
	reader events --store S
	reader lineages --store S
	waiter cluster --store S -j 2
	reader export clusters --store S
	reader section-changes --store S
	reader releases --store S
done
waiter track --store S
touch stop
wait $walker
echo "# $(cat walks 2>/dev/null || echo 0) walks; track: $writes ran, $refused refused (another writer); $waits cluster and track runs with --wait; $reads reads"
[ "$(cat walks 2>/dev/null || echo 0)" -ge 3 ] || fail "only $(cat walks 2>/dev/null || echo 0) walks ran"
[ $((writes + refused)) -ge 3 ] || fail "only $((writes + refused)) track runs"
# walks: ended, or refused with the lock's message (track or cluster held it)
others=$(grep '^maintevo: error:' walk.err 2>/dev/null | grep -cvF "$lockmsg" || true)
[ "$others" -eq 0 ] || { cat walk.err >&2; fail "$others walks failed otherwise"; }
[ "$(grep -c '^walk failed$' walk.err 2>/dev/null || true)" -eq "$(grep -cF "$lockmsg" walk.err 2>/dev/null || true)" ] ||
	{ cat walk.err >&2; fail "a walk failed without a message"; }

step "the store ends as an uninterrupted walk and track leave it"
expect_exit 0 "$MEV" walk --repo m.git --store S -q
expect_exit 0 "$MEV" track --store S -q
expect_exit 0 "$MEV" walk --repo m.git --store F -q
expect_exit 0 "$MEV" track --store F -q
for c in "export clusters" events lineages section-changes releases; do
	"$MEV" $c --store S > s.csv
	"$MEV" $c --store F > f.csv
	same_files s.csv f.csv
done
echo "PASS"
