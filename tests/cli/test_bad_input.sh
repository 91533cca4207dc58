# Bad input: each case fails (or copes) with the right exit status and a
# message that names the culprit, followed by a hint; nothing crashes.
. "$(dirname "$0")/lib.sh" "$@"
commands="filemap graph sections"

# A repository with one release per case, on one branch.
mkrepo r
printf 'hello\n' >r/README
mkdir -p r/drivers/net
printf 'int x;\n' >r/drivers/net/x.c
commit_all r no-maintainers

# 4 KiB of fixed pseudo-random bytes (NULs included); then the same with
# field lines holding NULs after it.
seed=12345
for ((i = 0; i < 4096; i++)); do
	seed=$(((seed * 1103515245 + 12345) % 2147483648))
	printf -v octal %03o $(((seed >> 16) & 255))
	printf "\\$octal"
done >r/MAINTAINERS
commit_all r garbage
printf '\nF:\t\0*\nN:\t\0\n' >>r/MAINTAINERS
commit_all r garbage-fields

head -c 50000000 /dev/zero | tr '\0' 'A' >r/MAINTAINERS
commit_all r huge-line

{
	printf 'GOOD\nF:\tdrivers/net/\n\nHUGE PATTERN\nF:\t'
	head -c 50000000 /dev/zero | tr '\0' 'x'
	printf '\n'
} >r/MAINTAINERS
commit_all r huge-pattern

sed 's/^\([A-Z]\): /\1:\t/' >r/MAINTAINERS <<'EOF'
GOOD
F: drivers/net/

BAD F
F: drivers/[net
F: README

BAD N
N: (unclosed
F: drivers/
EOF
commit_all r bad-regex

step "--repo that is not a repository: exit 1"
mkdir plain
for c in $commands; do
	expect_exit 1 "$MEV" "$c" --repo plain --rev v1
	expect_error "cannot open repository 'plain'"
	expect_exit 1 "$MEV" "$c" --repo does-not-exist --rev v1
	expect_error "'does-not-exist'"
done

step "unknown --rev, or a rev that is not a commit: exit 1"
for c in $commands; do
	expect_exit 1 "$MEV" "$c" --repo r --rev v9.9
	expect_error "unknown revision 'v9.9'"
done
expect_exit 1 "$MEV" graph --repo r --rev 'no-maintainers^{tree}'
expect_error "'no-maintainers^{tree}' does not point at a commit"

step "a tree without MAINTAINERS: exit 1"
for c in $commands; do
	expect_exit 1 "$MEV" "$c" --repo r --rev no-maintainers
	expect_error "no MAINTAINERS sections at 'no-maintainers'"
	expect_stderr_contains "MAINTAINERS file not found"
	[ ! -s "$OUT" ] || fail "stdout not empty after an error"
done

step "MAINTAINERS of binary garbage: no crash, exit 0 or 1 with a clear message"
for rev in garbage garbage-fields; do
	for c in $commands; do
		expect_exit '[01]' "$MEV" "$c" --repo r --rev $rev --warnings
		expect_stderr_contains "warning: MAINTAINERS: "
		expect_stderr_contains " line(s) contain NUL bytes; is this a text file?"
		[ "$status" = 0 ] || expect_error "no MAINTAINERS sections at '$rev'"
	done
done

step "MAINTAINERS of one 50 MB line: exit 1, in reasonable time"
expect_exit 1 timeout 120 "$MEV" graph --repo r --rev huge-line
expect_error "no MAINTAINERS sections at 'huge-line'"

step "an F: pattern of 50 MB: the other sections still match"
expect_exit 0 timeout 120 "$MEV" filemap --repo r --rev huge-pattern
has_row() { grep -qxF -- "$1" "$OUT" || fail "no row '$1'"; }
has_row 'drivers/net/x.c,1,7,GOOD'
has_row 'README,1,6,'

step "invalid F: and N: regexes: warnings name file:line, the rest still matches"
expect_exit 0 "$MEV" filemap --repo r --rev bad-regex --warnings
expect_stdout <<'EOF'
path,lines,bytes,sections
MAINTAINERS,10,86,
README,1,6,BAD F
drivers/net/x.c,1,7,BAD N | GOOD
EOF
expect_stderr_contains "warning: MAINTAINERS:5: invalid F: pattern 'drivers/[net'"
expect_stderr_contains "warning: MAINTAINERS:9: invalid N: pattern '(unclosed'"
expect_exit 0 "$MEV" graph --repo r --rev bad-regex
expect_stderr_contains "2 notes about MAINTAINERS content (see them with --warnings)"

step "--out to a path that cannot be written: exit 1, nothing on stdout"
printf 'not a directory\n' >afile
for c in $commands; do
	expect_exit 1 "$MEV" "$c" --repo r --rev bad-regex --out afile/out.csv
	expect_error "cannot write 'afile/out.csv'"
	expect_exit 1 "$MEV" "$c" --repo r --rev bad-regex --out no/such/dir/out.csv
	expect_error "cannot write 'no/such/dir/out.csv'"
	[ ! -s "$OUT" ] || fail "stdout not empty"
done
if [ -w /dev/full ]; then
	step "--out to a full device: exit 1, the write error is reported"
	expect_exit 1 "$MEV" graph --repo r --rev bad-regex --out /dev/full
	expect_error "cannot write '/dev/full'"
fi
echo "PASS"
