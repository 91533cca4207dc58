# maintevo cluster, clusters, track, events, lineages, section-changes and
# import-pasta end to end: a planted history (scripts/eval/make-planted-repo.py)
# whose events the tracker must find, identical releases that must give
# only continuations, nightly runs that compute only the new pair, imported
# graphs, refusals and usage errors.
. "$(dirname "$0")/lib.sh" "$@"

command -v python3 >/dev/null || skip "python3 is not installed"

step "a planted history"
python3 "$SRC/scripts/eval/make-planted-repo.py" --seed 1 --releases 6 --groups 8 --events 3 \
	--identical-last --truth truth.csv planted >/dev/null
expect_exit 0 "$MEV" walk --repo planted --store S -q

step "cluster: every release once, then nothing"
expect_exit 0 "$MEV" cluster --store S
expect_stderr_contains "6 releases clustered, 0 already clustered, with temporal:res=1:seed=1:tol=0.97:top=1"
expect_stderr_contains "clustered now: "
expect_exit 0 "$MEV" cluster --store S -j 1
expect_stderr_contains "0 releases clustered, 6 already clustered"
# the default (temporal) keeps the clusters of the last release, identical
# to the one before, and stays within 0.97 of Leiden's modularity
expect_exit 0 "$MEV" releases --store S
awk -F, 'NR == 7 { exit !($20 == "kept" && $21 == 0) }' "$OUT" || fail "identical last release: clusters not kept"
awk -F, 'NR > 1 && !($18 >= 0.97 * $19) { exit 1 }' "$OUT" || fail "modularity below 0.97 of the reference"

step "clusters: the CSV of one release"
expect_exit 0 "$MEV" clusters --store S --release v1.0
head -n 1 "$OUT" | grep -qx 'release,method,cluster,representative,section,section_lines,cluster_sections,cluster_lines,code_lines,lineage,lineage_name,tracking,display_name,representative_display_name' ||
	fail "clusters header"
# every cluster starts with its representative, clusters are numbered from 1
awk -F, 'NR > 1 && $3 != prev { if ($4 != $5) exit 1; prev = $3 }' "$OUT" || fail "a cluster does not start with its representative"
awk -F, 'NR == 2 { exit !($3 == 1) }' "$OUT" || fail "clusters are not numbered from 1"
! grep -qF ',THE REST' "$OUT" || fail "THE REST is clustered"
"$MEV" clusters --store S --release v1.0 > again.csv
same_files "$OUT" again.csv
expect_exit 1 "$MEV" clusters --store S --release v1.0 --method leiden
expect_error "is not clustered with leiden:res=1:seed=1:top=1"
expect_exit 1 "$MEV" clusters --store S --release v9.9
expect_error "release 'v9.9' is not in store"

step "track finds the planted events"
expect_exit 0 "$MEV" track --store S
expect_stderr_contains "6 releases tracked (6 computed: 5 pairs on code"
"$MEV" events --store S > events.csv
"$MEV" section-changes --store S > sections.csv
python3 "$SRC/scripts/eval/planted-score.py" truth.csv events.csv sections.csv > score.csv 2> misses.txt
cat score.csv
awk -F, 'NR > 1 && ($5 < 0.95 || $6 < 0.95) { bad = 1 } END { exit bad }' score.csv ||
	{ cat misses.txt >&2; fail "precision or recall below 0.95"; }
grep -q '^structural,' score.csv || fail "no structural score"

step "a gap of one release is bridged, and explain says why"
grep -q '^v1.2,v1.4,bridge,[0-9]*,GARNET STORAGE SUBSYSTEM,GARNET STORAGE SUBSYSTEM,' events.csv ||
	fail "the planted gap (GARNET STORAGE, missing from v1.3) is not one bridge v1.2 -> v1.4"
