# Costs that stay near linear in the input (issue 9, point 9), on the
# repositories of scripts/eval/make-scale-repo.sh.  Each case compares the CPU
# time of a big input with that of one a fifth (or a part) of its size, so
# that a quadratic cost fails on a slow or busy machine as surely as on a
# fast one, and a linear one passes under the sanitizers too:
#   - 20,000 sections with one title: numbered "X #2" .. "X #20000";
#   - 1,000 tags: walked in time proportional to their number, and a
#     re-run with nothing new costs a fraction of the walk;
#   - 20 catastrophic N: regexes: disabled with a note each (file:line),
#     stored with the release, at most twice the cost of the release
#     without them;
#   - 1,000 sections over one directory: the complete graph, n(n-1)/2
#     edges, and (without ASan) memory proportional to the edges;
#   - 1,500 such sections in two releases (issue 32, point 5): track at
#     most a few times the walk's CPU (it was n^3 and worse: 1,000
#     sections 14 s, 2,000 sections 239 s), the exports the same edges.
. "$(dirname "$0")/lib.sh" "$@"
GEN=$SRC/scripts/eval/make-scale-repo.sh

# measured CMD...: run CMD like 'expect_exit 0 CMD...'; $cpu gets its CPU
# seconds (user + system), as the shell's 'time' reports them.
measured() {
	local tf=$TMP/.cpu
	last_cmd="$*"
	status=0
	TIMEFORMAT='%3U %3S'
	{ time "$@" >"$OUT" 2>"$ERR" || status=$?; } 2>"$tf"
	if grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$ERR"; then
		fail "sanitizer report"
	fi
	[ "$status" -eq 0 ] || fail "exit status $status, expected 0"
	cpu=$(awk '{ printf "%.3f", $1 + $2 }' "$tf")
}

# peak_mb CMD...: the peak resident size of CMD in MB (stdout to $OUT);
# empty when no tool here measures it.
peak_mb() {
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f %M -o "$TMP/.rss" "$@" >"$OUT" 2>/dev/null || fail "'$*' failed"
		echo $(($(tail -n 1 "$TMP/.rss") / 1024))
	elif command -v python3 >/dev/null; then
		python3 -c 'import resource, subprocess, sys
with open(sys.argv[1], "w") as out:
    subprocess.check_call(sys.argv[2:], stdout=out, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)' "$OUT" "$@" ||
			fail "'$*' failed"
	fi
}

# at_most WHAT A B: A <= B (decimals), else fail saying WHAT.
at_most() {
	awk -v a="$2" -v b="$3" 'BEGIN { exit !(a <= b) }' ||
		fail "$1: $2 > $3 (cost not near linear?)"
	echo "#   $1: $2 <= $3"
}

step "20,000 repeated titles: numbered in linear time"
bash "$GEN" titles t4k 4000
bash "$GEN" titles t20k 20000
measured "$MEV" sections --repo t4k --rev v1.0
small=$cpu
measured "$MEV" sections --repo t20k --rev v1.0
[ "$(tail -n 1 "$OUT" | cut -d, -f1)" = "X #20000" ] || fail "last title is not 'X #20000'"
[ "$(sed -n 4p "$OUT" | cut -d, -f1)" = "X #2" ] || fail "second X is not 'X #2'"
expect_stderr_contains "19999 notes about MAINTAINERS content"
# 5 times the input: about 5 times the time (25 times when quadratic)
at_most "CPU of 20,000 titles vs 10 x 4,000" "$cpu" "$(awk -v s="$small" 'BEGIN { print 10 * s + 0.5 }')"

step "1,000 tags: a walk in time proportional to their number"
bash "$GEN" tags g200 200
bash "$GEN" tags g1000 1000
measured "$MEV" walk --repo g200 --store s200
small=$cpu
measured "$MEV" walk --repo g1000 --store s1000
walk=$cpu
expect_stderr_contains "1000 releases walked, 0 already stored, 1000 release tags in all"
at_most "CPU of 1,000 tags vs 6 x 200" "$walk" "$(awk -v s="$small" 'BEGIN { print 6 * s + 0.3 }')"
measured "$MEV" walk --repo g1000 --store s1000
expect_stderr_contains "0 releases walked, 1000 already stored"
at_most "CPU of the re-run vs a third of the walk" "$cpu" "$(awk -v w="$walk" 'BEGIN { print w / 3 }')"
expect_exit 0 "$MEV" releases --store s1000
[ "$(wc -l <"$OUT")" -eq 1001 ] || fail "releases lists $(($(wc -l <"$OUT") - 1)) rows, not 1000"
# what the walk stored is what a cold build gives
for t in v1.0 v1.500 v1.999; do
	"$MEV" filemap --repo g1000 --rev "$t" >cold.csv 2>/dev/null
	"$MEV" filemap --store s1000 --release "$t" >stored.csv
	same_files cold.csv stored.csv
	"$MEV" graph --repo g1000 --rev "$t" >cold.csv 2>/dev/null
	"$MEV" graph --store s1000 --release "$t" >stored.csv
	same_files cold.csv stored.csv
