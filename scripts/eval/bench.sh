#!/usr/bin/env bash
# maintevo benchmarks: medians of repeated runs, as ratios against the floor
# measured in the same run.
#
# usage: scripts/eval/bench.sh [--runs N] [--linux REPO] [--rev REV] [--uboot REPO]
#                              [--xen REPO] [--edk2 REPO] [--dpdk REPO] [--against OLD_MAINTEVO]
#                              [BENCH...]
#
# BENCH (default: all that have their input):
#   graph   `maintevo graph` of one Linux release (default v6.12 of the
#           repository built by shared/scripts/linux-two-releases.sh),
#           against the floor: every blob of that tree read once with
#           `git ls-tree -r | git cat-file --batch`, newlines counted
#   match   the matching step alone on that release (from --stats)
#   walk    `maintevo walk` of U-Boot's release tags v2014.10 .. newest into
#           an empty store, against the floor: the first release's whole tree
#           plus every blob added or changed between consecutive releases
#           (`git diff-tree -r` | `git cat-file --batch`), each blob once;
#           and against recomputing every release cold (`maintevo graph` per
#           tag, as the study's tool does); then a re-run with nothing new,
#           one new tag on top of the rest, peak memory and store size
#   walkrc  the same for U-Boot with every release candidate (--rc), v2014.10-rc1 ..
#   xen     the same walk figures for all of Xen's RELEASE-x.y.z tags
#   edk2    the same walk figures for all of edk2's edk2-stableYYYYMM[.NN] tags
#           (its own GetMaintainer.py rules, the <default> fallback: no rematch plan)
#   dpdk    the same for all of DPDK's release tags (v2.0.0 .. newest, the
#           stable vYY.MM.N among them)
#   dpdkrc  the same with every release candidate (--rc)
#   linux5  the same for the five Linux releases of shared/scripts/linux-releases.sh
#           (--linux5, default $MEV_REAL_DIR/linux5; with --rc),
#           and `maintevo graph` of its v6.12 against its floor
#   linux2  the same walk figures for the two-release Linux repository
#   snapshots  `maintevo walk --branch master` of U-Boot into an empty store:
#           monthly for the 60, 120 and 220 months to 2026-07 and weekly for
#           the last 60 months, each against its floor (the same walk floor
#           over the snapshots' commits: the first tree whole, then every
#           blob added or changed between consecutive snapshots), with the
#           CPU per snapshot (linear in the number of snapshots?); then a
#           re-run with nothing new.  Run it with `walk` to have the CPU of
#           the 54-tag walk it is compared with (target: 220 months <= 2x)
#   flow    `maintevo flow` of U-Boot's commits v2014.10 .. newest (a store
#           walked and clustered first), against the floor `git log
#           --no-merges --raw --no-renames v2014.10..NEWEST` (target <= 2),
#           run alternately, as CPU seconds (user + system; medians of up to
#           3 runs); peak memory (target < 1 GB), a re-run with nothing new
#           (< 1 s, wall clock)
#   cluster `maintevo track` (walktrap clustering of every release, then
#           tracking) of the study's 68 Linux graphs v2.6.37..v6.3 imported
#           into a fresh store, with one worker process and with one per
#           core (target < 30 s); then a re-run with nothing new, and the
#           import itself
#
# Inputs, by default in the folder of real data $MEV_REAL_DIR
# (docs/testing.md, "Real data"; a bench whose input is not there is
# skipped): --linux (default $MEV_REAL_DIR/linux2, the two-release
# repository), --linux5 (linux5), --uboot (u-boot+u-boot/repo), --xen
# (xen-project+xen/repo), --edk2 (tianocore+edk2/repo), --dpdk
# (DPDK+dpdk/repo), --pasta (linux-pasta: its section_graph/).
# Each figure is paired with its floor in the same run: the two commands
# alternate (floor, maintevo, floor, ...; one warm-up each), and the line
# gives the medians of wall and CPU seconds (user + system of the command
# and its children: for the floor, the whole pipeline), both ratios,
# maintevo's peak memory and the load average before and after.  A figure
# measured while the load average was not near 0 is not a figure.
#
# --against OLD_MAINTEVO: a refactoring's check.  Every side-by-side figure
# also runs that other build of maintevo in the same alternation (floor,
# maintevo, the other, floor, ...) and prints its medians and the ratio of
# the two builds, so "within noise of before" is a measurement, not a
# comparison of two sessions.
set -euo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
runs=5
# without MEV_REAL_DIR the defaults name no folder, and say why when skipped
real=${MEV_REAL_DIR:-MEV_REAL_DIR-is-not-set}
linux=$real/linux2
linux5=$real/linux5
uboot=$real/u-boot+u-boot/repo
xen=$real/xen-project+xen/repo
edk2=$real/tianocore+edk2/repo
dpdk=$real/DPDK+dpdk/repo
pasta=$real/linux-pasta
rev=v6.12
against=
benches=()
while [ $# -gt 0 ]; do
	case "$1" in
	--runs) runs=$2; shift 2 ;;
	--linux) linux=$2; shift 2 ;;
	--linux5) linux5=$2; shift 2 ;;
	--rev) rev=$2; shift 2 ;;
	--uboot) uboot=$2; shift 2 ;;
	--xen) xen=$2; shift 2 ;;
	--edk2) edk2=$2; shift 2 ;;
	--dpdk) dpdk=$2; shift 2 ;;
	--pasta) pasta=$2; shift 2 ;;
	--against) against=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
	-h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
	-*) echo "bench: unknown option '$1'" >&2; exit 2 ;;
	*) benches+=("$1"); shift ;;
	esac
