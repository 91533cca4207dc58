# maintevo explain PATH: the line and the rule that put a path in a section
# or kept it out, from git and from a store (the tiny repository of
# tests/fixtures/tiny-repo.sh), then against the real get_maintainer.pl of
# U-Boot on sampled files (skipped without $MEV_REAL_DIR/u-boot+u-boot/repo
# or perl).
. "$(dirname "$0")/lib.sh" "$@"
. "$SRC/tests/fixtures/tiny-repo.sh"
make_tiny_repo tiny

step "from git: slash count, X: (which turns off N: too), no end anchor, the directory test"
expect_exit 0 "$MEV" explain --repo tiny --rev v1 --format csv drivers/tty/serial/8250/8250_core.c \
	drivers/net/wireless/b.c arch/arm/Kconfig.debug docs/link
expect_stdout <<'EOF'
release,path,section,verdict,type,value,regex,file,line,rule,display_name
v1,drivers/tty/serial/8250/8250_core.c,THE REST,in,F,*,.*,MAINTAINERS,40,depth,THE REST
v1,drivers/tty/serial/8250/8250_core.c,THE REST,in,F,*/,.*/,MAINTAINERS,41,any-depth,THE REST
v1,drivers/tty/serial/8250/8250_core.c,8250 SERIAL,near,F,drivers/tty/serial/8250*,drivers/tty/serial/8250.*,MAINTAINERS,5,depth,8250 SERIAL
v1,drivers/net/wireless/b.c,THE REST,in,F,*,.*,MAINTAINERS,40,depth,THE REST
v1,drivers/net/wireless/b.c,THE REST,in,F,*/,.*/,MAINTAINERS,41,any-depth,THE REST
v1,drivers/net/wireless/b.c,WIRELESS,in,F,drivers/net/wireless/,drivers/net/wireless/,MAINTAINERS,35,any-depth,WIRELESS
v1,drivers/net/wireless/b.c,"NETWORKING, ""CORE"" DRIVERS",excluded,F,drivers/net/,drivers/net/,MAINTAINERS,28,any-depth,"NETWORKING, ""CORE"" DRIVERS"
v1,drivers/net/wireless/b.c,"NETWORKING, ""CORE"" DRIVERS",excluded,X,drivers/net/wireless/,drivers/net/wireless/,MAINTAINERS,30,any-depth,"NETWORKING, ""CORE"" DRIVERS"
v1,drivers/net/wireless/b.c,"NETWORKING, ""CORE"" DRIVERS",excluded,N,b\.c,b\.c,MAINTAINERS,31,regex,"NETWORKING, ""CORE"" DRIVERS"
v1,arch/arm/Kconfig.debug,ARM DEBUG,in,N,Kconfig \. debug,Kconfig \. debug,MAINTAINERS,9,regex,ARM DEBUG
v1,arch/arm/Kconfig.debug,ARM PORT,in,F,arch/arm/Kconfig,arch/arm/Kconfig,MAINTAINERS,15,same-depth,ARM PORT
v1,arch/arm/Kconfig.debug,THE REST,in,F,*,.*,MAINTAINERS,40,depth,THE REST
v1,arch/arm/Kconfig.debug,THE REST,in,F,*/,.*/,MAINTAINERS,41,any-depth,THE REST
v1,docs/link/,LINKED DOCS,in,F,docs/link,docs/link/,MAINTAINERS,23,any-depth,LINKED DOCS
v1,docs/link/,THE REST,in,F,*,.*,MAINTAINERS,40,depth,THE REST
v1,docs/link/,THE REST,in,F,*/,.*/,MAINTAINERS,41,any-depth,THE REST
EOF

step "the text says which line and which rule"
expect_exit 0 "$MEV" explain --repo tiny --rev v1 drivers/net/wireless/b.c ./drivers//tty/serial/8250/8250_core.c
expect_stdout_contains 'drivers/net/wireless/b.c in v1: 2 sections'
expect_stdout_contains 'excluded: NETWORKING, "CORE" DRIVERS'
expect_stdout_contains '  X: drivers/net/wireless/  (MAINTAINERS:30) keeps it out: starts the path; it ends in '"'/'"', so at any depth'
expect_stdout_contains 'an X: line that matches keeps the section out, its N: lines too'
expect_stdout_contains 'drivers/tty/serial/8250/8250_core.c in v1: 1 section'
expect_stdout_contains "near: 8250 SERIAL"
expect_stdout_contains "the path has 4 '/' and the pattern 3: no match"
[ ! -s "$ERR" ] || fail "unexpected stderr"
expect_exit 0 "$MEV" explain --repo tiny --rev v1 docs/link
expect_stdout_contains "'docs/link' is a directory of v1: the script's directory test added the '/'"
expect_exit 0 "$MEV" explain --repo tiny --rev v1 no/such/file.c
expect_stdout_contains "note: no/such/file.c is no file or directory of v1"

step "from a store: the same rows as from git"
expect_exit 0 "$MEV" walk --repo tiny --store st --tags 'v*' -q
for p in drivers/tty/serial/8250/8250_core.c drivers/net/wireless/b.c arch/arm/Kconfig.debug docs/link \
	drivers/net/ drivers lib/lone.c EMPTY; do
	expect_exit 0 "$MEV" explain --repo tiny --rev v1 --format jsonl "$p"
	cp "$OUT" git.jsonl
	expect_exit 0 "$MEV" explain --store st --release v1 --format jsonl "$p"
	same_files git.jsonl "$OUT"
	[ ! -s "$ERR" ] || fail "unexpected stderr for $p"
done

