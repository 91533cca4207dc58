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
# two newest releases), the whole range, and the steps with the planted
# split (v1.3 -> v1.4) and merge and death (v1.4 -> v1.5).
reports=(
	"report|"
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
