# Fault injection (issue 9, point 11): cluster, track and import-pasta
# killed with kill -9 at random moments, again and again, then run to the
# end: the store must always stay readable and whole ('store check'), no
# lock may outlive a killed run (its worker processes close their copy),
# and the content must equal that of an uninterrupted run.  The walk's
# part is in test_walk.sh.  MEV_TEST_ROUNDS sets the kills per command
# (default 8); the sleeps before each kill are drawn up to the length of
# an uninterrupted run, so that most kills land inside it.
. "$(dirname "$0")/lib.sh" "$@"

command -v python3 >/dev/null || skip "python3 is not installed"
rounds=${MEV_TEST_ROUNDS:-8}
RANDOM=9

step "a planted history of 16 releases"
python3 "$SRC/scripts/eval/make-planted-repo.py" --seed 3 --releases 16 --groups 20 --events 3 planted >/dev/null
expect_exit 0 "$MEV" walk --repo planted --store W -q
tags=$("$MEV" releases --store W | awk -F, 'NR > 1 { print $1 }')
[ "$(echo "$tags" | wc -l)" -eq 16 ] || fail "the walk stored $(echo "$tags" | wc -l) releases, not 16"

# dump STORE: what cluster, track and import leave, as text, for the
# clustering $method
method=temporal
dump() {
	"$MEV" releases --store "$1" --method $method
	"$MEV" export edges --store "$1"
	"$MEV" export clusters --store "$1" --method $method 2>/dev/null || echo "(not clustered)"
	if "$MEV" events --store "$1" --method $method 2>/dev/null; then
		"$MEV" lineages --store "$1" --method $method
		"$MEV" section-changes --store "$1"
		"$MEV" export sections --store "$1" --method $method
	fi
}

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# sleep_upto MS: sleep a random time from 0 to MS milliseconds
sleep_upto() {
	local ms=$((RANDOM % ($1 + 1)))
	sleep "$((ms / 1000)).$(printf %03d $((ms % 1000)))"
}

# faults NAME FRESH REF CMD...: run CMD (its store is K) killed at random
# moments, rounds times; a run that ends before its kill is checked
# against REF and K starts again from a copy of FRESH.  Then CMD runs to
# its end and K must equal REF.
faults() {
	local name=$1 fresh=$2 ref=$3 t0 span killed=0 whole=0 pid status
	shift 3
	rm -rf K
	cp -r "$fresh" K
	t0=$(now_ms)
	"$@" >/dev/null 2>&1 || fail "$name: an uninterrupted run failed"
	span=$(($(now_ms) - t0))
	rm -rf K
	cp -r "$fresh" K
	for i in $(seq 1 "$rounds"); do
		"$@" >/dev/null 2>fault.err &
		pid=$!
		sleep_upto "$span"
		kill -9 $pid 2>/dev/null || true
		status=0
		wait $pid 2>/dev/null || status=$?
		if [ $status -eq 0 ]; then
			whole=$((whole + 1))
			dump K > Kwhole.txt
			same_files "$ref" Kwhole.txt
			rm -rf K
			cp -r "$fresh" K
			continue
		fi
		[ $status -eq 137 ] || { cat fault.err >&2; fail "$name: exit $status (not killed) in round $i"; }
		killed=$((killed + 1))
		if [ -e K/data.mdb ]; then
			expect_exit 0 "$MEV" store check --store K
		fi
	done
	# the next run is not refused: no lock outlived the killed ones
	expect_exit 0 "$@"
	dump K > K.txt
	same_files "$ref" K.txt
	echo "# $name: $killed runs killed, $whole ended before their kill (an uninterrupted run: $span ms)"
}

step "references: uninterrupted runs"
cp -r W C
expect_exit 0 "$MEV" cluster --store C -q
dump C > C.txt
cp -r W CW
expect_exit 0 "$MEV" cluster --store CW -q --method walktrap
method=walktrap dump CW > CW.txt
cp -r W T
expect_exit 0 "$MEV" track --store T -q
dump T > T.txt
grep -q ',temporal:res=1:seed=1:tol=0.97:top=1,' C.txt || fail "the cluster reference has no clusters"
grep -q ',walktrap:steps=4:top=1,' CW.txt || fail "the walktrap reference has no clusters"
grep -q ',continuation,' T.txt && grep -q '^lineage,' T.txt || fail "the track reference has no events"

step "cluster (the default, temporal: each release from the one before) killed at random moments"
faults cluster W C.txt "$MEV" cluster --store K -q

step "cluster --method walktrap (two worker processes) killed at random moments"
method=walktrap
faults cluster-walktrap W CW.txt "$MEV" cluster --store K -q -j 2 --method walktrap
method=temporal

step "track (clustering in this process, then the pairs) killed at random moments"
faults track W T.txt "$MEV" track --store K -q -j 1

step "track of a clustered store (the pairs only)"
faults track-pairs C T.txt "$MEV" track --store K -q

step "import-pasta killed at random moments"
mkdir csvs
for t in $tags; do
	"$MEV" graph --store W --release "$t" --keep-rest |
		awk -F, 'NR == 1 { print "from,to,lines,size"; next } { print $1 "," $2 "," $3 "," $4 }' > "csvs/$t.csv"
done
expect_exit 0 "$MEV" import-pasta --store I csvs -q
dump I > I.txt
[ "$(grep -c '^v1.15,' I.txt)" -gt 10 ] || fail "the import reference has no graphs"
mkdir empty
# K starts as an empty directory: the kills also hit the store's creation
faults import-pasta empty I.txt "$MEV" import-pasta --store K csvs -q
echo "PASS"