done
[ ${#benches[@]} -gt 0 ] || benches=(graph match walk xen edk2 linux2 flow cluster)

mev=${MAINTEVO:-$here/build/maintevo}
if [ ! -x "$mev" ]; then
	cmake -S "$here" -B "$here/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
	make -C "$here/build" -j"$(nproc)" maintevo >/dev/null
fi

# median of the wall-clock seconds of `runs` runs of "$@"
median() {
	local i t0 t1 ts=()
	for ((i = 0; i < runs; i++)); do
		t0=$(date +%s.%N)
		"$@" >/dev/null 2>&1
		t1=$(date +%s.%N)
		ts+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')")
	done
	printf '%s\n' "${ts[@]}" | sort -g | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.3f\n", m}'
}

floor_tree() { # every distinct blob of the tree once, newlines counted
	git -C "$1" ls-tree -r "$2" | awk '$2 == "blob" && !seen[$3]++ { print $3 }' |
		git -C "$1" cat-file --batch | wc -l
}

# CPU seconds (user + system) of one run of "$@"; with its peak memory in KB
cpu_mem_of() {
	/usr/bin/time -f '%U %S %M' -o "${TMPDIR:-/tmp}/mev-bench-time.$$" "$@" >/dev/null 2>&1
	awk '{ printf "%.2f %d\n", $1 + $2, $3 }' "${TMPDIR:-/tmp}/mev-bench-time.$$"
	rm -f "${TMPDIR:-/tmp}/mev-bench-time.$$"
}
cpu_of() { cpu_mem_of "$@" | cut -d' ' -f1; }
# the median of the numbers on standard input
med() { sort -g | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.2f\n", m}'; }

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

# run1 CMD...: one run (output dropped) as "wall cpu peak_kB"; cpu is user +
# system time of the command and every process it waited for
run1() {
	local f
	f=$(mktemp)
	/usr/bin/time -f '%e %U %S %M' -o "$f" "$@" >/dev/null 2>&1 || true
	awk 'END { printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$f"
	rm -f "$f"
}


# side_by_side LABEL WALL_TARGET CPU_TARGET FLOOR_CMD MEV_CMD: the floor and
# maintevo run alternately (floor, maintevo, floor, ...) `runs` times each
# after one warm-up of each; medians of wall and CPU seconds, their ratios,
# maintevo's peak memory and the load average before and after.  The
# commands are strings run by bash (the functions of this script exported).
side_by_side() {
	local label=$1 tw=$2 tc=$3 fc=$4 mc=$5 i l0 l1 fw=() fcpu=() mw=() mcpu=() mm=() x
	local oc= ow=() ocpu=()
	# the other build: the same command with its path in place of ours
	[ -z "$against" ] || oc=${mc//"$(printf '%q' "$mev")"/"$(printf '%q' "$against")"}
	run1 bash -c "$fc" >/dev/null
	run1 bash -c "$mc" >/dev/null
	[ -z "$oc" ] || mev=$against run1 bash -c "$oc" >/dev/null
	l0=$(loadavg)
	for ((i = 0; i < runs; i++)); do
		read -r -a x <<<"$(run1 bash -c "$fc")"
		fw+=("${x[0]}"); fcpu+=("${x[1]}")
		read -r -a x <<<"$(run1 bash -c "$mc")"
		mw+=("${x[0]}"); mcpu+=("${x[1]}"); mm+=("${x[2]}")
		if [ -n "$oc" ]; then
			read -r -a x <<<"$(mev=$against run1 bash -c "$oc")"
			ow+=("${x[0]}"); ocpu+=("${x[1]}")
		fi
	done
	l1=$(loadavg)
	local a b c d m
	a=$(printf '%s\n' "${mw[@]}" | med); b=$(printf '%s\n' "${mcpu[@]}" | med)
	c=$(printf '%s\n' "${fw[@]}" | med); d=$(printf '%s\n' "${fcpu[@]}" | med)
	m=$(printf '%s\n' "${mm[@]}" | med)
	SB_WALL=$a SB_CPU=$b
	printf '%s: maintevo %ss wall, %ss CPU, peak %d MB | floor %ss wall, %ss CPU | ratio wall %s, CPU %s (targets %s, %s; medians of %d, alternating; load %s -> %s; %d cores)\n' \
		"$label" "$a" "$b" "$(awk -v k="$m" 'BEGIN { printf "%d", k / 1024 }')" "$c" "$d" \
		"$(ratio "$a" "$c")" "$(ratio "$b" "$d")" "$tw" "$tc" "$runs" "$l0" "$l1" "$(nproc)"
	if [ -n "$oc" ]; then
		local e f
		e=$(printf '%s\n' "${ow[@]}" | med); f=$(printf '%s\n' "${ocpu[@]}" | med)
		printf '%s: against %s: %ss wall, %ss CPU | this build / that: wall %s, CPU %s\n' "$label" \
			"$against" "$e" "$f" "$(ratio "$a" "$e")" "$(ratio "$b" "$f")"
	fi
}

# floor_walk REPO TAG...: the first tree whole, then what each release adds
floor_walk() {
	local repo=$1 prev= t
	shift
	{
		for t in "$@"; do
			if [ -z "$prev" ]; then
				git -C "$repo" ls-tree -r "$t" | awk '$2 == "blob" { print $3 }'
			else
				git -C "$repo" diff-tree -r --no-renames "$prev" "$t" |
					awk '$2 != "160000" && $5 != "D" { print $4 }'
			fi
			prev=$t
		done
	} | awk '!seen[$0]++' | git -C "$repo" cat-file --batch | wc -l
}

cold_all() { # every release from scratch, one process each, like the study
	local repo=$1 t
	shift
	for t in "$@"; do "$mev" graph --repo "$repo" --rev "$t" -o /dev/null 2>/dev/null; done
}

walk_fresh() { # walk_fresh REPO STORE ARGS...: into an empty store
	local repo=$1 store=$2
	shift 2
	rm -rf "$store"
	"$mev" walk --repo "$repo" --store "$store" -q "$@"
}

# walk_figures NAME REPO COLD_RUNS WALK-ARGS... -- TAGS...: the walk figures
# of one repository (COLD_RUNS 0: skip the all-cold comparison)
walk_figures() {
	local name=$1 repo=$2 n=$3 tmpd store f w c r mem size last i
	shift 3
	local args=() tags=() one=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do args+=("$1"); shift; done
	shift
	tags=("$@")
	last=${tags[-1]}
	tmpd=$(mktemp -d "${TMPDIR:-/tmp}/mev-bench.XXXXXX")
	store=$tmpd/store
	side_by_side "walk $name (${#tags[@]} releases ${tags[0]}..$last)" 0.6 1.1 \
		"floor_walk $(printf '%q ' "$repo" "${tags[@]}")" \
		"walk_fresh $(printf '%q ' "$repo" "$store" "${args[@]}")"
	w=$SB_WALL
	if [ "$n" -gt 0 ]; then
		local save=$runs
		runs=$n
		c=$(median cold_all "$repo" "${tags[@]}")
		runs=$save
		echo "walk $name: every release cold (maintevo graph per tag) ${c}s; walk/cold $(ratio "$w" "$c") (median of $n)"
	fi
	r=$(median "$mev" walk --repo "$repo" --store "$store" -q "${args[@]}")
	echo "walk $name: re-run with nothing new ${r}s (target < 1 s)"
	size=$(du -sk "$store" | cut -f1)
	# one new tag on top: a clone sharing the objects, without the newest tag
	git clone -q --mirror --shared "$repo" "$tmpd/clone.git"
	local ref
	ref=$(git -C "$repo" rev-parse "refs/tags/$last")
	git -C "$tmpd/clone.git" update-ref -d "refs/tags/$last"
	walk_fresh "$tmpd/clone.git" "$tmpd/base" "${args[@]}"
	git -C "$tmpd/clone.git" update-ref "refs/tags/$last" "$ref"
	for ((i = 0; i < runs; i++)); do
		rm -rf "$tmpd/one"
		cp -r "$tmpd/base" "$tmpd/one"
		local t0 t1
		t0=$(date +%s.%N)
		"$mev" walk --repo "$tmpd/clone.git" --store "$tmpd/one" -q "${args[@]}"
		t1=$(date +%s.%N)
		one+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')")
	done
	echo "walk $name: one new tag ($last) on top of the rest $(printf '%s\n' "${one[@]}" | sort -g |
		awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.3f", m}')s"
	rm -rf "$tmpd/mem"
	mem=$( { /usr/bin/time -f '%M' "$mev" walk --repo "$repo" --store "$tmpd/mem" -q "${args[@]}" >/dev/null; } 2>&1 | tail -1)
	echo "walk $name: peak memory $((mem / 1024)) MB; store $((size / 1024)) MB on disk, $((size / ${#tags[@]})) kB per release"
	rm -rf "$tmpd"
}

export mev against
export -f floor_tree floor_walk walk_fresh

for b in "${benches[@]}"; do
	case "$b" in
	graph)
		if ! git -C "$linux" rev-parse -q --verify "$rev^{commit}" >/dev/null 2>&1; then
			echo "graph: skipped, no $rev in '$linux' (build it with shared/scripts/linux-two-releases.sh)"
			continue
		fi
		side_by_side "graph $rev of $linux (floor: ls-tree | cat-file --batch | wc -l)" 0.6 1.1 \
			"floor_tree $(printf '%q ' "$linux" "$rev")" \
			"$(printf '%q ' "$mev" graph --repo "$linux" --rev "$rev" -o /dev/null)"
		;;
	match)
		if ! git -C "$linux" rev-parse -q --verify "$rev^{commit}" >/dev/null 2>&1; then
			echo "match: skipped, no $rev in '$linux'"
			continue
		fi
		ms=()
		for ((i = 0; i < runs; i++)); do
			ms+=("$("$mev" filemap --repo "$linux" --rev "$rev" --jobs 1 --stats -o /dev/null 2>&1 |
				sed -n 's/.*match \([0-9.]*\) s (\([0-9]*\) paths).*/\1 \2/p')")
		done
		printf '%s\n' "${ms[@]}" | sort -g | awk -v rev="$rev" -v n="$runs" \
			'{a[NR]=$1; p=$2} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2;
			printf "match %s: %.3f s for %d paths on one core (compile + match, median of %d)\n", rev, m, p, n}'
		;;
	walk)
		if ! git -C "$uboot" rev-parse -q --verify "v2014.10^{commit}" >/dev/null 2>&1; then
			echo "walk: skipped, no U-Boot repository at '$uboot'"
			continue
		fi
		mapfile -t ts < <(git -C "$uboot" tag | grep -E '^v20[0-9]{2}\.[0-9]{2}$' | sort -V |
			awk '$0 >= "v2014.10"')
		walk_figures u-boot "$uboot" 1 --tags 'v201[4-9].[01][0-9]' --tags 'v20[2-9][0-9].[01][0-9]' \
			--exclude 'v2014.0[1-7]' -- "${ts[@]}"
		;;
	walkrc)
		if ! git -C "$uboot" rev-parse -q --verify "v2014.10^{commit}" >/dev/null 2>&1; then
			echo "walkrc: skipped, no U-Boot repository at '$uboot'"
			continue
		fi
		# version order: v2014.10-rc1 < v2014.10 (sort -V puts '~' first)
		mapfile -t ts < <(git -C "$uboot" tag | grep -E '^v20[0-9]{2}\.[0-9]{2}(-rc[0-9]+)?$' |
			sed 's/-rc/~rc/' | sort -V | sed 's/~rc/-rc/' | awk '$0 >= "v2014.10"')
		walk_figures u-boot-rc "$uboot" 0 --rc --tags 'v201[4-9].[01][0-9]' --tags 'v20[2-9][0-9].[01][0-9]' \
			--tags 'v201[4-9].[01][0-9]-rc*' --tags 'v20[2-9][0-9].[01][0-9]-rc*' --exclude 'v2014.0[1-7]*' -- "${ts[@]}"
		;;
	linux5)
		if ! git -C "$linux5" rev-parse -q --verify "v7.3-rc7^{commit}" >/dev/null 2>&1; then
			echo "linux5: skipped, no v7.3-rc7 in '$linux5' (build it with shared/scripts/linux-releases.sh)"
			continue
		fi
		save=$runs; runs=${runs_linux:-$runs}
		walk_figures linux5 "$linux5" 0 --rc -- v5.10 v6.1 v6.12 v7.2 v7.3-rc7
		side_by_side "graph v6.12 of $linux5 (floor: ls-tree | cat-file --batch | wc -l)" 0.6 1.1 \
			"floor_tree $(printf '%q ' "$linux5" v6.12)" \
			"$(printf '%q ' "$mev" graph --repo "$linux5" --rev v6.12 -o /dev/null)"
		runs=$save
		;;
	xen)
		if ! git -C "$xen" rev-parse -q --verify "RELEASE-4.0.0^{commit}" >/dev/null 2>&1; then
			echo "xen: skipped, no Xen repository at '$xen'"
			continue
		fi
		mapfile -t ts < <(git -C "$xen" tag | grep -E '^RELEASE-[0-9]+\.[0-9]+\.[0-9]+$' | sort -V)
		walk_figures xen "$xen" 0 --dialect xen -- "${ts[@]}"
		;;
	edk2)
		if ! git -C "$edk2" rev-parse -q --verify "edk2-stable201908^{commit}" >/dev/null 2>&1; then
			echo "edk2: skipped, no edk2 repository at '$edk2'"
			continue
		fi
		mapfile -t ts < <(git -C "$edk2" tag | grep -E '^edk2-stable[0-9]{6}(\.[0-9]{1,2})?$' | sort -V)
		walk_figures edk2 "$edk2" 0 --dialect edk2 -- "${ts[@]}"
		;;
	dpdk|dpdkrc)
		if ! git -C "$dpdk" rev-parse -q --verify "v2.0.0^{commit}" >/dev/null 2>&1; then
			echo "$b: skipped, no DPDK repository at '$dpdk'"
			continue
		fi
		# version order: v20.11-rc1 < v20.11 < v20.11.1 (sort -V puts '~' first)
		rcs=()
		[ "$b" = dpdkrc ] && rcs=(--rc)
		mapfile -t ts < <(git -C "$dpdk" tag | grep -E '^v(2\.[0-9]+\.[0-9]+|[0-9]{2}\.[0-9]{2}(\.[0-9]+)?)(-rc[0-9]+)?$' |
			{ if [ "$b" = dpdk ]; then grep -v -- -rc; else cat; fi; } |
			sed 's/-rc/~rc/' | sort -V | sed 's/~rc/-rc/' | awk '$0 !~ /^v1[0-5]\./')
		walk_figures "$b" "$dpdk" 0 --dialect dpdk "${rcs[@]}" -- "${ts[@]}"
		;;
	linux2)
		if ! git -C "$linux" rev-parse -q --verify "v6.1^{commit}" >/dev/null 2>&1; then
			echo "linux2: skipped, no v6.1 in '$linux'"
			continue
		fi
		save=$runs; runs=1
		walk_figures linux "$linux" 1 -- v6.1 v6.12
		runs=$save
		;;
	snapshots)
		if ! git -C "$uboot" rev-parse -q --verify "master^{commit}" >/dev/null 2>&1; then
			echo "snapshots: skipped, no U-Boot repository with master at '$uboot'"
			continue
		fi
		tmpd=$(mktemp -d "${TMPDIR:-/tmp}/mev-bench.XXXXXX")
		git -C "$uboot" log --first-parent --format='%H %ct' master >"$tmpd/chain"
		# spec: name every since until
		for spec in "monthly60 month 2021-08-01 2026-07-31" "monthly120 month 2016-08-01 2026-07-31" \
			"monthly220 month 2008-04-01 2026-07-31" "weekly60m week 2021-08-01 2026-07-31"; do
			read -r name every since until <<<"$spec"
			# the snapshots' commits, as the walk picks them (docs/walking.md)
			python3 - "$tmpd/chain" "$every" "$since" "$until" >"$tmpd/commits" <<'PY'