grep -q '^v1.2,v1.3,death,[0-9]*,GARNET STORAGE SUBSYSTEM,' events.csv && fail "the bridged lineage also dies"
expect_exit 0 "$MEV" explain --store S --release v1.4 --lineage "GARNET STORAGE SUBSYSTEM"
expect_stdout_contains "v1.2 -> v1.4: bridge: GARNET STORAGE SUBSYSTEM (lineage GARNET STORAGE SUBSYSTEM ["
expect_stdout_contains "vanished after v1.2 and comes back in v1.4 as GARNET STORAGE SUBSYSTEM"
expect_stdout_contains "why: no cluster of the gap continued it (v1.3 has 0 of its"
expect_stdout_contains "within --gap 1 release: the lineage goes on instead of dying after v1.2"

step "identical releases: only continuations"
awk -F, '$1 == "v1.4" && $2 == "v1.5" { n++; if ($3 != "continuation") bad = 1 } END { exit bad || !n }' events.csv ||
	fail "the identical pair v1.4 -> v1.5 has other events than continuations"

step "events, lineages, section-changes: headers and filters"
# support: every planted event is found by (nearly) every perturbed run
python3 - events.csv <<'PY' || fail "support: an event without support in [0, 1], or a planted one below 0.9"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows and all(r["support"] != "" and 0 <= float(r["support"]) <= 1 for r in rows)
assert all(float(r["support"]) >= 0.9 for r in rows if r["event"] in ("split", "merge", "birth", "death"))
PY
head -n 1 events.csv | grep -qx 'from_release,to_release,event,lineage,from_cluster,to_cluster,similarity,from_lines,to_lines,method,lineage_name,from_lineage,share,partner,partner_lineage,partner_share,support,tracking,from_cluster_display_name,to_cluster_display_name,cause_kind,cause' ||
	fail "events header"
expect_exit 0 "$MEV" events --store S --from v1.2 --to v1.3
awk -F, 'NR > 1 && !($1 == "v1.2" && $2 == "v1.3") { exit 1 }' "$OUT" || fail "--from/--to"
[ "$(wc -l < "$OUT")" -gt 1 ] || fail "--from/--to kept nothing"
expect_exit 0 "$MEV" lineages --store S
head -n 1 "$OUT" | grep -qx 'lineage,name,first_release,last_release,parent,peak_lines,releases,method,tracking,display_name,last_name' ||
	fail "lineages header"
awk -F, 'NR > 1 && $5 != "" { n++ } END { exit !n }' "$OUT" || fail "no lineage has a parent (splits were planted)"
cp "$OUT" lineages.csv
# last_name: the name of its cluster at its last release, as clusters are
# named; the planted history moves lineage 1 (born EMBER NETWORK SUBSYSTEM)
# onto another largest section, while its stable name stays
expect_exit 0 "$MEV" export clusters --store S
python3 - lineages.csv "$OUT" <<'PY' || fail "last_name"
import csv, sys
lineages = list(csv.DictReader(open(sys.argv[1])))
named = {(r["release"], r["lineage"]): r["representative_display_name"]
         for r in csv.DictReader(open(sys.argv[2]))}
assert all(l["last_name"] == named[(l["last_release"], l["lineage"])] for l in lineages)
one = lineages[0]
assert one["name"] == "EMBER NETWORK SUBSYSTEM" and one["last_name"] not in ("", one["name"]), one
PY
head -n 1 sections.csv | grep -qx 'from_release,to_release,change,section,new_section,lines,coverage,display_name,new_display_name' ||
	fail "section-changes header"
grep -q ',renamed,' sections.csv || fail "no renamed section"
expect_exit 1 "$MEV" events --store S --from v7.0
expect_error "release 'v7.0' is not in store"
expect_exit 1 "$MEV" events --store S --method louvain
expect_error "not tracked with louvain"

step "other thresholds: stored beside the default results, named by their key"
expect_exit 0 "$MEV" track --store S -q --link 0.05 --absorb 0.9
expect_exit 0 "$MEV" events --store S
same_files events.csv "$OUT"
expect_exit 0 "$MEV" events --store S --link 0.05 --absorb 0.9
expect_stdout_contains ",link=0.05:match=0.5:growth=0.1:absorb=0.9:gap=1"
cp "$OUT" events-low.csv
expect_exit 0 "$MEV" events --store S --tracking link=0.05:absorb=0.9
same_files events-low.csv "$OUT"
expect_exit 0 "$MEV" lineages --store S --link 0.05 --absorb 0.9
awk -F, 'NR > 1 && $9 != "link=0.05:match=0.5:growth=0.1:absorb=0.9:gap=1" { exit 1 }' "$OUT" ||
	fail "lineages rows do not name the thresholds"
