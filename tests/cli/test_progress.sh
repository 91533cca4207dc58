# The progress bar: on a terminal (a pty from script(1)) walk, cluster,
# track and export all draw "[###---] i/n what  ETA XmYYs" in place, cut to
# the terminal's width; anywhere else standard error has the summary only,
# as before; -q draws nothing.
. "$(dirname "$0")/lib.sh" "$@"
command -v script >/dev/null || skip "script (util-linux) is not installed"
bash "$SRC/scripts/make-demo-repo.sh" demo >/dev/null

# on_tty COLS CMD...: run CMD with standard error on a terminal COLS wide;
# what it wrote (stdout and stderr, CR LF as the pty writes them) in tty.txt.
on_tty() {
	local cols=$1
	shift
	script -qec "stty cols $cols; $(printf '%q ' "$@")" /dev/null >tty.txt </dev/null ||
		fail "'$*' failed on a terminal: $(tr '\r' '\n' <tty.txt | tail -n 3)"
}
# bars: every bar drawn in tty.txt, one a line, escapes removed.
bars() { tr '\r' '\n' <tty.txt | sed 's/\x1b\[K//g' | grep '^\[[#-]*\] ' || true; }

step "walk on a terminal: a bar per release, the time left from the second on"
on_tty 100 "$MEV" walk --repo demo --store S
bars >walk.txt
grep -qx '\[------------------------\] 1/8 v1.0' walk.txt || fail "no first bar: $(cat walk.txt)"
grep -qE '^\[#{21}-{3}\] 8/8 v1.7  [0-9]+ files/s  ETA [0-9]+m[0-9]{2}s$' walk.txt ||
	fail "no last bar with the pace and the time left: $(cat walk.txt)"
[ "$(wc -l <walk.txt)" -eq 8 ] || fail "$(wc -l <walk.txt) bars for 8 releases"
grep -q 'maintevo: 8 releases walked' tty.txt || fail "no summary"

step "cluster, track and export all: the same bar"
for c in "cluster --store S" "track --store S" "export all --store S -o s.db"; do
	# shellcheck disable=SC2086 # the words of the command
	on_tty 100 "$MEV" $c
	bars >b.txt
	grep -qE '^\[#+-*\] ([0-9]+)/\1 [a-z0-9_.]+  ETA [0-9]+m[0-9]{2}s$' b.txt ||
		fail "$c: no bar with the time left: $(cat b.txt)"
done

step "a narrow terminal: every line fits"
rm -rf S2
on_tty 30 "$MEV" walk --repo demo --store S2
bars >narrow.txt
[ -s narrow.txt ] || fail "no bar on a narrow terminal"
awk 'length($0) > 29 { bad = 1; print } END { exit bad }' narrow.txt ||
	fail "a bar wider than the terminal"

step "not a terminal: the summary only, as before; -q: nothing"
rm -rf S3
expect_exit 0 "$MEV" walk --repo demo --store S3
grep -q $'\r' "$ERR" && fail "a carriage return in stderr that is not a terminal"
[ "$(wc -l <"$ERR")" -eq 1 ] || fail "more than the summary: $(cat "$ERR")"
expect_stderr_contains "maintevo: 8 releases walked"
rm -rf S4
on_tty 100 "$MEV" walk --repo demo --store S4 -q
[ ! -s tty.txt ] || fail "-q drew on the terminal: $(cat -v tty.txt)"
echo "PASS"
