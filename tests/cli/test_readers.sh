# Readers see whole releases (issue 9, point 3): while walks re-walk a
# moved tag again and again (the release recomputed, its successor's file
# table re-encoded against it), 'filemap --store' of the successor must
# always print its one table, and of the moved release one of its two.
# MEV_TEST_READS sets the number of reads (default: 150 of each, or as
# many as 10 seconds of reading allow, and at least until two walks ran
# beside them; the acceptance run used 3000).
. "$(dirname "$0")/lib.sh" "$@"

reads=${MEV_TEST_READS:-150}

# A history of a few hundred files; v1.1 is A or B (other files, other
# sections), v1.2 comes after A.
step "history with a tag to move"
mkrepo repo
mkdir -p repo/drivers/net repo/drivers/usb repo/fs/ext2 repo/lib
for i in $(seq 1 120); do
	printf 'int n%d;\n' "$i" > repo/drivers/net/n$i.c
	printf 'int u%d;\nint u;\n' "$i" > repo/drivers/usb/u$i.c
	printf 'int e%d;\n' "$i" > repo/fs/ext2/e$i.c
done
echo x > repo/lib/one.c
cat > repo/MAINTAINERS <<'EOF'
NETWORKING
S:	Maintained
F:	drivers/net/

USB
S:	Maintained
F:	drivers/usb/

EXT2
S:	Odd Fixes
F:	fs/ext2/
EOF
commit_all repo v1.0
echo y >> repo/lib/one.c
commit_all repo
A=$(git -C repo rev-parse HEAD)
git -C repo checkout -q -b other
rm repo/drivers/usb/u1*.c
for i in $(seq 1 60); do printf 'int m%d;\n\n' "$i" > repo/drivers/net/m$i.c; done
sed -i 's|^F:\tfs/ext2/|F:\tfs/|; s|^USB$|USB SUBSYSTEM|' repo/MAINTAINERS
commit_all repo
B=$(git -C repo rev-parse HEAD)
git -C repo checkout -q master
for i in $(seq 1 40); do echo "int z$i;" >> repo/drivers/usb/u$i.c; done
commit_all repo v1.2
git -C repo tag v1.1 "$A"

"$MEV" filemap --repo repo --rev "$A" > v11a.csv 2>/dev/null
"$MEV" filemap --repo repo --rev "$B" > v11b.csv 2>/dev/null
"$MEV" filemap --repo repo --rev v1.2 > v12.csv 2>/dev/null
cmp -s v11a.csv v11b.csv && fail "the two v1.1 tables are the same"
expect_exit 0 "$MEV" walk --repo repo --store S -q
"$MEV" filemap --store S --release v1.2 > got.csv
same_files v12.csv got.csv

step "the tag moves back and forth and is walked again: the successor is re-encoded"
git -C repo tag -f v1.1 "$B" >/dev/null
expect_exit 0 "$MEV" walk --repo repo --store S
expect_stderr_contains "tag v1.1 moved since it was stored; walking it again"
"$MEV" filemap --store S --release v1.1 > got.csv
same_files v11b.csv got.csv
"$MEV" filemap --store S --release v1.2 > got.csv
same_files v12.csv got.csv

step "reads while walks go on"
(
	n=0
	while [ ! -e stop ] && kill -0 $$ 2>/dev/null; do
		if [ $((n % 2)) -eq 0 ]; then to=$A; else to=$B; fi
		git -C repo tag -f v1.1 "$to" >/dev/null
		"$MEV" walk --repo repo --store S -q 2>>walks.err || echo "walk $n failed" >> walks.err
		n=$((n + 1))
		echo $n > walks.count
	done
) &
writer=$!
# The reading's time counts from here, not from the test's start: on a
# slow machine (a sanitizer build, a loaded CI) building the history
# above can take the whole budget, and the reads then never ran.
[ -n "${MEV_TEST_READS:-}" ] && until=$((SECONDS + 100000)) || until=$((SECONDS + 10))
walks_now() { local n; n=$(cat walks.count 2>/dev/null); echo "${n:-0}"; }
wrong=0
failed=0
i=0
while { [ $i -lt "$reads" ] && [ $SECONDS -lt $until ]; } ||
	{ [ "$(walks_now)" -lt 2 ] && [ $SECONDS -lt $((until + 120)) ]; }; do
	i=$((i + 1))
	if "$MEV" filemap --store S --release v1.2 > r12.csv 2>> reads.err; then
		cmp -s r12.csv v12.csv || wrong=$((wrong + 1))
	else
		failed=$((failed + 1))
	fi
	if "$MEV" filemap --store S --release v1.1 > r11.csv 2>> reads.err; then
		cmp -s r11.csv v11a.csv || cmp -s r11.csv v11b.csv || wrong=$((wrong + 1))
	else
		failed=$((failed + 1))
	fi
done
touch stop
wait $writer
walks=$(walks_now)
echo "# $i reads of v1.1 and of v1.2 during $walks walks: $wrong wrong, $failed failed"
[ ! -s walks.err ] || { cat walks.err >&2; fail "a walk failed"; }
[ ! -s reads.err ] || { head reads.err >&2; fail "$failed reads failed"; }
[ "$wrong" -eq 0 ] || fail "$wrong reads printed a table that was never stored"
[ "$walks" -ge 2 ] || fail "only $walks walks during the reads"
exit 0
