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

# The long options of each command: its --help lists exactly these.
release_opts="repo rev dialect top-level-only warnings jobs stats"
cluster_opts="method steps resolution seed top-fraction smooth"
track_opts="link match absorb gap growth rename support-runs noise tracking"
options_of() {
	case $1 in
	filemap) echo "$release_opts store release keep-rest excel-safe out help" ;;
	graph) echo "$release_opts store release format keep-rest excel-safe out help" ;;
	sections) echo "$release_opts patterns excel-safe out help" ;;
	walk) echo "repo store tags exclude line rc branch every since until tags-too dialect top-level-only files-as jobs rebuild verify wait quiet help" ;;
	releases) echo "store format $cluster_opts excel-safe out help" ;;
	store) echo "store help" ;;
	import-pasta) echo "store quiet help" ;;
	cluster) echo "store $cluster_opts jobs wait quiet help" ;;
	clusters) echo "store release format $cluster_opts $track_opts excel-safe out help" ;;
	track) echo "store $cluster_opts $track_opts jobs wait quiet help" ;;
	events) echo "store from to format $cluster_opts $track_opts excel-safe out help" ;;
	lineages) echo "store format $cluster_opts $track_opts excel-safe out help" ;;
	section-changes) echo "store from to format rename excel-safe out help" ;;
	explain) echo "store from to release lineage repo rev dialect top-level-only format excel-safe $cluster_opts $track_opts help" ;;
	flow) echo "repo store churn rebuild whole-trees wait quiet help" ;;
	history) echo "store section release top all keep-rest format excel-safe out help $cluster_opts $track_opts" ;;
	report) echo "store from to format title min-support out help $cluster_opts $track_opts" ;;
	chart) echo "store format x measure top from to mark title out help $cluster_opts $track_opts" ;;
	export) echo "store format release from to path meta keep-rest by repo orgs quiet-months top people fold excel-safe out help $cluster_opts $track_opts" ;;
	dialects) echo "names format excel-safe out help" ;;
	*) fail "no option list for '$1' in test_usage.sh: add one" ;;
	esac
}

step "every command: --help lists its options; 'help CMD' prints the same"
for c in $all; do
	expect_exit 0 "$MEV" "$c" --help
	cp "$OUT" "$TMP/.help"
	listed=$(sed -n 's/^  \(-[a-zA-Z0-9], \)\{0,1\}--\([a-z-]*\).*/\2/p' "$OUT" | sort | tr '\n' ' ')
	want=$(options_of "$c" | tr ' ' '\n' | sort | tr '\n' ' ')
	[ "$listed" = "$want" ] || fail "'$c --help' lists '$listed', expected '$want'"
	expect_exit 0 "$MEV" help "$c"
	same_files "$TMP/.help" "$OUT"
	[ ! -s "$ERR" ] || fail "stderr not empty"
done

step "every command: an unknown option and a missing value, exactly"
for c in $all; do
	pre=
	[ "$c" != store ] || pre=info
	expect_exit 2 "$MEV" "$c" $pre --bogus
	printf "maintevo: error: unknown option '--bogus'\nhint: see 'maintevo %s --help'\n" "$c" |
		expect_stderr
	[ ! -s "$OUT" ] || fail "stdout not empty after a usage error"
	opt=--store
	case " $(options_of "$c") " in *" store "*) ;; *) opt=--out ;; esac
	expect_exit 2 "$MEV" "$c" $pre $opt
	printf "maintevo: error: option '%s' needs a value\nhint: see 'maintevo %s --help'\n" \
		"$opt" "$c" | expect_stderr
done

step "report: its help, generated from its option table"
expect_exit 0 "$MEV" report --help
expect_stdout <<'EOF'
usage: maintevo report --store DIR [--from TAG] [--to TAG] [--format md|html]
                       [--title NAME] [-o FILE] [--method M ...]

Compare two stored releases (without --from and --to: see below): headline
numbers of both and their change (sections, files, lines, code no section
covers, subsystems, sections without a maintainer or orphaned); sections
added, removed and renamed; subsystems born, died, split and merged; the
largest growers and shrinkers by lines.

  md    Markdown tables, fit for a mailing list post (default)
  html  one self-contained page (inline CSS and SVG, no scripts, nothing
        fetched) with charts of the largest subsystems over all releases,
        of the splits and merges in the range and of the sections per
        release, and the lineage chart of the whole history with the
        pair compared shaded ('maintevo chart'); prints well too

Subsystems need 'maintevo cluster' and 'maintevo track' on the store first.
Without --from and --to the pair is the newest two neighbouring releases
with subsystems born, died, split or merged (growth and shrinkage do not
count: nearly every pair has some), else the two newest; the heading and a
note on standard error say so when it is not the two newest.  A nightly
job names its pair ('--from PREVIOUS --to NEWEST', as scripts/nightly.sh).
A report needs two stored releases: with one or none it exits 1 and says so.
The same store gives the same bytes: the report holds no date of its own.