step "usage and errors"
expect_exit 2 "$MEV" explain --repo tiny --rev v1 --lineage 1 x
expect_stderr_contains "--lineage, --from and --to go with the events of a lineage"
expect_exit 2 "$MEV" explain --store st x
expect_stderr_contains "explain PATH needs --release TAG"
expect_exit 2 "$MEV" explain --repo tiny --rev v1 --format xml x
expect_stderr_contains "unknown format 'xml'"
expect_exit 2 "$MEV" explain --store st --release v1 --rev v1 x
expect_stderr_contains "--rev goes with --repo"
expect_exit 2 "$MEV" explain --repo tiny --store st --lineage 1 --from v1
expect_stderr_contains "--repo, --rev, --format and --excel-safe go with explain PATH"
expect_exit 1 "$MEV" explain --store st --release v9 x
expect_error "release 'v9' is not in store 'st'"

# --- the real get_maintainer.pl ---------------------------------------------------
real_repo u-boot+u-boot
uboot=$REAL
rev=v2024.01
if ! command -v perl >/dev/null || ! command -v python3 >/dev/null ||
	! git -C "$uboot" rev-parse -q --verify "$rev^{commit}" >/dev/null 2>&1; then
	skip "no U-Boot repository with $rev at $uboot, or no perl/python3: the real script is not run"
fi

step "U-Boot $rev: on 50 sampled files and 3 directories, explain's sections == get_maintainer.pl's"
git -C "$uboot" ls-tree -r --name-only "$rev" | awk 'NR % 397 == 5' | head -n 50 > sample.txt
printf '%s\n' drivers/net arch/arm/ board >> sample.txt
[ "$(wc -l < sample.txt)" -eq 53 ] || fail "expected 53 sampled paths"
# what the script reads of the tree: itself, its .get_maintainer.conf, every
# MAINTAINERS file, the files it is given; every directory and symbolic link
# (its directory test); the other files are left out to keep this fast
mkdir ub
git -C "$uboot" ls-tree -r -d --name-only "$rev" | (cd ub && xargs -d '\n' mkdir -p)
git -C "$uboot" ls-tree -r "$rev" | awk -F'\t' '$1 ~ /^120000 / {split($1, m, " "); print m[3] "\t" $2}' |
	while IFS=$'\t' read -r oid p; do ln -s "$(git -C "$uboot" cat-file blob "$oid")" "ub/$p"; done
{ git -C "$uboot" ls-tree -r --name-only "$rev" | grep -E '(^|/)MAINTAINERS$'
  printf '%s\n' scripts/get_maintainer.pl .get_maintainer.conf Kbuild Makefile README; head -n 50 sample.txt; } |
	xargs -d '\n' git -C "$uboot" archive "$rev" -- | tar -x -C ub
# the script's own main flow, then, for each file alone, its get_maintainers()
# with add_categories() catching the sections it picks (as scripts/eval/check-getmaintainer.sh)
perl -e '
	local $/; my $s = <STDIN>;
	my $driver = q{
{
    no warnings qw(redefine once);
    my @mev_hits;
    *add_categories = sub { push(@mev_hits, $_[0]); };
    my @mev_all = @files;
    foreach my $mev_file (@mev_all) {
        @files = ($mev_file);
        @mev_hits = ();
        get_maintainers();
        foreach my $tvi (@mev_hits) {
            my $t = $typevalue[find_starting_index($tvi)];
            $t = "" if ($t =~ m/^([A-Z]):/);
            $t =~ s/\s+$//;
            print "$mev_file\t$t\n";
        }
    }
    exit(0);
}
my @maintainers;
};
	my $n = ($s =~ s/^my \@maintainers = get_maintainers\(\);$/$driver/m);
	die "no main get_maintainers() call\n" unless $n == 1;
	print $s;
' < ub/scripts/get_maintainer.pl > ub/driver.pl
args=()
while read -r f; do args+=(-f "$f"); done < sample.txt
(cd ub && HOME=$TMP perl driver.pl --noemail --subsystem --nokeywords --nogit --nogit-fallback "${args[@]}") > script.tsv \
	|| fail "get_maintainer.pl failed"
mapfile -t paths < sample.txt
expect_exit 0 "$MEV" explain --repo "$uboot" --rev "$rev" --format csv "${paths[@]}"
cp "$OUT" explain.csv
[ ! -s "$ERR" ] || fail "explain disagrees with the matcher (stderr above)"
python3 - sample.txt script.tsv explain.csv <<'PY' || fail "explain and get_maintainer.pl differ (above)"
import csv, re, sys
from collections import defaultdict
sample = [l.rstrip("\n") for l in open(sys.argv[1])]
script, ours = defaultdict(set), defaultdict(set)
for line in open(sys.argv[2], encoding="utf-8", errors="replace"):
    f, t = line.rstrip("\n").split("\t", 1)
    script[f.rstrip("/")].add(t)
for r in csv.DictReader(open(sys.argv[3], encoding="utf-8")):
    if r["verdict"] == "in":
        ours[r["path"].rstrip("/")].add(r["section"])
bad = 0
for p in sample:
    p = p.rstrip("/")
    s = script[p]
    # a repeated title is the key "TITLE #2" here, the bare title there
    o = {t if t in s else re.sub(r" #\d+$", "", t) for t in ours[p]}
    if o != s or not s:
        bad += 1
        print(f"{p}: script {sorted(s)}, explain {sorted(o)}", file=sys.stderr)
both = sum(len(script[p.rstrip('/')]) for p in sample)
print(f"{len(sample)} paths, {both} path-section pairs, {bad} differ")
sys.exit(1 if bad else 0)
PY
echo "PASS"
