# maintevo walk: incremental results equal cold ones, nightly re-runs,
# insertion of an older tag, refusing foreign stores, SIGINT, readers during
# a walk, and kill -9 at random moments leaving a store that resumes to the
# same content as an uninterrupted walk.
. "$(dirname "$0")/lib.sh" "$@"

step "demo history"
bash "$SRC/scripts/make-demo-repo.sh" demo >/dev/null
tags=$(git -C demo tag | grep -E '^v[0-9]+\.[0-9]+$' | sort -V)
ntags=$(echo "$tags" | wc -l)
[ "$ntags" -ge 5 ] || fail "demo has only $ntags release tags"

# dump STORE: everything a store can give back, as text
dump() {
	"$MEV" releases --store "$1"
	for t in $tags; do
		echo "== $t"
		"$MEV" graph --store "$1" --release "$t" --keep-rest
		"$MEV" filemap --store "$1" --release "$t" --keep-rest
	done
}

step "a walk equals cold builds of every release"
expect_exit 0 "$MEV" walk --repo demo --store A
expect_stderr_contains "$ntags releases walked, 0 already stored"
for t in $tags; do
	"$MEV" graph --repo demo --rev "$t" --keep-rest > cold.csv 2>/dev/null
	"$MEV" graph --store A --release "$t" --keep-rest > stored.csv
	same_files cold.csv stored.csv
	"$MEV" filemap --repo demo --rev "$t" > cold.csv 2>/dev/null
	"$MEV" filemap --store A --release "$t" > stored.csv
	same_files cold.csv stored.csv
done
expect_exit 0 "$MEV" releases --store A
[ "$(($(wc -l < "$OUT") - 1))" -eq "$ntags" ] || fail "releases lists $(($(wc -l < "$OUT") - 1)) rows"
expect_stdout_contains "v1.0,"
dump A > A.txt

step "--verify agrees"
expect_exit 0 "$MEV" walk --repo demo --store V --verify -q

step "nothing new: nothing walked"
expect_exit 0 "$MEV" walk --repo demo --store A
expect_stderr_contains "0 releases walked, $ntags already stored"
dump A > A2.txt
same_files A.txt A2.txt

step "an older tag appears later: inserted in order, successor re-encoded"
git clone -q --mirror demo late.git
middle=$(echo "$tags" | sed -n 3p)
git -C late.git tag -d "$middle" >/dev/null
expect_exit 0 "$MEV" walk --repo late.git --store L -q
git -C late.git fetch -q ../demo "refs/tags/$middle:refs/tags/$middle"
expect_exit 0 "$MEV" walk --repo late.git --store L
expect_stderr_contains "1 release walked"
dump L > L.txt
# the repository path differs; the content must not
same_files A.txt L.txt

step "a store of another repository is refused"
mkrepo other
echo hello > other/README
commit_all other v9.9
expect_exit 1 "$MEV" walk --repo other --store A
expect_error "holds the history of another repository"

step "other options than the store's are refused"
expect_exit 1 "$MEV" walk --repo demo --store A --tags 'v1.*'
expect_error "was walked with --tags"

step "what is not a store is refused"
mkdir notastore
echo data > notastore/file.txt
expect_exit 1 "$MEV" walk --repo demo --store notastore
expect_error "is not a maintevo store"
expect_exit 1 "$MEV" releases --store missing-store
expect_error "no maintevo store at 'missing-store'"
mkdir garbage
head -c 65536 /dev/urandom > garbage/data.mdb
expect_exit 1 "$MEV" releases --store garbage
expect_error "is not a maintevo store"
if command -v mdb_load >/dev/null; then
	printf 'schema\n99\n' | mdb_load -T -s meta -n newer.mdb
	mkdir newer && mv newer.mdb newer/data.mdb
	expect_exit 1 "$MEV" releases --store newer
	expect_error "written by schema 99, this build reads"
fi

step "SIGINT stops after the current release; the next run goes on"
# SIGINT once the store is open (the handler is in place by then); a walk
# that finished first proves nothing, so try until one was stopped
stopped=0
for try in $(seq 1 20); do
	rm -rf I
	"$MEV" walk --repo demo --store I > /dev/null 2> int.err &
	pid=$!
	while kill -0 $pid 2>/dev/null && [ ! -s I/data.mdb ]; do :; done
	kill -INT $pid 2>/dev/null || true
	status=0
	wait $pid || status=$?
	[ "$status" -eq 0 ] || { cat int.err >&2; fail "SIGINT: exit $status"; }
	expect_exit 0 "$MEV" walk --repo demo --store I -q
	dump I > I.txt
	same_files A.txt I.txt
	if grep -q "maintevo: stopped" int.err; then stopped=1; break; fi
done
[ $stopped -eq 1 ] || fail "no walk was stopped by SIGINT in $try tries"
echo "# (stopped by SIGINT on try $try)"

step "readers work while a walk writes"
"$MEV" walk --repo demo --store R -q &
pid=$!
reads=0
while kill -0 $pid 2>/dev/null; do
	if [ -d R ] && [ -e R/data.mdb ]; then
		"$MEV" releases --store R > /dev/null 2> read.err ||
			grep -q "no maintevo store" read.err || { cat read.err >&2; fail "a read failed during the walk"; }
		reads=$((reads + 1))
	fi
done
wait $pid
echo "# $reads reads during the walk"

step "kill -9 at random moments, then resume: same content"
RANDOM=42
done_=0
for i in $(seq 1 60); do
	"$MEV" walk --repo demo --store K -q &
	pid=$!
	# 0..95 ms
	sleep "0.0$((RANDOM % 10))$((RANDOM % 10))"
	kill -9 $pid 2>/dev/null || true
	wait $pid 2>/dev/null || true
	# the store must always be readable and hold whole releases only
	if [ -e K/data.mdb ]; then
		"$MEV" releases --store K > /dev/null 2> kill.err ||
			grep -q "no maintevo store" kill.err || { cat kill.err >&2; fail "store unreadable after kill -9 #$i"; }
	fi
done
expect_exit 0 "$MEV" walk --repo demo --store K
dump K > K.txt
same_files A.txt K.txt

step "a map that starts tiny grows as needed"
expect_exit 0 env MEV_STORE_MAP_BYTES=65536 "$MEV" walk --repo demo --store G -q
dump G > G.txt
same_files A.txt G.txt

step "--rebuild starts over"
expect_exit 0 "$MEV" walk --repo demo --store A --rebuild
expect_stderr_contains "$ntags releases walked"
dump A > A3.txt
same_files A.txt A3.txt

step "store info"
expect_exit 0 "$MEV" store info --store A
expect_stdout_contains "releases:     $ntags"
expect_stdout_contains "schema 1"
# every table LMDB lists, with its entries: one release record, file table
# and notes per release, the identity and the schema
for t in blobs diags meta releases tables; do
	grep -q "^$t  " "$OUT" || fail "store info does not list table '$t'"
done
for t in diags releases tables; do
	[ "$(awk -v t=$t '$1 == t { print $2 }' "$OUT")" = "$ntags" ] || fail "store info: '$t' has not $ntags entries"
done
[ "$(awk '$1 == "meta" { print $2 }' "$OUT")" = 2 ] || fail "store info: 'meta' has not 2 entries"
echo "PASS"