options:
  --store DIR        the store (default: ./maintevo.store)
  --from TAG         the older release (default: the one before --to;
                     with neither, the newest pair with events)
  --to TAG           the newer release (default: the newest stored)
  -f, --format F     md (default) or html
  --title NAME       the project's name in the heading (default: from the
                     store's dialect: Linux, U-Boot, Xen, QEMU, OP-TEE, edk2, Zephyr, coreboot,
                     DPDK)
  --min-support S    leave out events found by fewer than S of the
                     perturbed runs (default 0.5; 0: show all)
  -o, --out FILE     write to FILE instead of standard output
  -h, --help         show this help
the clustering to read (as given to 'maintevo cluster'):
  -m, --method M     temporal (default: each release from the previous one's
                     clusters, docs/tracking.md), walktrap (the study's),
                     louvain, leiden or components; or a whole parameter key
                     as the CSVs show it (temporal:res=1:seed=1:tol=0.97:top=1;
                     tol: keep clusters scoring this share of Leiden's)
  --steps N          walktrap: length of the random walks (default 4)
  --resolution R     temporal, louvain, leiden: modularity resolution
                     (default 1)
  --seed N           temporal, louvain, leiden: random seed (default 1)
  --top-fraction F   cluster only the largest F of the sections by lines
                     (default 1; the study's figures used 0.2)
  --smooth           leiden started from the previous release's clusters
                     (implies --method leiden)
the tracking results to read (as given to 'maintevo track'):
  --link J           minimum Jaccard similarity of a link (default 0.1)
  --match S          share of a cluster's code that makes the other cluster
                     its heir or origin (default 0.5)
  --absorb A         a cluster left without a link whose largest receiver
                     holds at least A of its lines merges into it instead
                     of dying (default 0.5)
  --gap N            a lineage whose clusters vanish for at most N releases
                     and come back continues (a bridge) instead of dying
                     and being born again (default 1; 0: never)
  --growth G         a continuation whose lines change by at least G is a
                     growth or contraction (default 0.1)
  --rename R         share of a removed section's code a new section must
                     cover to be its new name (default 0.8)
  --support-runs N   perturbed runs that measure each event's support
                     (default 10; 0: none)
  --noise X          their perturbation: edge weights scaled by a factor
                     in [1 - X, 1 + X] (default 0.05)
  --tracking KEY     all thresholds at once, as the CSVs' tracking column
                     shows them (link=0.05:match=0.5:growth=0.1:absorb=0.5:gap=1)
EOF
cp "$OUT" "$TMP/.help"
for h in -h "--help --bogus" "--store x -h"; do
	expect_exit 0 "$MEV" report $h
	same_files "$TMP/.help" "$OUT"
done
expect_exit 0 "$MEV" help report
same_files "$TMP/.help" "$OUT"

step "report: usage errors from its option table, exactly"
report_error() {
	local want=$1
	shift
	expect_exit 2 "$MEV" report "$@"
	printf "maintevo: error: %s\nhint: see 'maintevo report --help'\n" "$want" | expect_stderr
	[ ! -s "$OUT" ] || fail "stdout not empty after a usage error"
}
report_error "unknown option '--bogus'" --bogus
report_error "unknown option '-x'" -x
report_error "option '--t' is ambiguous (an abbreviation of two or more options)" --t v1 # --to, --title
report_error "unknown option '--titel'; did you mean '--title'?" --titel x
report_error "option '--from' needs a value" --from
report_error "option '-o' needs a value" -o
report_error "option '--help' takes no value" --help=yes
report_error "unknown format 'xml' (use md or html)" --format=xml
report_error "unknown format 'xml' (use md or html)" -fxml
report_error "--steps takes a whole number from 1 to 1000, not '0'" --steps 0
report_error "--seed takes a whole number from 0 to 2147483647, not 'x'" --seed x
report_error "--top-fraction takes a number from 1e-09 to 1, not '1.5'" --top-fraction 1.5
report_error "--steps is for walktrap, not louvain" --method louvain --steps 3
report_error "unexpected argument 'stray'" --store x stray

step "the commands on option tables: usage errors, exactly"
usage_error() {
	local c=$1 want=$2
	shift 2
	expect_exit 2 "$MEV" "$c" "$@"
	printf "maintevo: error: %s\nhint: see 'maintevo %s --help'\n" "$want" "$c" | expect_stderr
	[ ! -s "$OUT" ] || fail "stdout not empty after a usage error"
}
for c in $all; do
	pre=
	[ "$c" != store ] || pre=info
	usage_error "$c" "option '--help' takes no value" $pre --help=yes
done
usage_error filemap "option '--keep-rest' takes no value" --keep-rest=1
usage_error graph "option '--stats' takes no value" --stats=1
usage_error cluster "option '--smooth' takes no value" --smooth=1
usage_error export "option '--meta' takes no value" --meta=1
usage_error track "option '--quiet' takes no value" --quiet=1
usage_error filemap "--store and --release go together" --store x
usage_error graph "--store and --release go together" --release v1
usage_error filemap "use either --repo/--rev or --store/--release" --store x --release v1 --rev v1
usage_error cluster "--jobs takes a whole number from 0 to 64, not '65'" -j 65
usage_error cluster "--resolution is for temporal, louvain and leiden, not walktrap" --method walktrap --resolution 2
usage_error track "--link takes a number above 0 and at most 1, not '0'" --link 0
usage_error track "--match takes a number above 0 and at most 1, not '1.5'" --match=1.5
usage_error track "--growth takes a number above 0 and at most 1e+06, not '2e6'" --growth 2e6
usage_error track "--rename takes a number above 0 and at most 1, not 'x'" --rename x
usage_error track "--jobs takes a whole number from 0 to 64, not 'all'" --jobs all
usage_error clusters "--release is required" --store x
usage_error releases "unexpected argument 'extra'" extra
usage_error events "unknown option '-j'" -j 2
usage_error section-changes "unknown option '--method'" --method louvain
usage_error lineages "--seed is for temporal, louvain and leiden, not components" -m components --seed 3
usage_error export "say which table to export (releases, sections, edges, clusters, events, lineages, flows, section_changes, files, health, commits, flow, people, workload, listed, listed_sections, candidates, graph or all)"
usage_error export "unexpected argument 'extra'" releases extra
usage_error export "--quiet-months takes a whole number from 1 to 1200, not '0'" listed --quiet-months 0
usage_error export "--quiet-months takes a whole number from 1 to 1200, not 'x'" listed --quiet-months x
usage_error export "--quiet-months goes with the listed, listed_sections and candidates tables only" sections --quiet-months 3
usage_error export "--top goes with the candidates table only" listed --top 3
usage_error walk "option '--rc' takes no value" --rc=1
usage_error walk "--repo is required" --store x
usage_error walk "unexpected argument 'extra'" --repo x extra
usage_error walk "unknown dialect 'martian' (use auto, linux, uboot, xen, qemu, optee, edk2, zephyr, coreboot or dpdk)" --dialect martian
usage_error dialects "unknown format 'xml' (use csv, json or jsonl)" --format xml
usage_error dialects "unexpected argument 'extra'" extra
usage_error walk "--jobs takes a whole number from 0 to 64, not '65'" --repo x -j65
usage_error walk "at most 64 --tags" --repo x $(for i in $(seq 65); do echo --tags t$i; done)
usage_error walk "at most 64 --exclude" --repo x $(for i in $(seq 65); do echo --exclude t$i; done)
usage_error store "say what to do with the store: 'maintevo store info', 'check' or 'repair'"
usage_error store "say what to do with the store: 'maintevo store info', 'check' or 'repair'" --store x info
usage_error store "unexpected argument 'extra'" info extra
usage_error store "unexpected argument 'extra'" check extra
usage_error store "unexpected argument 'extra'" repair --store x extra
usage_error import-pasta "option '--quiet' takes no value" --quiet=1
usage_error import-pasta "say which directory to import (CSVDIR)" --store x
usage_error import-pasta "unexpected argument 'b'" a b

step "maintevo help: the general usage, a command's help, or an error"
expect_exit 0 "$MEV" --help
cp "$OUT" "$TMP/.usage"
for h in help "help help" "help --help"; do
	expect_exit 0 "$MEV" $h
	same_files "$TMP/.usage" "$OUT"
done
expect_exit 2 "$MEV" help nosuch
expect_stderr <<'EOF'
maintevo: error: 'nosuch' is not a maintevo command
hint: see 'maintevo --help' for the list of commands
EOF
[ ! -s "$OUT" ] || fail "stdout not empty after a usage error"
expect_exit 2 "$MEV" help report walk
expect_error "unexpected argument 'walk'"

step "no command: the usage on stderr, exit 2"
expect_exit 2 "$MEV"
expect_stderr_contains "usage: maintevo <command>"

step "unknown command: exit 2"
expect_exit 2 "$MEV" grpah --repo . --rev v1
expect_error "'grpah' is not a maintevo command; did you mean 'graph'?"
expect_stderr_contains "maintevo --help"

step "did you mean: commands, options, tables, subcommands; nothing when nothing is near"
expect_exit 2 "$MEV" clsuter
expect_error "'clsuter' is not a maintevo command; did you mean 'cluster'?"
expect_exit 2 "$MEV" export sections --relase v1
expect_error "unknown option '--relase'; did you mean '--release'?"
expect_exit 2 "$MEV" export sectoins
expect_error "unknown table 'sectoins'; did you mean 'sections'?"
expect_exit 2 "$MEV" store inof
expect_error "unknown subcommand 'inof'; did you mean 'maintevo store info'?"
expect_exit 2 "$MEV" walk --frobnicate
expect_stderr_contains "unknown option '--frobnicate'"
grep -q "did you mean" "$ERR" && fail "a suggestion for a word near nothing"

step "a repository that does not exist says so"
expect_exit 1 "$MEV" walk --repo "$TMP/nonexistent" --store S
expect_error "cannot open repository '$TMP/nonexistent': it does not exist"
[ ! -e S ] || fail "a store was created for a repository that does not exist"

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
