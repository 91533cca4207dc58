# Spreadsheet safety everywhere (issue 32, point 7): every command that
# writes a table takes --excel-safe, and with it no CSV cell of text
# starts with = + - @ (a spreadsheet would run it as a formula).  The
# commands are found from 'maintevo --help': one whose help offers CSV
# but not --excel-safe fails the test, and so does one writing CSV here
# without a run below.
. "$(dirname "$0")/lib.sh" "$@"
. "$SRC/tests/fixtures/tiny-repo.sh"

step "a history whose titles and paths look like formulas"
make_tiny_repo r
mkdir -p r/=evil
printf 'x\n' >r/=evil/@file.c
printf 'x\n' >r/drivers/net/-minus.c
cat >>r/MAINTAINERS <<'EOF'

=HYPERLINK("http://example.org","click")
S:	Maintained
F:	=evil/
F:	drivers/net/

+PLUS
S:	Maintained
F:	drivers/net/-minus.c
EOF
commit_all r v2
expect_exit 0 "$MEV" walk --repo r --store S --tags 'v*' -q
expect_exit 0 "$MEV" track --store S -q

# A run of every command that writes CSV (with --excel-safe added).
runs() {
	cat <<'EOF'
filemap --repo r --rev v2
filemap --store S --release v2
graph --repo r --rev v2 --format csv
graph --store S --release v2 --format csv
sections --repo r --rev v2
sections --repo r --rev v2 --patterns
releases --store S
clusters --store S --release v2
events --store S
lineages --store S
section-changes --store S
history --store S drivers/net/a.c --format csv
history --store S --section +PLUS --format csv
explain --store S --release v2 --format csv drivers/net/-minus.c =evil/@file.c
export sections --store S
export edges --store S
export clusters --store S
export events --store S
export files --store S --release v2
export health --store S
export graph --store S --release v2 --format csv
dialects
EOF
}

step "every command offering CSV takes --excel-safe and has a run here"
# (writes CSV: its line in 'maintevo --help' says "(CSV", or its --format
# offers csv)
expect_exit 0 "$MEV" --help
cp "$OUT" commands.txt
for c in $(sed -n '/^commands:$/,/^$/s/^  \([a-z-]*\) .*/\1/p' commands.txt); do
	help=$("$MEV" help "$c")
	if ! grep -q "^  $c .*(CSV" commands.txt &&
		! printf '%s\n' "$help" | grep -q -- '--format.*csv'; then
		continue
	fi
	case $help in *--excel-safe*) ;; *) fail "'$c' writes CSV but has no --excel-safe" ;; esac
	runs | grep -q "^$c\( \|$\)" || fail "'$c' writes CSV: add a run of it to test_excel_safe.sh"
done

step "with --excel-safe no text cell starts a formula; without, the same rows"
formula_cells() {
	python3 - "$1" <<'PY'
import csv, sys
n = 0
for row in csv.reader(open(sys.argv[1], newline='')):
    for cell in row:
        if cell[:1] in ('=', '+', '-', '@') and not cell.lstrip('+-').replace('.', '', 1).isdigit():
            n += 1
print(n)
PY
}
command -v python3 >/dev/null || skip "python3 is not installed"
while read -r cmd; do
	# shellcheck disable=SC2086 # the words of the command
	expect_exit 0 "$MEV" $cmd -o plain.csv 2>/dev/null || true
	# shellcheck disable=SC2086
	expect_exit 0 "$MEV" $cmd --excel-safe
	[ "$(formula_cells "$OUT")" -eq 0 ] || fail "$cmd --excel-safe: a cell starts a formula"
	[ "$(wc -l <"$OUT")" -eq "$(wc -l <plain.csv)" ] || fail "$cmd: not the same rows"
done < <(runs | grep -v '^explain')
# explain writes to standard output only
expect_exit 0 "$MEV" explain --store S --release v2 --format csv drivers/net/-minus.c =evil/@file.c
[ "$(formula_cells "$OUT")" -gt 0 ] || fail "the history has no formula-like cell to neutralise"
expect_exit 0 "$MEV" explain --store S --release v2 --format csv --excel-safe drivers/net/-minus.c =evil/@file.c
[ "$(formula_cells "$OUT")" -eq 0 ] || fail "explain --excel-safe: a cell starts a formula"
expect_exit 0 "$MEV" filemap --store S --release v2 --excel-safe
expect_stdout_contains "'=evil/@file.c"
expect_stdout_contains "\"'=HYPERLINK(\"\"http://example.org\"\",\"\"click\"\")\""

step "with another format than CSV: a usage error, the same words everywhere"
for cmd in "graph --repo r --rev v2 --format graphml" "history --store S drivers/net/a.c" \
	"history --store S drivers/net/a.c --format json" "dialects --format jsonl" \
	"export graph --store S --release v2" "events --store S --format json"; do
	# shellcheck disable=SC2086
	expect_exit 2 "$MEV" $cmd --excel-safe
	expect_error "--excel-safe goes with --format csv only"
done
echo "PASS"
