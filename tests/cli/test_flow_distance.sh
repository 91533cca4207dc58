# Integration distance (docs/flow.md): a planted history where every commit's
# distance is known -- the committer maintains a touched section (0), a
# neighbour (1), one two and three hops away, one with no path, or nothing --
# and the aggregates of 'export flow' over them.
. "$(dirname "$0")/lib.sh" "$@"
. "$SRC/tests/fixtures/flow-repo.sh"
command -v python3 >/dev/null || skip "python3 is not installed"

# The overlap graph (THE REST left out): A-CORE - AB-GLUE - B-CORE - BC-GLUE -
# C-CORE in a chain (each glue section shares one file with each core it
# joins), ISLAND alone.
distance_maintainers() {
	sed 's/^\([A-Z]\): /\1:\t/' <<'EOF2'
A-CORE
M: Anna A <anna@a.org>
S: Maintained
F: a/

AB-GLUE
M: Glen Glue <glen@g.org>
S: Maintained
F: a/glue.c
F: b/glue.c

B-CORE
M: Bob B <bob@b.org>
S: Maintained
F: b/

BC-GLUE
M: Bea Glue <bea@g.org>
S: Maintained
F: b/bc.c
F: c/bc.c

C-CORE
M: Cara C <cara@c.org>
S: Maintained
F: c/

ISLAND
M: Ivan I <ivan@i.org>
S: Maintained
F: island/

THE REST
M: Linus Top <linus@top.org>
S: Buried alive in reporters
F: *
F: */
EOF2
}

step "a history where every commit's distance is planted"
d=repo
mkrepo $d
mkdir -p $d/a $d/b $d/c $d/island $d/misc
distance_maintainers >$d/MAINTAINERS
for f in a/x.c a/glue.c b/x.c b/glue.c b/bc.c c/x.c c/bc.c island/i.c misc/m.c; do
	echo "/* $f */" >"$d/$f"
done
commit_all $d v1.0
A='Alice Auth <alice@ex.org>'
flow_commit $d "$A" 'Anna A <anna@a.org>' a/x.c "d0 the maintainer of the touched section"
flow_commit $d "$A" 'Glen Glue <glen@g.org>' a/x.c "d1 a neighbour's maintainer"
flow_commit $d "$A" 'Bob B <bob@b.org>' a/x.c "d2 two hops away"
flow_commit $d "$A" 'Ivan I <ivan@i.org>' a/x.c "d3 no path"
flow_commit $d "$A" 'Dora Dev <dora@dev.org>' a/x.c "d4 the committer maintains nothing"
flow_commit $d "$A" 'Glen Glue <glen@g.org>' c/x.c "d5 three hops away"
echo more >>$d/a/x.c
flow_commit $d "$A" 'Glen Glue <glen@g.org>' c/x.c "d6 the nearest touched section counts"
flow_commit $d "$A" 'Anna A <anna@a.org>' misc/m.c "d7 only THE REST"
git -C $d tag -a v2.0 -m "release v2.0"
expect_exit 0 "$MEV" walk --repo $d --store s -q
expect_exit 0 "$MEV" cluster --store s -q
expect_exit 0 "$MEV" flow --store s

step "every commit's distance"
expect_exit 0 "$MEV" export commits --store s -o commits.csv
git -C $d log --all --format='%H %s' >subjects.txt
python3 - commits.csv subjects.txt <<'PY' || fail "distances differ"
import csv, sys
subj = dict(l.rstrip("\n").split(" ", 1) for l in open(sys.argv[2]))
want = {"d0": "0", "d1": "1", "d2": "2", "d3": "", "d4": "", "d5": "3", "d6": "1", "d7": ""}
got = {subj[r["commit"]][:2]: r["integration_distance"] for r in csv.DictReader(open(sys.argv[1]))}
if got != want:
    print("got", got, "want", want)
    sys.exit(1)
PY

step "aggregates: commits with a distance, mean, median, no path"
expect_exit 0 "$MEV" export flow --store s -o flow.csv
python3 - flow.csv <<'PY' || fail "aggregates differ"
import csv, sys
want = {  # (level, group): distance_commits, distance_mean, distance_median, no_path
    ("release", ""): ("5", "1.4", "1", "1"),   # d0 d1 d2 d5 d6: 0 1 2 3 1; d3 no path
    ("section", "A-CORE"): ("4", "1", "1", "1"),  # d0 d1 d2 d6: 0 1 2 1; d3
    ("section", "C-CORE"): ("2", "2", "2", "0"),  # d5 d6: 3 1
}
got = {(r["level"], r["group"]): (r["distance_commits"], r["distance_mean"], r["distance_median"],
                                  r["no_path"]) for r in csv.DictReader(open(sys.argv[1]))}
bad = [(k, got.get(k), v) for k, v in want.items() if got.get(k) != v]
print(bad) if bad else None
sys.exit(1 if bad else 0)
PY

step "the tables as docs/schemas.md says"
for t in commits flow; do
	for f in csv json jsonl; do
		expect_exit 0 "$MEV" export "$t" --store s --format "$f" -o "$t.$f"
	done
	python3 "$HERE/helpers/check_export.py" table "$SRC/docs/schemas.md" "$t" "$t.csv" "$t.json" "$t.jsonl" ||
		fail "table $t"
done