expect_exit 0 "$MEV" store info --store S
expect_stdout_contains "tracked:      temporal:res=1:seed=1:tol=0.97:top=1/link=0.1:match=0.5:growth=0.1:absorb=0.5:gap=1 ("
expect_stdout_contains "tracked:      temporal:res=1:seed=1:tol=0.97:top=1/link=0.05:match=0.5:growth=0.1:absorb=0.9:gap=1 ("
expect_exit 1 "$MEV" events --store S --link 0.07
expect_error "not tracked with temporal:res=1:seed=1:tol=0.97:top=1/link=0.07:match=0.5:growth=0.1:absorb=0.5:gap=1"
expect_exit 2 "$MEV" events --store S --tracking link=0.05:bogus=1
expect_error "unknown threshold 'bogus'"

step "support: other runs are stored beside, none leaves the column empty"
expect_exit 0 "$MEV" track --store S --support-runs 3
expect_stderr_contains "support: 5 pairs measured with 3 perturbed runs"
expect_exit 0 "$MEV" events --store S --support-runs 3
awk -F, 'NR > 1 && $17 != "1" && $17 != "0.666667" && $17 != "0.333333" && $17 != "0" { exit 1 }' "$OUT" ||
	fail "support of 3 runs is not a multiple of 1/3"
expect_exit 0 "$MEV" events --store S --support-runs 0
awk -F, 'NR > 1 && $17 != "" { exit 1 }' "$OUT" || fail "no runs: support not empty"
expect_exit 0 "$MEV" events --store S
same_files events.csv "$OUT"

step "nothing new: nothing computed, same output"
expect_exit 0 "$MEV" track --store S
expect_stderr_contains "(0 computed"
"$MEV" events --store S > events2.csv
same_files events.csv events2.csv

step "nightly: a new release is the only pair computed; lineage ids stay"
git clone -q --mirror planted late.git
git -C late.git tag -d v1.5 >/dev/null
expect_exit 0 "$MEV" walk --repo late.git --store N -q
expect_exit 0 "$MEV" track --store N -q
git -C late.git fetch -q ../planted "refs/tags/v1.5:refs/tags/v1.5"
expect_exit 0 "$MEV" walk --repo late.git --store N -q
expect_exit 0 "$MEV" track --store N
expect_stderr_contains "(1 computed: 1 pair on code"
"$MEV" events --store N > events3.csv
same_files events.csv events3.csv

step "scripts/eval/stability.py: flip-back share and modularity ratio"
expect_exit 0 python3 "$SRC/scripts/eval/stability.py" --self-test
expect_exit 0 python3 "$SRC/scripts/eval/stability.py" --maintevo "$MEV" S temporal
# planted subsystems are unambiguous: nothing flips back, and the temporal
# clusters score as well as the best independent Leiden run
awk '$1 == "temporal" { found = 1; if ($2 != 0 || $4 < 0.97 || $5 < 0.97) exit 1 } END { exit !found }' "$OUT" ||
	fail "stability.py: temporal row missing or off"

step "other methods and smoothing"
for m in walktrap louvain leiden components; do
	expect_exit 0 "$MEV" track --store S -q --method $m
	expect_exit 0 "$MEV" events --store S --method $m
done
expect_exit 0 "$MEV" track --store S --smooth
expect_exit 0 "$MEV" events --store S --smooth
awk -F, '$1 == "v1.4" && $3 != "continuation" { exit 1 }' "$OUT" || fail "smoothed: identical pair not all continuations"
expect_exit 0 "$MEV" clusters --store S --release v1.3 --method leiden:res=1:seed=1:top=1:smooth
expect_stdout_contains ",leiden:res=1:seed=1:top=1:smooth,"
expect_exit 0 "$MEV" track --store S -q --top-fraction 0.5
expect_exit 0 "$MEV" clusters --store S --release v1.0 --top-fraction 0.5
[ "$(wc -l < "$OUT")" -lt "$(wc -l < again.csv)" ] || fail "--top-fraction 0.5 kept every section"