import sys, datetime as dt
chain = [l.split() for l in open(sys.argv[1])][::-1]          # oldest first
every, since, until = sys.argv[2], dt.date.fromisoformat(sys.argv[3]), dt.date.fromisoformat(sys.argv[4])
def end_of(d):
    if every == "week":
        return d + dt.timedelta(days=6 - d.weekday())
    nxt = dt.date(d.year + (d.month == 12), d.month % 12 + 1, 1)
    return nxt - dt.timedelta(days=1)
d, out = end_of(since), []
while d <= end_of(until):
    t = int(dt.datetime(d.year, d.month, d.day, 23, 59, 59, tzinfo=dt.timezone.utc).timestamp())
    best = max((i for i, (_, ct) in enumerate(chain) if int(ct) <= t), default=None)
    if best is not None:
        print(chain[best][0])
    d = end_of(d + dt.timedelta(days=1))
PY
			n=$(wc -l <"$tmpd/commits")
			mapfile -t cs <"$tmpd/commits"
			side_by_side "walk --branch master --every $every u-boot, $n snapshots $since..$until" 0.6 1.1 \
				"floor_walk $(printf '%q ' "$uboot" "${cs[@]}")" \
				"walk_fresh $(printf '%q ' "$uboot" "$tmpd/s" --branch master --every "$every" --since "$since" --until "$until")"
			echo "$name: $n snapshots; maintevo CPU per snapshot $(awk -v w="$SB_CPU" -v n="$n" 'BEGIN { printf "%.3f", w / n }') s"
			r=$(median "$mev" walk --repo "$uboot" --store "$tmpd/s" -q --until "$until")
			echo "$name: re-run with nothing new ${r}s; store $(($(du -sk "$tmpd/s" | cut -f1) / 1024)) MB"
		done
		rm -rf "$tmpd"
		;;
	flow)
		if ! git -C "$uboot" rev-parse -q --verify "v2014.10^{commit}" >/dev/null 2>&1; then
			echo "flow: skipped, no U-Boot repository at '$uboot'"
			continue
		fi
		last=$(git -C "$uboot" tag | grep -E '^v20[0-9]{2}\.[0-9]{2}$' | sort -V | tail -1)
		tmpd=$(mktemp -d "${TMPDIR:-/tmp}/mev-bench.XXXXXX")
		"$mev" walk --repo "$uboot" --store "$tmpd/base" -q --tags 'v201[4-9].[01][0-9]' \
			--tags 'v20[2-9][0-9].[01][0-9]' --exclude 'v2014.0[1-7]'
		"$mev" cluster --store "$tmpd/base" -q
		# floor and flow alternately (the machine may be shared): wall and
		# CPU seconds (user + system) and peak memory of each, medians of
		# min(runs, 3); the store is copied fresh (untimed) for each run
		fw=() fr=() tw=() tr=() mr=()
		l0=$(loadavg)
		for ((k = 0; k < (runs < 3 ? runs : 3); k++)); do
			read -r -a x <<<"$(run1 git -C "$uboot" log --no-merges --raw --no-renames "v2014.10..$last")"
			fw+=("${x[0]}") fr+=("${x[1]}")
			rm -rf "$tmpd/s" && cp -r "$tmpd/base" "$tmpd/s"
			read -r -a x <<<"$(run1 "$mev" flow -q --store "$tmpd/s")"
			tw+=("${x[0]}") tr+=("${x[1]}") mr+=("${x[2]}")
		done
		fwm=$(printf '%s\n' "${fw[@]}" | med) f=$(printf '%s\n' "${fr[@]}" | med)
		twm=$(printf '%s\n' "${tw[@]}" | med) t=$(printf '%s\n' "${tr[@]}" | med)
		mem=$(printf '%s\n' "${mr[@]}" | med)
		n=$(git -C "$uboot" rev-list --no-merges --count "v2014.10..$last")
		echo "flow u-boot ($n commits v2014.10..$last): maintevo ${twm}s wall / ${t}s CPU, floor (git log --raw) ${fwm}s / ${f}s, ratio wall $(ratio "$twm" "$fwm") / CPU $(ratio "$t" "$f") (target <= 2); peak memory $((${mem%.*} / 1024)) MB (target < 1 GB); load $l0 -> $(loadavg)"
		r=$(median "$mev" flow -q --store "$tmpd/s")
		echo "flow u-boot: re-run with nothing new ${r}s (target < 1 s)"
		rm -rf "$tmpd"
		;;
	cluster)
		if [ ! -d "$pasta/section_graph" ]; then
			echo "cluster: skipped, no section graphs in '$pasta/section_graph'"
			continue
		fi
		tmpd=$(mktemp -d "${TMPDIR:-/tmp}/mev-bench.XXXXXX")
		"$mev" import-pasta -q --store "$tmpd/base" "$pasta/section_graph"
		n=$(ls "$pasta/section_graph" | grep -c '\.csv')
		i=$(median sh -c 'rm -rf "$1" && "$2" import-pasta -q --store "$1" "$3"' _ "$tmpd/imp" "$mev" \
			"$pasta/section_graph")
		for j in 1 0; do
			t=$(median sh -c 'rm -rf "$1" && cp -r "$2" "$1" && "$3" track -q -j "$4" --store "$1"' _ \
				"$tmpd/s" "$tmpd/base" "$mev" "$j")
			echo "cluster: walktrap + track of $n Linux releases ${t}s with $([ "$j" = 1 ] && echo "1 process" ||
				echo "$(nproc) processes") (target < 30 s; median of $runs)"
		done
		r=$(median "$mev" track -q --store "$tmpd/s")
		echo "cluster: re-run with nothing new ${r}s; import-pasta of the $n graphs ${i}s"
		rm -rf "$tmpd"
		;;
	*) echo "bench: unknown benchmark '$b'" >&2; exit 2 ;;
	esac
done
