# Damaged and foreign stores (issue 9, points 4 to 6): blob sizes whose
# check fails are measured again, data files cut short, empty, FIFOs or of
# another program are refused with a message naming the file and a hint,
# and damaged records are named by 'store check', dropped by 'store
# repair' and computed again by the next walk, while the releases they do
# not touch stay readable.  Records are damaged with mdb_dump and mdb_load
# (lmdb-utils).
. "$(dirname "$0")/lib.sh" "$@"

command -v mdb_dump >/dev/null && command -v mdb_load >/dev/null ||
	skip "mdb_dump and mdb_load (lmdb-utils) are not installed"

# hexof TEXT: the bytes of TEXT in hex, as mdb_dump writes keys
hexof() { printf %s "$1" | od -An -tx1 | tr -d ' \n'; }

# damage STORE TABLE HEXKEY|all [flip|cut]: flip a bit in the middle of the
# value of one key (or of every key), or cut it to half its length
damage() {
	mdb_dump -s "$2" "$1" > dump.txt
	python3 - "$3" "${4:-flip}" dump.txt <<'EOF' || fail "cannot damage $2 $3"
import sys
key, mode, path = sys.argv[1:]
lines = open(path).read().split('\n')
start = lines.index('HEADER=END') + 1
done = 0
for i in range(start, len(lines) - 1, 2):
    if lines[i] == 'DATA=END' or (key != 'all' and lines[i] != ' ' + key):
        continue
    v = bytearray.fromhex(lines[i + 1].strip())
    if mode == 'flip':
        v[len(v) // 2] ^= 0x10
    else:
        v = v[:len(v) // 2]
    lines[i + 1] = ' ' + v.hex()
    done += 1
if not done:
    sys.exit('no key ' + key)
open(path, 'w').write('\n'.join(lines))
EOF
	mdb_load -s "$2" "$1" < dump.txt 2>/dev/null || fail "mdb_load $1 $2"
}

step "demo history"
bash "$SRC/scripts/make-demo-repo.sh" demo >/dev/null
tags=$(git -C demo tag | grep -E '^v[0-9]+\.[0-9]+$' | sort -V)

# dump STORE: everything a store gives back about its releases, as text
dump() {
	"$MEV" releases --store "$1"
	for t in $tags; do
		echo "== $t"
		"$MEV" graph --store "$1" --release "$t" --keep-rest
		"$MEV" filemap --store "$1" --release "$t" --keep-rest
	done
}

expect_exit 0 "$MEV" walk --repo demo --store A -q
dump A > A.txt
expect_exit 0 "$MEV" store check --store A
expect_stdout_contains "store 'A': 8 releases,"
expect_stdout_contains ", 0 damaged"

step "point 4: damaged blob sizes are measured again, with a note, never used"
git clone -q --mirror demo late.git
git -C late.git tag -d v1.3 >/dev/null
expect_exit 0 "$MEV" walk --repo late.git --store L -q
damage L blobs all
git -C late.git fetch -q ../demo refs/tags/v1.3:refs/tags/v1.3
expect_exit 0 "$MEV" walk --repo late.git --store L
expect_stderr_contains "is damaged: measuring it again"
expect_stderr_contains "1 release walked"
dump L > L.txt
same_files A.txt L.txt
expect_exit 1 "$MEV" store check --store L
expect_stdout_contains "damaged: blobs "
expect_error "damaged records"

step "point 4: walk --rebuild trusts no stored blob size"
cp -r A R
damage R blobs all
expect_exit 0 "$MEV" walk --repo demo --store R --rebuild
grep -q "is damaged: measuring it again" "$ERR" && fail "--rebuild read the blob-size cache"
expect_stderr_contains "8 releases walked"
dump R > R.txt
same_files A.txt R.txt
expect_exit 0 "$MEV" store check --store R

step "point 5: a data.mdb cut short is refused, not a SIGBUS"
size=$(stat -c %s A/data.mdb)
for cut in $((size / 2)) 4096 100; do
	rm -rf T && cp -r A T
	truncate -s $cut T/data.mdb
	for cmd in "releases --store T" "filemap --store T --release v1.1" "store info --store T" \
		"store check --store T" "walk --repo demo --store T"; do
		expect_exit 1 timeout 20 "$MEV" $cmd
		expect_error "store 'T' is damaged: 'T/data.mdb' is cut short at $cut bytes"
	done
done

step "point 5: a FIFO or a directory for data.mdb is refused, not a hang"
mkdir F && mkfifo F/data.mdb
for cmd in "releases --store F" "walk --repo demo --store F" "store check --store F"; do
	expect_exit 1 timeout 20 "$MEV" $cmd
	expect_error "store 'F' cannot be read: 'F/data.mdb' is a FIFO, not a regular file"
done
mkdir -p D/data.mdb
expect_exit 1 timeout 20 "$MEV" releases --store D
expect_error "'D/data.mdb' is a directory, not a regular file"

step "point 5: an empty data.mdb is refused, by walk too"
mkdir E && : > E/data.mdb
for cmd in "releases --store E" "walk --repo demo --store E" "store repair --store E"; do
	expect_exit 1 timeout 20 "$MEV" $cmd
	expect_error "store 'E' is damaged: 'E/data.mdb' is empty"
done
[ ! -s E/data.mdb ] || fail "the walk wrote into the empty data.mdb"

step "point 5: another program's LMDB with a key 'meta' is not a store"
printf 'meta\nhello\nother\nworld\n' | mdb_load -T -n -f /dev/stdin foreign.mdb
mkdir X && mv foreign.mdb X/data.mdb
for cmd in "releases --store X" "walk --repo demo --store X" "store info --store X"; do
	expect_exit 1 timeout 20 "$MEV" $cmd
	expect_error "'X' is not a maintevo store: 'X/data.mdb' is another program's LMDB database (its key 'meta' holds a value, not a table)"
done

step "point 6: a damaged file table: named by check, the other releases readable"
cp -r A S
damage S tables "$(hexof v1.4)"
expect_exit 1 "$MEV" store check --store S
expect_stdout_contains "damaged: tables v1.4: file table of 'v1.4': stored value of kind 'T' is damaged"
expect_stdout_contains "damaged: tables v1.5: its file table is a delta against 'v1.4', which is damaged"
expect_error "store 'S' has 4 damaged records (releases v1.4, v1.5, v1.6, v1.7)"
expect_exit 1 "$MEV" filemap --store S --release v1.4
expect_error "cannot read release 'v1.4': file table of 'v1.4'"
expect_stderr_contains "hint: 'maintevo store repair --store S' drops the damaged releases"
expect_exit 1 "$MEV" filemap --store S --release v1.6
expect_error "cannot read release 'v1.6': file table of 'v1.4'"
for t in v1.0 v1.1 v1.2 v1.3; do
	expect_exit 0 "$MEV" filemap --store S --release $t
done
expect_exit 0 "$MEV" graph --store S --release v1.5 # the graph is in the release record
expect_exit 0 "$MEV" releases --store S

step "point 6: a walk computes the damaged releases again"
expect_exit 0 "$MEV" walk --repo demo --store S
expect_stderr_contains "release v1.4 is damaged (tables: file table of 'v1.4'"
expect_stderr_contains "4 releases walked, 4 already stored"
dump S > S.txt
same_files A.txt S.txt
expect_exit 0 "$MEV" store check --store S

step "point 6: a damaged release record or notes: 'store repair' drops, the next walk computes"
cp -r A P
damage P releases "$(hexof v1.2)"
damage P diags "$(hexof v1.6)" cut
expect_exit 1 "$MEV" releases --store P
expect_error "cannot list the releases: release record of 'v1.2'"
expect_exit 1 "$MEV" graph --store P --release v1.2
expect_error "cannot read release 'v1.2'"
expect_exit 0 "$MEV" graph --store P --release v1.1
expect_exit 1 "$MEV" store check --store P
expect_stdout_contains "damaged: releases v1.2: "
expect_stdout_contains "damaged: diags v1.6: notes of 'v1.6'"
expect_exit 0 "$MEV" store repair --store P
expect_stdout_contains "dropped: release v1.2 (releases: "
expect_stdout_contains "dropped 6 releases (v1.2, v1.3, v1.4, v1.5, v1.6, v1.7) and 0 other values"
expect_exit 0 "$MEV" store check --store P
expect_exit 0 "$MEV" releases --store P
[ "$(($(wc -l < "$OUT") - 1))" -eq 2 ] || fail "$(($(wc -l < "$OUT") - 1)) releases left, not 2"
expect_exit 0 "$MEV" walk --repo demo --store P -q
dump P > P.txt
same_files A.txt P.txt

step "point 6: damaged values of clusterings and events, by table and key"
cp -r A C
expect_exit 0 "$MEV" cluster --store C -q
expect_exit 0 "$MEV" track --store C -q
"$MEV" clusters --store C --release v1.3 > clusters.csv
"$MEV" events --store C > events.csv
key=$(mdb_dump -s clusters C | grep -m1 "$(hexof v1.3)\$" | tr -d ' ')
damage C clusters "$key"
expect_exit 1 "$MEV" clusters --store C --release v1.3
expect_error "of table 'clusters': stored value of kind 'V' is damaged"
expect_exit 0 "$MEV" clusters --store C --release v1.2
# (the clusters of any release name their lineages: they read every events record)
key=$(mdb_dump -s events C | grep "$(hexof v1.5)\$" | grep -v "^ $(hexof sections)" | grep -v "$(hexof /support)" | grep -v "$(hexof /cause)" | tr -d ' ')
damage C events "$key"
expect_exit 1 "$MEV" events --store C
expect_error "of table 'events': stored value of kind 'V' is damaged"
expect_exit 1 "$MEV" store check --store C
expect_stdout_contains "damaged: clusters temporal:"
expect_stdout_contains '\0v1.3: stored value'
expect_stdout_contains "damaged: events temporal:"
expect_error "store 'C' has 2 damaged records"
expect_stderr_contains "then 'maintevo cluster' and 'maintevo track' compute their results again"
expect_exit 0 "$MEV" store repair --store C
expect_stdout_contains "dropped 0 releases and 2 other values"
expect_exit 0 "$MEV" cluster --store C
expect_stderr_contains "1 release clustered"
expect_exit 0 "$MEV" track --store C -q
"$MEV" clusters --store C --release v1.3 | cmp -s - clusters.csv || fail "clusters differ after the repair"
"$MEV" events --store C | cmp -s - events.csv || fail "events differ after the repair"
exit 0