step "lineage per cluster: the tracker's, also where a merge carries an older lineage"
# v1.0: ALPHA (1000 lines, 900 deleted in v1.1) and BETA (500).  v1.1: XRAY
# takes ALPHA's rest and most of BETA and goes on as ALPHA's lineage 1 (a
# merge); BETA keeps lineage 2 through its largest successor BETA.  The
# merge event BETA -> XRAY carries lineage 1, but v1.0's BETA is lineage 2.
mkrepo mg
mkdir -p mg/a mg/b mg/new
seq 1 100 > mg/a/keep.c; seq 1 900 > mg/a/gone.c; seq 1 300 > mg/b/x.c; seq 1 200 > mg/b/y.c
printf 'Maintainers List\n----------------\n\nALPHA\nS:\tMaintained\nF:\ta/\n\nBETA\nS:\tMaintained\nF:\tb/\n\nTHE REST\nF:\t*\nF:\t*/\n' > mg/MAINTAINERS
commit_all mg v1.0
rm mg/a/gone.c; seq 1 2000 > mg/new/n.c
printf 'Maintainers List\n----------------\n\nBETA\nS:\tMaintained\nF:\tb/y.c\nF:\tnew/\n\nXRAY\nS:\tMaintained\nF:\ta/\nF:\tb/x.c\n\nTHE REST\nF:\t*\nF:\t*/\n' > mg/MAINTAINERS
commit_all mg v1.1
expect_exit 0 "$MEV" walk --repo mg --store M -q --dialect linux
expect_exit 0 "$MEV" track --store M -q
expect_exit 0 "$MEV" events --store M
expect_stdout_contains "v1.0,v1.1,merge,1,BETA,XRAY,"
expect_exit 0 "$MEV" export clusters --store M
expect_stdout_contains "v1.0,temporal:res=1:seed=1:tol=0.97:top=1,1,ALPHA,ALPHA,1000,1,1000,1000,1"
expect_stdout_contains "v1.0,temporal:res=1:seed=1:tol=0.97:top=1,2,BETA,BETA,500,1,500,500,2"
expect_stdout_contains "v1.1,temporal:res=1:seed=1:tol=0.97:top=1,2,XRAY,XRAY,400,1,400,400,1"

step "QEMU: the catch-all is found by what it covers, whatever its title"
# QEMU's "All patches CC here" (F: * and F: */) is its THE REST: left out of
# the sections, the graph and the clusters; uncovered files are those no
# other section covers (docs/, qemu-options.hx, MAINTAINERS).
mkrepo qm
mkdir -p qm/block qm/net qm/docs
seq 1 100 > qm/block/a.c; seq 1 50 > qm/block/b.c; seq 1 30 > qm/net/n.c; seq 1 10 > qm/docs/d.txt
echo q > qm/qemu-options.hx
printf 'QEMU Maintainers\n================\n\nGeneral Project Administration\n------------------------------\nM: P <p@example.org>\n\nAll patches CC here\nL: qemu-devel@example.org\nF: *\nF: */\n\nBlock layer core\nM: K <k@example.org>\nF: block/\n\nqcow2\nM: K <k@example.org>\nF: block/a.c\n\nNetwork devices\nM: J <j@example.org>\nF: net/\nF: block/b.c\n' > qm/MAINTAINERS
commit_all qm v1.0.0
expect_exit 0 "$MEV" walk --repo qm --store Q -q
expect_exit 0 "$MEV" cluster --store Q -q
expect_exit 0 "$MEV" releases --store Q
python3 - "$OUT" <<'PY' || fail "catch-all counted as a section or covering files"
import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))[0]
assert (r["sections"], r["sections_with_files"], r["uncovered_files"], r["notes"]) == ("4", "3", "3", "1"), r
PY
expect_exit 0 "$MEV" clusters --store Q --release v1.0.0
! grep -qF 'All patches CC here' "$OUT" || fail "the catch-all is clustered"
expect_stdout_contains ",Block layer core,"
expect_exit 0 "$MEV" filemap --store Q --release v1.0.0 --keep-rest
expect_stdout_contains "docs/d.txt,10,21,All patches CC here"
expect_exit 0 "$MEV" filemap --store Q --release v1.0.0
expect_stdout_contains "docs/d.txt,10,21,"

