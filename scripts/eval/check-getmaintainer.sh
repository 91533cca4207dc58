#!/usr/bin/env bash
# Compare maintevo's file -> sections map with the tree's own
# scripts/get_maintainer.pl on every file of one commit.
#
# usage: scripts/eval/check-getmaintainer.sh [-j N] [--keep] [--cache DIR]
#            [--script PATH] [--dialect D] REPO REV
#
# The script is the tree's own scripts/get_maintainer.pl, or coreboot's
# util/scripts/get_maintainer.pl; --script PATH runs one from outside the
# tree instead (DPDK's devtools/get-maintainer.sh runs the kernel's, named
# by DPDK_GETMAINTAINER_PATH), and --dialect D is handed to maintevo.
#
# --cache DIR keeps the script's answers in DIR/<commit>-<driver hash>.txt,
# so checking a newer maintevo against the same commit takes seconds.
#
# The commit is checked out into a temporary directory (symbolic links
# kept), and the tree's get_maintainer.pl runs there from the tree root,
# with its own .get_maintainer.conf, an empty $HOME (no personal
# configuration) and keywords off.  To finish in minutes instead of hours,
# one small block is put in place of the script's main output step: for
# each file named on the command line it calls the script's own
# get_maintainers() and prints the sections it selects (add_categories()
# is what receives them).  Everything that decides a match (reading
# MAINTAINERS, the pattern conversion, the directory test, X:/F:/N:
# handling, argument canonicalisation) is the script's own code; only
# file_match_pattern() is swapped for a copy that caches its compiled
# regex, and only when the script's own is byte-identical to the known one.
# Files are fed in batches through xargs, on all cores.
#
# Sections are compared by their exact title (an underline or a
# commented-out field line included: maintevo keeps the script's title as
# the key, its display name aside) and by their F:/X:/N: lines (as the
# script's @typevalue holds them: F:/X: converted, N: as written), so
# repeated titles are told apart.  QEMU's script (m/^(.):/, no N:) runs the
# same way; the 2014-2016 U-Boot scripts' m/^(\C):/ (\C was removed from
# Perl in 5.24) runs as m/^((?s:.)):/, which takes the same one byte of
# the bytes these scripts read.  Trees whose script is not get_maintainer.pl
# (OP-TEE's and Zephyr's scripts/get_maintainer.py, edk2's
# BaseTools/Scripts/GetMaintainer.py) run the script's own Python functions
# in scripts/eval/check-getmaintainer/driver.py (Zephyr needs python3-yaml);
# their sections are compared by name (none for edk2) and pattern values.
# Exit status 0 when every file agrees.
set -euo pipefail

jobs=$(nproc)
keep=0
cache=
ext_script=
dialect=
while [ $# -gt 0 ]; do
	case "$1" in
	-j) jobs=$2; shift 2 ;;
	--keep) keep=1; shift ;;
	--cache) cache=$2; shift 2 ;;
	--script) ext_script=$(readlink -f "$2"); shift 2 ;;
	--dialect) dialect=$2; shift 2 ;;
	-h|--help) sed -n '2,42p' "$0"; exit 0 ;;
	*) break ;;
	esac
