# The command line itself: help, version, and usage errors (exit 2, a
# message naming what is wrong, a hint saying where to look).
. "$(dirname "$0")/lib.sh" "$@"
# The commands that read one release: they share --repo, --rev and friends.
commands="filemap graph sections"

step "maintevo --help lists the commands"
for h in --help -h help; do
	expect_exit 0 "$MEV" $h
	expect_stdout_contains "usage: maintevo <command>"
	for c in $commands; do expect_stdout_contains "  $c "; done
done
all=$(sed -n '/^commands:$/,/^$/s/^  \([a-z-]*\) .*/\1/p' "$OUT")
[ -n "$all" ] || fail "no command list in 'maintevo --help'"
expect_exit 0 "$MEV" --version
expect_stdout_contains "maintevo "

step "every command has --help and -h on stdout, exit 0"
for c in $all; do
	for h in --help -h; do
		expect_exit 0 "$MEV" "$c" $h
		expect_stdout_contains "usage: maintevo $c"
		[ ! -s "$ERR" ] || fail "stderr not empty"
	done
done
for c in $commands; do
	expect_exit 0 "$MEV" "$c" --help
	expect_stdout_contains "usage: maintevo $c --repo PATH --rev REV"
	for opt in --repo --rev --dialect --warnings --jobs --stats --out --help; do
		expect_stdout_contains "$opt"
	done
done

step "no command: the usage on stderr, exit 2"
expect_exit 2 "$MEV"
expect_stderr_contains "usage: maintevo <command>"

step "unknown command: exit 2"
expect_exit 2 "$MEV" grpah --repo . --rev v1
expect_error "'grpah' is not a maintevo command"
expect_stderr_contains "maintevo --help"

for c in $commands; do
	step "$c: unknown option, missing --repo or --rev, stray argument: exit 2"
	expect_exit 2 "$MEV" "$c" --repo . --rev v1 --bogus
	expect_error "'--bogus'"
	expect_stderr_contains "hint: see 'maintevo $c --help'"
	expect_exit 2 "$MEV" "$c" --rev v1
	expect_error "--repo is required"
	expect_exit 2 "$MEV" "$c" --repo .
	expect_error "--rev is required"
	expect_exit 2 "$MEV" "$c" --repo . --rev v1 stray
	expect_error "unexpected argument 'stray'"
	expect_exit 2 "$MEV" "$c" --repo . --rev v1 --jobs many
	expect_error "--jobs takes a whole number"
	expect_exit 2 "$MEV" "$c" --repo . --rev v1 --dialect martian
	expect_error "unknown dialect 'martian'"
	[ ! -s "$OUT" ] || fail "stdout not empty after a usage error"
done

step "graph: unknown --format"
expect_exit 2 "$MEV" graph --repo . --rev v1 --format xml
expect_error "unknown format 'xml'"
echo "PASS"