step "import-pasta: graphs without file tables"
mkdir csvs
cat > csvs/v1.0.csv <<'CSV'
from,to,lines,size
ALPHA,ALPHA,100,1000
ALPHA,BETA,60,600
ALPHA,THE REST,100,1000
"BETA",BETA,80,800
BETA,THE REST,80,800
"GAMMA, THE THIRD",GAMMA, THE THIRD,0,0
THE REST,THE REST,500,5000
CSV
# the odd row above has an unquoted comma: it must be refused
expect_exit 1 "$MEV" import-pasta --store I csvs
expect_error "csvs/v1.0.csv:7:"
cat > csvs/v1.0.csv <<'CSV'
from,to,lines,size
ALPHA,ALPHA,100,1000
ALPHA,BETA,60,600
ALPHA,THE REST,100,1000
BETA,BETA,80,800
BETA,THE REST,80,800
"GAMMA, ""THE THIRD""","GAMMA, ""THE THIRD""",0,0
THE REST,THE REST,500,5000
CSV
sed 's/^ALPHA,BETA,60/ALPHA,BETA,70/' csvs/v1.0.csv > csvs/v1.10.csv
cp csvs/v1.10.csv csvs/v1.2.csv
if command -v zstd >/dev/null; then
	zstd -q --rm csvs/v1.2.csv
fi
expect_exit 0 "$MEV" import-pasta --store I csvs
expect_stderr_contains "3 releases imported (0 replaced)"
expect_exit 0 "$MEV" releases --store I
awk -F, 'NR > 1 { printf "%s ", $1 } END { print "" }' "$OUT" | grep -qx 'v1.0 v1.2 v1.10 ' || fail "imported releases not in version order"
expect_stdout_contains "v1.0,1,0000000000000000000000000000000000000000,1970-01-01T00:00:00Z,0,500,5000,3,"
expect_exit 0 "$MEV" import-pasta --store I csvs
expect_stderr_contains "3 releases imported (3 replaced)"
expect_exit 0 "$MEV" track --store I
expect_stderr_contains "(3 computed: 0 pairs on code, 2 on titles"
expect_exit 0 "$MEV" events --store I
expect_stdout_contains 'v1.0,v1.2,continuation,1,ALPHA,ALPHA,1,180,180,temporal:res=1:seed=1:tol=0.97:top=1'
expect_stdout_contains '"GAMMA, ""THE THIRD"""'
expect_exit 0 "$MEV" graph --store I --release v1.10
expect_stdout_contains "ALPHA,BETA,70,600,0"

step "imported and walked stores do not mix"
expect_exit 1 "$MEV" walk --repo planted --store I
expect_error "holds imported graphs"
expect_exit 1 "$MEV" import-pasta --store S csvs
expect_error "holds releases walked from repository"
expect_exit 1 "$MEV" import-pasta --store J nowhere
expect_error "cannot open directory 'nowhere'"
mkdir empty
expect_exit 1 "$MEV" import-pasta --store J empty
expect_error "no TAG.csv or TAG.csv.zst files in 'empty'"