done
[ $# -eq 2 ] || { echo "usage: $0 [-j N] [--keep] [--cache DIR] [--script PATH] [--dialect D] REPO REV" >&2; exit 2; }
repo=$1
rev=$2
here=$(cd "$(dirname "$0")/../.." && pwd)
mev=${MAINTEVO:-}
if [ -z "$mev" ]; then
	for b in "$here/build/maintevo" "$here/build-release/maintevo"; do
		[ -x "$b" ] && mev=$b && break
	done
fi
[ -n "$mev" ] && [ -x "$mev" ] || { echo "check: build maintevo first (or set MAINTEVO=path)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/mev-check.XXXXXX")
cleanup() { [ "$keep" = 1 ] && echo "check: kept $work" >&2 || rm -rf "$work"; }
trap cleanup EXIT
tree=$work/tree
mkdir -p "$tree" "$work/home"

git -C "$repo" rev-parse --verify -q "$rev^{commit}" >/dev/null ||
	{ echo "check: unknown revision '$rev' in '$repo'" >&2; exit 2; }
echo "check: checking out $rev into $tree" >&2
gitdir=$(cd "$repo" && cd "$(git rev-parse --git-dir)" && pwd)
GIT_INDEX_FILE=$work/index git --git-dir="$gitdir" --work-tree="$tree" -c core.autocrlf=false \
	read-tree "$rev"
# A blob the repository lacks (a partial or damaged mirror) cannot be
# checked out; maintevo counts it as 0 lines and still matches its path, so
# the script gets an empty file in its place.
git --git-dir="$gitdir" ls-tree -r -z --full-tree "$rev" |
	perl -0 -ne 'chomp; my ($meta, $path) = split(/\t/, $_, 2); my ($mode, $type, $oid) = split(/ /, $meta);
		print "$oid $path\0" if $type eq "blob";' > "$work/blobs.z"
tr '\0' '\n' < "$work/blobs.z" | cut -d' ' -f1 |
	git --git-dir="$gitdir" cat-file --batch-check='%(objectname)' 2>/dev/null | awk '$2 == "missing" {print $1}' \
	> "$work/missing.txt" || true
if [ -s "$work/missing.txt" ]; then
	GIT_INDEX_FILE=$work/index git --git-dir="$gitdir" --work-tree="$tree" -c core.autocrlf=false \
		-c core.symlinks=true checkout-index -a -f 2>/dev/null || true
	TREE=$tree perl -0 -ne 'BEGIN { local $/ = "\n"; open(my $m, "<", $ARGV[0]) or die; while (<$m>) { chomp; $miss{$_} = 1 } shift @ARGV }
		chomp; my ($oid, $path) = split(/ /, $_, 2); next unless $miss{$oid};
		my $d = "$ENV{TREE}/$path"; $d =~ s@/[^/]*$@@; system("mkdir", "-p", $d);
		open(my $f, ">", "$ENV{TREE}/$path") or die "$path: $!"; close $f;
		print STDERR "check: blob of $path missing from the repository: an empty file in its place\n"' \
		"$work/missing.txt" "$work/blobs.z" 2>&1 >/dev/null | head -n 5 >&2 || true
else
	GIT_INDEX_FILE=$work/index git --git-dir="$gitdir" --work-tree="$tree" -c core.autocrlf=false \
		-c core.symlinks=true checkout-index -a -f
fi

# Trees whose script is not get_maintainer.pl (OP-TEE, edk2, Zephyr): the
# script's own Python functions run in scripts/eval/check-getmaintainer/driver.py.
pydialect=
if [ -z "$ext_script" ] && [ ! -f "$tree/scripts/get_maintainer.pl" ] &&
	[ ! -f "$tree/util/scripts/get_maintainer.pl" ]; then
	if [ -f "$tree/BaseTools/Scripts/GetMaintainer.py" ]; then pydialect=edk2
	elif [ -f "$tree/scripts/get_maintainer.py" ] && [ -f "$tree/MAINTAINERS.yml" ]; then pydialect=zephyr
	elif [ -f "$tree/scripts/get_maintainer.py" ] && [ -f "$tree/MAINTAINERS" ]; then pydialect=optee
	fi
fi
mev_dialect=()
[ -z "$dialect" ] || mev_dialect=(--dialect "$dialect")
script=
if [ -n "$pydialect" ]; then
	:
elif [ -n "$ext_script" ]; then
	script=$ext_script
	[ -f "$script" ] || { echo "check: no script '$script'" >&2; exit 2; }
elif [ -f "$tree/scripts/get_maintainer.pl" ]; then
	script=$tree/scripts/get_maintainer.pl
elif [ -f "$tree/util/scripts/get_maintainer.pl" ]; then
	script=$tree/util/scripts/get_maintainer.pl   # coreboot
else
	echo "check: $rev has no scripts/get_maintainer.pl (nor a Python script this check knows; give one with --script)" >&2; exit 2
fi
if [ -z "$pydialect" ]; then

# The driver replaces the main call; it runs inside the script, so it sees
# the script's own variables and functions.
perl -e '
	my ($in, $out) = @ARGV;
	open(my $f, "<", $in) or die "$in: $!";
	local $/; my $s = <$f>; close $f;
	my $driver = q{
{
    no warnings qw(redefine once);
    my @mev_hits;
    *add_categories = sub { push(@mev_hits, $_[0]); };
    *maintainers_in_file = sub { };
    if ($ENV{MEV_FAST_FMP}) {
        # the script recompiles m@^$pattern@ for every pattern and file; this
        # copy of file_match_pattern() differs only in caching the regex
        my %mev_re;
        *file_match_pattern = sub {
            my ($file, $pattern) = @_;
            my $re = ($mev_re{$pattern} //= qr/^$pattern/);
            if (substr($pattern, -1) eq "/") {
                return 1 if ($file =~ $re);
            } else {
                if ($file =~ $re) {
                    my $s1 = ($file =~ tr@/@@);
                    my $s2 = ($pattern =~ tr@/@@);
                    return 1 if ($s1 == $s2);
                }
            }
            return 0;
        };
    }
    my @mev_all = @files;
    open(my $mev_out, ">", "$ENV{MEV_OUT}.$$") or die "$ENV{MEV_OUT}.$$: $!";
    foreach my $mev_file (@mev_all) {
        @files = ($mev_file);
        @mev_hits = ();
        get_maintainers();
        my @keys;
        foreach my $tvi (@mev_hits) {
            my $start = find_starting_index($tvi);
            my $end = find_ending_index($tvi);
            my $title = $typevalue[$start];
            # a field line by the field-line regex of the script itself
            # (the one of QEMU takes any character before the colon)
            $title = "" if ($title =~ m/MEV_FIELD_RE/);
            my @pats = grep { /^[FXN]:/ } @typevalue[$start .. $end - 1];
            push(@keys, join("\x1f", $title, @pats));
        }
        print $mev_out ($mev_file, "\t", join("\x1e", @keys), "\n");
    }
    close($mev_out) or die "$ENV{MEV_OUT}.$$: $!";
    exit(0);
}
my @maintainers;
};
	my $field_re = ($s =~ m{m/\^\(\.\):} || $s =~ m{m/\^\(\\C\):}) ? "^(.):" : "^([A-Z]):";
	$driver =~ s/MEV_FIELD_RE/$field_re/g;
	# Perl 5.24 removed \C (one byte); these scripts read bytes, so (?s:.)
	# takes exactly what \C took (U-Boot v2014.10 .. v2016.01)
	my $nc = ($s =~ s/\(\\C\)/((?s:.))/g);
	print STDERR "check: \\C (removed from Perl) replaced by (?s:.) in $nc places\n" if $nc;
	# coreboot 4.1 .. 4.5 test for its tree with no --no-tree to turn it
	# off, and the 4.1 and 4.2 test looks for a "documentation" folder
	# those trees spell "Documentation": the test decides nothing about
	# matching, and is skipped
	my $nt = ($s =~ s/^if \(!top_of_kernel_tree\(\$lk_path\)\) \{$/if (0) {/m);
	print STDERR "check: the script'"'"'s unconditional tree test skipped\n" if $nt;
	my $n = ($s =~ s/^my \@maintainers = get_maintainers\(\);$/$driver/m);
	die "check: this get_maintainer.pl has no main get_maintainers() call I know\n" unless $n == 1;
	open(my $o, ">", $out) or die "$out: $!"; print $o $s; close $o;
' "$script" "$work/driver.pl"

# The cached copy of file_match_pattern() is used only when the script's own
# is the one every known version has (Linux 2.6.x .. 6.12, U-Boot, Xen).
fast=0
if [ "$(sed -n '/^sub file_match_pattern/,/^}/p' "$script" | md5sum | cut -c1-32)" = be12c7a923f97badd3d6fe5b3aed669c ]; then
	fast=1
else
	echo "check: file_match_pattern() differs from the known one; running it unchanged (slow)" >&2
fi

fi

# Every blob of the tree but links that lead nowhere (the script refuses
# them) and names with a newline (they cannot pass through xargs lines).
git -C "$repo" ls-tree -r -z --full-tree "$rev" |
	perl -0 -ne 'chomp; my ($meta, $path) = split(/\t/, $_, 2);
		next if $meta =~ / commit /; print "$path\0";' > "$work/all.z"
# (The Python scripts do not test that a path exists: they get links that
# lead nowhere too.)
(cd "$tree" && PY="$pydialect" perl -0 -ne 'chomp; if ($_ =~ /\n/ || (!$ENV{PY} && !(-e $_))) { print STDERR "$_\n" } else { print "$_\0" }' \
	< "$work/all.z" > "$work/files.z" 2> "$work/skipped.txt")
total=$(tr -cd '\0' < "$work/all.z" | wc -c)
skipped=$(wc -l < "$work/skipped.txt")
echo "check: $total files, $skipped skipped (dangling links); running ${pydialect:+the $pydialect script, not }get_maintainer.pl${pydialect:+,} on $jobs cores" >&2

# keywords off, no e-mail, no git; options older scripts lack are left out
opts=(--noemail --subsystem --nokeywords)
for o in git git-fallback tree; do
	[ -z "$pydialect" ] && grep -q "'$o!'" "$script" && opts+=("--no$o")
done

cached=
if [ -n "$cache" ]; then
	mkdir -p "$cache"
	# the driver (the script with the block above) names the answers: a
	# change of the block is a new cache entry
	cached=$cache/$(git -C "$repo" rev-parse "$rev^{commit}")-$(cat "$work/driver.pl" "$here/scripts/eval/check-getmaintainer/driver.py" 2>/dev/null | md5sum | cut -c1-12).txt
fi
start=$(date +%s)
if [ -n "$cached" ] && [ -s "$cached" ]; then
	echo "check: using the script's answers cached in $cached" >&2
	cp "$cached" "$work/script.txt"
else
if [ -n "$pydialect" ]; then
	(cd "$tree" && HOME=$work/home python3 "$here/scripts/eval/check-getmaintainer/driver.py" "$pydialect" \
		< "$work/files.z" > "$work/script.txt")
else
mkdir "$work/out"
(cd "$tree" && HOME=$work/home MEV_OUT=$work/out/part MEV_FAST_FMP=$fast xargs -0 -P "$jobs" -n 1500 \
	perl "$work/driver.pl" "${opts[@]}" -f -- \
	< "$work/files.z")
cat "$work"/out/part.* > "$work/script.txt"
fi
echo "check: the script took $(( $(date +%s) - start )) s" >&2
[ -z "$cached" ] || cp "$work/script.txt" "$cached"
fi

start=$(date +%s)
"$mev" filemap --repo "$repo" --rev "$rev" "${mev_dialect[@]}" --keep-rest -o "$work/mev.csv" 2>/dev/null
"$mev" sections --repo "$repo" --rev "$rev" "${mev_dialect[@]}" --patterns -o "$work/patterns.csv" 2>/dev/null
"$mev" sections --repo "$repo" --rev "$rev" "${mev_dialect[@]}" -o "$work/sections.csv" 2>/dev/null
echo "check: maintevo took $(( $(date +%s) - start )) s" >&2

python3 - "$work" "$rev" "$pydialect" <<'PY'
import csv, re, sys
from collections import Counter
work, rev, py = sys.argv[1], sys.argv[2], sys.argv[3]
csv.field_size_limit(1 << 30)

def text(b):
    try:
        s = b.decode("utf-8")
    except UnicodeDecodeError:
        s = b.decode("latin-1")
    return s

def norm_title(b):
    # maintevo's form of the script's title: trailing white space and CR dropped,
    # ISO-8859-1 when not UTF-8, at most 200 bytes
    b = b.rstrip(b" \t\r\f\v")
    if len(b) > 200:
        b = b[:200]
        return text(b) + "..."
    return text(b) or "(untitled)"

# sections: maintevo's title ("X #2" for a repeat) -> key (the script's title,
# F/X/N lines as typevalue holds them)
pats = {}
for r in csv.DictReader(open(f"{work}/patterns.csv", newline="", encoding="utf-8")):
    if py and r["type"] in "FXN":
        # a Python script: sections by name (none for edk2) and pattern values
        pats.setdefault(r["section"], []).append(("X:" if r["type"] == "X" else "F:") + r["value"])
    elif r["type"] in "FXN":
        # the script keeps N: values as written (and where it has no N:
        # handling maintevo gives them no regex)
        v = r["value"] if r["type"] == "N" else r["regex"]
        pats.setdefault(r["section"], []).append(f'{r["type"]}:{v}')
titles = [r["section"] for r in csv.DictReader(open(f"{work}/sections.csv", newline="", encoding="utf-8"))]
base = {}
tset = set()
for t in titles:
    m = re.match(r"^(.*) #(\d+)$", t)
    base[t] = m.group(1) if m and m.group(1) in tset else t
    tset.add(t)
def our_key(t):
    if py:
        return ("" if py == "edk2" else base[t]) + "\x1f" + "\x1f".join(sorted(pats.get(t, [])))
    return base[t] + "\x1f" + "\x1f".join(pats.get(t, []))

ours = {}
for r in csv.DictReader(open(f"{work}/mev.csv", newline="", encoding="utf-8")):
    ts = r["sections"].split(" | ") if r["sections"] else []
    ours[r["path"]] = Counter(our_key(t) for t in ts)

theirs = {}
with open(f"{work}/script.txt", "rb") as f:
    for line in f:
        line = line.rstrip(b"\n")
        path, _, rest = line.partition(b"\t")
        keys = Counter()
        for k in rest.split(b"\x1e") if rest else []:
            parts = k.split(b"\x1f")
            if py:
                t = text(parts[0]).strip() if py != "edk2" else ""
                keys[t + "\x1f" + "\x1f".join(sorted(text(p) for p in parts[1:]))] += 1
                continue
            keys[norm_title(parts[0]) + "\x1f" + "\x1f".join(text(p) for p in parts[1:])] += 1
        p = text(path)
        if p.endswith("/"):
            p = p[:-1]   # links to directories: the script adds the '/'
        theirs[p] = keys

agree = sum(1 for p in theirs if ours.get(p) == theirs[p])
missing = [p for p in theirs if p not in ours]
diff = [p for p in theirs if p in ours and ours[p] != theirs[p]]
print(f"{rev}: {len(theirs)} files compared, {agree} agree, {len(diff)} differ, "
      f"{len(missing)} missing from maintevo, {len(ours) - len(theirs)} files only in maintevo's list")
show = lambda c: sorted(k.split("\x1f")[0] for k in c.elements())
for p in diff[:20]:
    print(f"  {p}\n    get_maintainer.pl: {show(theirs[p])}\n    maintevo:          {show(ours[p])}")
for p in missing[:5]:
    print(f"  {p}: not in maintevo's file map")
sys.exit(0 if not diff and not missing else 1)
PY
