# The reports of the demo history (scripts/make-demo-repo.sh), Markdown and
# HTML, compared byte for byte with tests/golden/: any change to what a
# report says or how it looks shows here, and is reviewed as a diff of the
# golden files (regenerate them with scripts/dev/update-golden.sh).
# With MEV_UPDATE_GOLDEN=DIR (absolute) the reports are written to DIR
# instead (scripts/dev/update-golden.sh).
. "$(dirname "$0")/lib.sh" "$@"
GOLDEN=${MEV_UPDATE_GOLDEN:-$SRC/tests/golden}

step "demo history: walk, cluster, track"
bash "$SRC/scripts/make-demo-repo.sh" demo >/dev/null
expect_exit 0 "$MEV" walk --repo demo --store S -q
expect_exit 0 "$MEV" track --store S -q

# The reports: NAME and the options that write it.  The default pair (the
# newest with events: v1.4 -> v1.5, as the heading says), the two newest
# releases (what the nightly job reports), the whole range, and the steps
# with the planted split (v1.3 -> v1.4) and merge and death (v1.4 -> v1.5).
reports=(
	"report|"
	"v1.6-v1.7|--from v1.6 --to v1.7"
	"v1.0-v1.7|--from v1.0 --to v1.7"
	"v1.3-v1.4|--from v1.3 --to v1.4"
	"v1.4-v1.5|--from v1.4 --to v1.5"
)

step "write the reports"
mkdir out
for r in "${reports[@]}"; do
	name=${r%%|*} opts=${r#*|}
	# shellcheck disable=SC2086 # the options are words
	expect_exit 0 "$MEV" report --store S $opts -o "out/$name.md"
	# shellcheck disable=SC2086
	expect_exit 0 "$MEV" report --store S $opts --format html -o "out/$name.html"
done

step "without --from and --to: the newest pair with events, and a note that says so"
expect_exit 0 "$MEV" report --store S -o out/default.md
expect_stderr_contains "maintevo: report: v1.4 -> v1.5, the newest pair with events; v1.7 is the newest release"
grep -qF "v1.4 to v1.5 is the newest pair with events" out/default.md || fail "the heading does not say why v1.4 -> v1.5"
# only the heading's sentence tells it from the report of the pair named
sed 's/ v1\.4 to v1\.5 is the newest pair with events ([^)]*); v1\.7 is the newest release ([^)]*)\.//' \
	out/default.md >out/default-less.md
same_files out/default-less.md out/v1.4-v1.5.md
rm out/default.md out/default-less.md
# not tracked: no events known, the two newest, no note
expect_exit 0 "$MEV" walk --repo demo --store U -q
expect_exit 0 "$MEV" report --store U -o out/untracked.md
grep -q '^# Linux: v1.6 → v1.7$' out/untracked.md || fail "untracked store: not the two newest"
! grep -q "newest pair" "$ERR" || fail "a note without events: $(cat "$ERR")"
rm -r out/untracked.md U
# a pair named (even half of it) is the user's: no note
expect_exit 0 "$MEV" report --store S --to v1.7 -o /dev/null
! grep -q "newest pair" "$ERR" || fail "a note with --to: $(cat "$ERR")"

step "the chart shades the report's pair, in the SVG drawn in C (--format svg, the page, the report)"
expect_exit 0 "$MEV" chart --store S --format svg --mark v1.4..v1.5 -o out/chart.svg
[ "$(grep -c '<rect class="mark"' out/chart.svg)" = 1 ] || fail "chart.svg: not one shaded rect"
grep -qF 'shaded: v1.4 → v1.5' out/chart.svg || fail "chart.svg: the subheading names no shaded pair"
# the rect spans the x of both releases' axis labels, and not their neighbours'
rect=$(sed -n 's/.*<rect class="mark" x="\([0-9.]*\)" y="[0-9.]*" width="\([0-9.]*\)".*/\1 \2/p' out/chart.svg)
label_x() { sed -n "s/.*<text data-release=\"[0-9]*\" x=\"\([0-9.]*\)\"[^>]*>$1<\/text>.*/\1/p" out/chart.svg; }
echo "$rect $(label_x v1.3) $(label_x v1.4) $(label_x v1.5) $(label_x v1.6)" |
	awk '{ x0 = $1; x1 = $1 + $2; exit !(NF == 6 && $3 < x0 && x0 < $4 && $5 < x1 && x1 < $6) }' ||
	fail "chart.svg: the shaded rect ($rect) does not span v1.4 .. v1.5 alone"
expect_exit 0 "$MEV" chart --store S --mark v1.4..v1.5 -o out/chart.html
grep -q '<rect class="mark"' out/chart.html || fail "chart.html: no shaded rect"
grep -q '<rect class="mark"' out/report.html || fail "report.html: its lineage chart shades no pair"

step "scripts/demo-story.sh (scripts/demo.sh's first picture): the newest pair with events"
expect_exit 0 "$SRC/scripts/demo-story.sh" --store S --out story --maintevo "$MEV"
expect_stdout_contains "v1.4 -> v1.5, the newest pair with events (0 born, 1 died, 0 split, 1 merged)"
same_files story/report.md out/report.md
same_files story/report.html out/report.html
grep -qF 'shaded: v1.4 → v1.5' story/chart.html || fail "story/chart.html: v1.4 -> v1.5 not shaded"
rm out/chart.svg out/chart.html

if [ -n "${MEV_UPDATE_GOLDEN:-}" ]; then
	mkdir -p "$GOLDEN"
	cp out/*.md out/*.html "$GOLDEN/"
	echo "wrote $(ls out | wc -l) golden files to $GOLDEN"
	exit 0
fi

step "compare with $GOLDEN"
shopt -s nullglob
bad=
for f in out/*.md out/*.html; do
	want=$GOLDEN/${f#out/}
	if [ ! -f "$want" ]; then
		echo "missing golden file: $want" >&2
		bad="$bad ${f#out/}"
	elif ! cmp -s "$want" "$f"; then
		echo "--- ${f#out/} differs from the golden file (first 200 lines of the diff):" >&2
		diff -u "$want" "$f" | head -n 200 >&2 || true
		bad="$bad ${f#out/}"
	fi
done
for want in "$GOLDEN"/*.md "$GOLDEN"/*.html; do
	[ -f "out/${want##*/}" ] || { echo "golden file not written by the test: $want" >&2; bad="$bad ${want##*/}"; }
done
last_cmd=
[ -z "$bad" ] || fail "reports differ from tests/golden:$bad
if the change is intended, run scripts/dev/update-golden.sh and review the diff of tests/golden/"
echo "PASS"