step "one release: track and every reader succeed; no release: the same, empty"
git clone -q --mirror planted one.git
for t in $(git -C one.git tag); do [ "$t" = v1.0 ] || git -C one.git tag -d "$t" >/dev/null; done
expect_exit 0 "$MEV" walk --repo one.git --store O1 -q
# not tracked yet: the events need 'track'; section changes need no pair
expect_exit 1 "$MEV" events --store O1
expect_error "is not tracked with temporal:res=1:seed=1:tol=0.97:top=1"
expect_exit 0 "$MEV" track --store O1
expect_stderr_contains "1 release tracked (1 computed: 0 pairs on code, 0 on titles; 0 kept)"
expect_stderr_contains "events: 0 birth, 0 death, 0 continuation"
mkrepo none
echo hello > none/README
commit_all none snapshot-1
expect_exit 0 "$MEV" walk --repo none --store O0 -q
expect_exit 0 "$MEV" cluster --store O0
expect_stderr_contains "0 releases clustered, 0 already clustered"
expect_exit 0 "$MEV" track --store O0
expect_stderr_contains "0 releases tracked"
# readers: exit 0; a table has one line per cluster, lineage or release
# of the one release, and a header only where there is nothing
for S in O1 O0; do
	n=$([ $S = O1 ] && echo 1 || echo 0)
	expect_exit 0 "$MEV" releases --store $S
	[ "$(wc -l < "$OUT")" -eq $((n + 1)) ] || fail "releases of $S: not $n rows"
	for c in events section-changes "export events" "export section_changes"; do
		expect_exit 0 "$MEV" $c --store $S
		[ "$(wc -l < "$OUT")" -eq 1 ] || fail "'$c' of $S is not a header alone"
	done
	for c in lineages "export lineages" "export clusters" "export sections"; do
		expect_exit 0 "$MEV" $c --store $S
		rows=$(($(wc -l < "$OUT") - 1))
		if [ $S = O1 ]; then [ $rows -gt 0 ]; else [ $rows -eq 0 ]; fi || fail "'$c' of $S has $rows rows"
	done
	expect_exit 0 "$MEV" export edges --store $S
	expect_exit 0 "$MEV" store info --store $S
	expect_exit 0 "$MEV" store check --store $S
	# a report compares two releases: said so, with the way out
	expect_exit 1 "$MEV" report --store $S
	expect_error "holds $n release"
	expect_stderr_contains "a report compares two"
done
for c in "clusters --release v1.0" "filemap --release v1.0" "graph --release v1.0" \
	"export files --release v1.0" "export graph --release v1.0" "export graph --meta --release v1.0"; do
	expect_exit 0 "$MEV" $c --store O1
	[ "$(wc -l < "$OUT")" -gt 1 ] || fail "'$c' of the one release is empty"
done
expect_exit 0 "$MEV" lineages --store O1
awk -F, 'NR > 1 && !($3 == "v1.0" && $4 == "v1.0" && $7 == 1) { exit 1 }' "$OUT" ||
	fail "a lineage of the one release does not start and end there"

step "usage errors"
expect_exit 2 "$MEV" cluster --store S --method walktrap --smooth
expect_error "smoothing needs the leiden method"
expect_exit 2 "$MEV" cluster --store S --method spectral
expect_error "unknown clustering method"
expect_exit 2 "$MEV" cluster --store S --steps 0
expect_error "--steps takes a whole number"
expect_exit 2 "$MEV" cluster --store S --method louvain --steps 5
expect_error "--steps is for walktrap"
expect_exit 2 "$MEV" cluster --store S --top-fraction 1.5
expect_error "--top-fraction takes a number"
expect_exit 2 "$MEV" track --store S --link 2
expect_error "--link takes a number above 0 and at most 1"
expect_exit 2 "$MEV" clusters --store S
expect_error "--release is required"
expect_exit 2 "$MEV" events --store S --frobnicate
expect_error "unknown option '--frobnicate'"
expect_exit 2 "$MEV" import-pasta --store S
expect_error "say which directory to import"
expect_exit 1 "$MEV" track --store missing-store
expect_error "no maintevo store at 'missing-store'"
for c in cluster clusters track events lineages section-changes import-pasta; do
	expect_exit 0 "$MEV" $c --help
	expect_stdout_contains "usage: maintevo $c"
done

step "--gap 0: another parameter set, with the death and the birth the gap makes"
expect_exit 0 "$MEV" track --store S -q --gap 0 --support-runs 0
expect_exit 0 "$MEV" events --store S --gap 0 --support-runs 0
expect_stdout_contains "v1.2,v1.3,death,"
grep -q ',bridge,' "$OUT" && fail "--gap 0 bridged a lineage"
expect_stdout_contains ":absorb=0.5:gap=0,"
echo "PASS"