done

step "20 catastrophic N: regexes: each disabled with a note, cost <= 2 x"
bash "$GEN" regex rx 1000
measured "$MEV" filemap --repo rx --rev v1.0
grep -v '^MAINTAINERS,' "$OUT" >plain.csv
normal=$cpu
measured "$MEV" filemap --repo rx --rev v1.1 --warnings
grep -v '^MAINTAINERS,' "$OUT" >evil.csv
same_files plain.csv evil.csv
[ "$(grep -c 'exceeded its matching budget' "$ERR")" -eq 20 ] || fail "not 20 budget notes"
expect_stderr_contains "warning: MAINTAINERS:89: N: pattern '^(([a-z])+.)+[A-Z]([a-z])+t\$' exceeded its matching budget (on 'lib/abcdefghijklmnopqrstuvwxyz00000.c'); disabled for the rest of this release (it matches nothing more)"
# PCRE2 is not instrumented: the same bound with or without sanitizers
at_most "CPU with the 20 regexes vs 2 x without" "$cpu" "$(awk -v s="$normal" 'BEGIN { print 2 * s + 0.5 }')"
expect_exit 0 "$MEV" walk --repo rx --store srx
expect_exit 0 "$MEV" releases --store srx
# the notes column: none for v1.0, the 20 for v1.1
[ "$(awk -F, 'NR == 2 { print $15 } NR == 3 { print $15 }' "$OUT" | tr '\n' ' ')" = "0 20 " ] ||
	fail "stored notes are not '0 20': $(cut -d, -f1,15 "$OUT" | tr '\n' ' ')"

step "1,000 sections over one directory: the complete graph"
bash "$GEN" sections sec1000 1000
measured "$MEV" graph --repo sec1000 --rev v1.0
[ "$(wc -l <"$OUT")" -eq $((1000 * 999 / 2 + 1000 + 1)) ] || fail "not n(n-1)/2 + n edges"
expect_stdout_contains "DIR 1,DIR 1000,40,280,20"
expect_exit 0 "$MEV" walk --repo sec1000 --store ssec
expect_exit 0 "$MEV" releases --store ssec
[ "$(sed -n 2p "$OUT" | cut -d, -f14)" = "499500" ] || fail "stored edges: $(sed -n 2p "$OUT" | cut -d, -f14)"
# (grep without -q reads all of ldd's output: with -q, ldd could die of SIGPIPE,
# and under pipefail that reads as "no libasan")
if command -v ldd >/dev/null && ! ldd "$MEV" | grep libasan >/dev/null; then
	bash "$GEN" sections sec2000 2000
	rss_mb=$(peak_mb "$MEV" graph --repo sec2000 --rev v1.0)
	[ "$(wc -l <"$OUT")" -eq $((2000 * 1999 / 2 + 2000 + 1)) ] || fail "not n(n-1)/2 + n edges"
	# 2,001,000 edges of 32 bytes: 64 MB (a hash of pairs took 250 MB)
	[ -z "$rss_mb" ] || at_most "peak MB of a 2,001,000-edge graph" "$rss_mb" 150
fi
step "1,500 sections over the same files, two releases: track costs a few walks"
bash "$GEN" dense d1500 1500
measured "$MEV" walk --repo d1500 --store sd
walk=$cpu
"$MEV" export edges --store sd >edges.before
measured "$MEV" track --store sd
expect_stderr_contains "2 releases tracked"
expect_stderr_contains "events: 0 birth, 0 death, 1 continuation"
at_most "CPU of track vs 4 x the walk's" "$cpu" "$(awk -v w="$walk" 'BEGIN { print 4 * w + 0.5 }')"
# one cluster of every section, in both releases; the edges as stored
expect_exit 0 "$MEV" export clusters --store sd
[ "$(awk -F, 'NR > 1 { print $1, $3 }' "$OUT" | sort -u | wc -l)" -eq 2 ] || fail "not one cluster a release"
[ "$(wc -l <"$OUT")" -eq $((1500 + 1501 + 1)) ] || fail "export clusters: not every section"
"$MEV" export edges --store sd >edges.after
same_files edges.before edges.after
[ "$(wc -l <edges.after)" -eq $((1500 * 1499 / 2 + 1501 * 1500 / 2 + 1)) ] ||
	fail "export edges: $(wc -l <edges.after) lines"
if command -v ldd >/dev/null && ! ldd "$MEV" | grep libasan >/dev/null; then
	rm -rf sd2
	expect_exit 0 "$MEV" walk --repo d1500 --store sd2 -q
	rss_mb=$(peak_mb "$MEV" track --store sd2 -q)
	# the complete graph is 1.1 million edges (36 MB as mev_edge): track
	# keeps one vertex a class of twins, not the edges (it took 300 MB)
	[ -z "$rss_mb" ] || at_most "peak MB of track on 1,500 dense sections" "$rss_mb" 80
fi
echo "PASS"
