#!/usr/bin/env bash
# nightly.sh --repo R --store S --out DIR: the nightly job.  Fetch new tags
# (when the repository has a remote; with --branch B also B), walk them (and
# with --branch B --every P the branch's dated snapshots) into the store, cluster,
# track and judge the new commits (maintevo flow), then write into DIR/<newest release>/ every table of 'maintevo
# export' (csv/), with listed and candidates (who is listed, who does the work), the graphs (GraphML) and the report of the newest release
# against the previous one (report.md, report.html; named with --from and
# --to: a nightly's news is the new release, events or not, where 'maintevo
# report' alone picks the newest pair with events), the lineage chart of the
# whole history with that pair shaded (chart.html); DIR/latest points at
# that folder.  A file whose content did not change is not rewritten.  A
# run with nothing new changes nothing, in well under a second: when the
# repository's refs, the day, the options, maintevo and the store's file
# are as the last complete run left them, no maintevo command runs at all;
# else, when after walk, cluster, track and flow the store's releases table
# is byte for byte the last complete run's, nothing is exported.  One run at a time per DIR (flock on
# DIR/.nightly/lock; the scratch space is in DIR/.nightly/ too, and what a
# killed run left there the next run removes).  Exit status 0 on success, 1 with a one-line reason on
# standard error on failure, 2 for usage errors.
set -euo pipefail

me=nightly.sh
usage() {
	cat <<'EOF'
usage: scripts/nightly.sh --repo R --store S --out DIR [options]

  --repo R          the git repository (its remote is fetched when it has one)
  --store S         the maintevo store (created on the first run)
  --out DIR         where the tables, graphs and reports go
  --branch B        also follow branch B: one dated snapshot B@YYYY-MM-DD per
                    period (maintevo walk --branch); the store remembers it
  --every P         with --branch: day, week, month or quarter
  --since DAY       with --branch: the first day (YYYY-MM-DD) of a new store
  --title NAME      project name in the report heading (default: from the store)
  --method M        clustering method or parameter key (default: maintevo's)
  --no-fetch        do not run 'git fetch --tags'
  --maintevo BIN    the maintevo binary (default: $MAINTEVO, then build/maintevo
                    next to this script, then 'maintevo' on the PATH)
  -q, --quiet       print nothing on success
  -h, --help        show this help
EOF
}
die() { echo "$me: error: $*" >&2; exit 1; }
usage_error() { echo "$me: error: $*" >&2; echo "hint: see '$0 --help'" >&2; exit 2; }
say() { [ -n "$quiet" ] || echo "$me: $*" >&2; }

repo= store= out= title= method= fetch=1 quiet= mev=${MAINTEVO:-} branch= every= since=
while [ $# -gt 0 ]; do
	case $1 in
	--repo) [ $# -ge 2 ] || usage_error "--repo needs a value"; repo=$2; shift 2 ;;
	--store) [ $# -ge 2 ] || usage_error "--store needs a value"; store=$2; shift 2 ;;
	--out) [ $# -ge 2 ] || usage_error "--out needs a value"; out=$2; shift 2 ;;
	--title) [ $# -ge 2 ] || usage_error "--title needs a value"; title=$2; shift 2 ;;
	--branch) [ $# -ge 2 ] || usage_error "--branch needs a value"; branch=$2; shift 2 ;;
	--every) [ $# -ge 2 ] || usage_error "--every needs a value"; every=$2; shift 2 ;;
	--since) [ $# -ge 2 ] || usage_error "--since needs a value"; since=$2; shift 2 ;;
	--method) [ $# -ge 2 ] || usage_error "--method needs a value"; method=$2; shift 2 ;;
	--maintevo) [ $# -ge 2 ] || usage_error "--maintevo needs a value"; mev=$2; shift 2 ;;
	--no-fetch) fetch=; shift ;;
	-q | --quiet) quiet=1; shift ;;
	-h | --help) usage; exit 0 ;;
	*) usage_error "unknown argument '$1'" ;;
	esac
done
[ -n "$repo" ] || usage_error "--repo is required"
[ -n "$store" ] || usage_error "--store is required"
[ -n "$out" ] || usage_error "--out is required"
[ -z "$every$since" ] || [ -n "$branch" ] || usage_error "--every and --since go with --branch"
if [ -z "$mev" ]; then
	here=$(cd "$(dirname "$0")/.." && pwd)
	if [ -x "$here/build/maintevo" ]; then mev=$here/build/maintevo
	else mev=$(command -v maintevo) || die "no maintevo binary: build it or pass --maintevo BIN"
	fi
fi
[ -x "$mev" ] || die "'$mev' is not an executable"
[ -e "$repo" ] || die "'$repo' does not exist"
git -C "$repo" rev-parse --git-dir >/dev/null 2>&1 || die "'$repo' is not a git repository"
command -v flock >/dev/null || die "flock is not installed (util-linux)"

mkdir -p "$out/.nightly" || die "cannot create '$out/.nightly'"
exec 9>"$out/.nightly/lock" || die "cannot write the lock '$out/.nightly/lock'"
flock -n 9 || die "another nightly run holds '$out/.nightly/lock'"

# The scratch folders of runs killed before their end (kill -9, a reboot:
# no EXIT trap ran) are removed: only folders named as this script names
# them, run.PID.XXXXXX, whose process PID is gone (and, under the lock
# just taken, no run of this DIR is alive).  Folders of the older name
# run.XXXXXX, which tell no process, are a dead run's too under the lock.
for old in "$out/.nightly"/run.*; do
	[ -d "$old" ] || continue
	pid=${old##*/run.}
	case $pid in
	[0-9]*.??????) pid=${pid%%.*} ;;
	??????) pid= ;;
	*) continue ;;
	esac
	case $pid in *[!0-9]*) continue ;; esac
	if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then
		rm -rf "$old" && say "removed '$old', left by a run that did not end"
	fi
done

start=$(date +%s.%N)
work=$(mktemp -d "$out/.nightly/run.$$.XXXXXX") || die "cannot create a scratch folder in '$out/.nightly'"
trap 'rm -rf "$work"' EXIT
# What the commands say on standard error is kept in memory ($err), not in
# a file: the scratch folder is under --out, and on a full disk a file
# there held nothing ("export files failed: ", with no reason).  Their
# standard output goes where the script's does (descriptor 3).
exec 3>&1
err=

# reason: the first error line of $err without its "maintevo: error: ",
# else its last line, else the exit status $1
reason() {
	local why
	why=$(grep -m1 -E '^(maintevo: )?error: |^fatal: ' <<<"$err" || true)
	[ -n "$why" ] || why=$(grep -v '^$' <<<"$err" | tail -n 1 || true)
	why=${why#maintevo: }
	why=${why#error: }
	printf '%s' "${why:-exit status $1, and nothing on standard error}"
}

# run STEP CMD...: run a step; on failure die with its first error line.
# What it says on standard error goes on, indented; with --quiet only walk's
# notes do (a blob missing from the clone, a tag that moved, a release
# without sections: what a cron job must not hide), as warnings, without
# its summary line.
run() {
	local step=$1 status=0
	shift
	err=$("$@" 2>&1 >&3 3>&-) || status=$?
	[ "$status" -eq 0 ] || die "$step failed: $(reason "$status")"
	if [ -z "$quiet" ]; then
		grep -v '^$' <<<"$err" | sed "s/^/  /" >&2 || true
	elif [ "$step" = walk ]; then
		grep -v -e '^$' -e '^maintevo: [0-9]* releases\{0,1\} walked, ' \
			-e '^maintevo: [0-9]* releases\{0,1\} verified ' <<<"$err" |
			sed "s/^maintevo: /$me: warning: walk: /" >&2 || true
	fi
}

# 1. new tags
if [ -n "$fetch" ] && [ -n "$(git -C "$repo" remote)" ]; then
	if err=$(GIT_TERMINAL_PROMPT=0 timeout 600 git -C "$repo" fetch --quiet --tags 2>&1 >&3 3>&-); then
		say "fetched tags"
		# the branch too, when it follows a remote's (origin/master, or a mirror's master)
		if [ -n "$branch" ]; then
			err=$(GIT_TERMINAL_PROMPT=0 timeout 600 git -C "$repo" fetch --quiet 2>&1 >&3 3>&-) ||
				echo "$me: warning: 'git fetch' failed (${err%%$'\n'*}); going on with '$branch' as it is" >&2
		fi
	else
		echo "$me: warning: 'git fetch --tags' failed (${err%%$'\n'*}); going on with the tags at hand" >&2
	fi
fi

# 2. nothing new at all: the repository's refs, the day (a new period may
# have begun), the options, this maintevo and the store's file are as the
# last complete run left them; then no maintevo command needs to run
inputs() {
	"$mev" --version
	cksum <"$mev"
	printf '%s\n' "$method" "$title" "$branch" "$every" "$since" "$(date -u +%F)"
	git -C "$repo" for-each-ref --format='%(objectname) %(refname)' refs/tags refs/heads refs/remotes
	stat -c '%s %.9Y %i' "$store/data.mdb" 2>/dev/null || echo "no store"
}
early=$(inputs | cksum | cut -d' ' -f1)
if [ -f "$out/.nightly/inputs" ] && [ "$(cat "$out/.nightly/inputs")" = "$early" ] &&
	latest=$(readlink "$out/latest" 2>/dev/null) && [ -d "$out/$latest" ]; then
	secs=$(echo "$(date +%s.%N) $start" | awk '{printf "%.1f", $1 - $2}')
	say "${latest}: nothing new since the last run (the same refs, day and store), nothing written, in $secs s"
	[ -n "$quiet" ] || echo "report: $out/latest/report.html"
	exit 0
fi
rm -f "$out/.nightly/inputs"

# 3. walk, cluster, track
method_args=()
[ -z "$method" ] || method_args=(--method "$method")
walk_args=()
[ -z "$branch" ] || walk_args+=(--branch "$branch")
[ -z "$every" ] || walk_args+=(--every "$every")
[ -z "$since" ] || walk_args+=(--since "$since")
[ -z "$branch" ] || [ -e "$store" ] || walk_args+=(--tags-too)
run walk "$mev" walk --repo "$repo" --store "$store" "${walk_args[@]}"
run cluster "$mev" cluster --store "$store" "${method_args[@]}" -q
run track "$mev" track --store "$store" "${method_args[@]}" -q
run flow "$mev" flow --repo "$repo" --store "$store" -q

# 4. the two newest releases
status=0
err=$("$mev" releases --store "$store" 2>&1 >"$work/releases.csv") || status=$?
[ "$status" -eq 0 ] || die "cannot list the releases: $(reason "$status")"
newest=$(tail -n +2 "$work/releases.csv" | tail -n 1 | cut -d, -f1)
previous=$(tail -n +2 "$work/releases.csv" | tail -n 2 | head -n 1 | cut -d, -f1)
[ -n "$newest" ] || die "the store holds no release: does '$repo' have release tags?"
case $newest in .* | "") die "unexpected release name '$newest'" ;; esac
# the folder of the newest release: a snapshot of origin/master is origin_master@DAY
folder=${newest//\//_}

# nothing new: the store says what it said to the last complete run, and
# that run's outputs are in place
stamp=$( { "$mev" --version; cksum <"$mev"; printf '%s\n' "$method" "$title" "$folder"; cat "$work/releases.csv"; } |
	cksum | cut -d' ' -f1)
if [ -f "$out/.nightly/stamp" ] && [ "$(cat "$out/.nightly/stamp")" = "$stamp" ] &&
	[ "$(readlink "$out/latest" 2>/dev/null || true)" = "$folder" ] && [ -d "$out/$folder" ]; then
	secs=$(echo "$(date +%s.%N) $start" | awk '{printf "%.1f", $1 - $2}')
	say "$newest: nothing new since the last run, nothing written, in $secs s"
	[ -n "$quiet" ] || echo "report: $out/latest/report.html"
	inputs | cksum | cut -d' ' -f1 >"$out/.nightly/inputs" || true
	exit 0
fi
rm -f "$out/.nightly/stamp"

# 5. everything into a scratch folder, then moved in place where it changed
stage=$work/$folder
mkdir -p "$stage/csv"
for t in releases sections edges clusters events lineages section_changes; do
	run "export $t" "$mev" export "$t" --store "$store" "${method_args[@]}" -o "$stage/csv/$t.csv"
done
run "export files" "$mev" export files --store "$store" --release "$newest" "${method_args[@]}" \
	-o "$stage/csv/files.csv"
if [ "$previous" != "$newest" ]; then
	# the patch flow: every release's aggregates, the newest release's commits and people
	run "export flow" "$mev" export flow --store "$store" "${method_args[@]}" -o "$stage/csv/flow.csv"
	# who is listed against who does the work, release by release (docs/people.md)
	for t in listed candidates; do
		run "export $t" "$mev" export "$t" --store "$store" --repo "$repo" "${method_args[@]}" \
			-o "$stage/csv/$t.csv"
	done
	for t in commits people; do
		run "export $t" "$mev" export "$t" --store "$store" --release "$newest" "${method_args[@]}" \
			-o "$stage/csv/$t.csv"
	done
fi
run "export graph" "$mev" export graph --store "$store" --release "$newest" "${method_args[@]}" \
	-o "$stage/graph.graphml"
run "export graph --meta" "$mev" export graph --meta --store "$store" --release "$newest" \
	"${method_args[@]}" -o "$stage/clusters.graphml"
title_args=()
[ -z "$title" ] || title_args=(--title "$title")
if [ "$previous" != "$newest" ]; then
	for f in md html; do
		run "report ($f)" "$mev" report --store "$store" --from "$previous" --to "$newest" \
			--format "$f" "${method_args[@]}" "${title_args[@]}" -o "$stage/report.$f"
	done
	# the whole history in one picture, the pair of the report shaded
	run "chart" "$mev" chart --store "$store" --mark "$previous..$newest" "${method_args[@]}" \
		-o "$stage/chart.html"
	run "export flows" "$mev" export flows --store "$store" "${method_args[@]}" -o "$stage/csv/flows.csv"
fi

dest=$out/$folder
changed=0 same=0
while IFS= read -r -d '' f; do
	rel=${f#"$stage"/}
	if cmp -s "$f" "$dest/$rel"; then
		same=$((same + 1))
	else
		mkdir -p "$(dirname "$dest/$rel")"
		mv -f "$f" "$dest/$rel.new" && mv -f "$dest/$rel.new" "$dest/$rel" ||
			die "cannot write '$dest/$rel'"
		changed=$((changed + 1))
	fi
done < <(find "$stage" -type f -print0 | sort -z)

# 6. the latest link, replaced atomically when it points elsewhere
moved=
if [ "$(readlink "$out/latest" 2>/dev/null || true)" != "$folder" ]; then
	ln -sfn "$folder" "$out/.latest.new" && mv -fT "$out/.latest.new" "$out/latest" ||
		die "cannot update the link '$out/latest'"
	moved="; latest -> $folder"
fi
echo "$stamp" >"$out/.nightly/stamp.new" && mv -f "$out/.nightly/stamp.new" "$out/.nightly/stamp" ||
	die "cannot write '$out/.nightly/stamp'"
# the inputs as this run leaves them (the store as written by its walk, cluster, track, flow)
inputs | cksum | cut -d' ' -f1 >"$out/.nightly/inputs.new" && mv -f "$out/.nightly/inputs.new" "$out/.nightly/inputs" ||
	die "cannot write '$out/.nightly/inputs'"

# files counted as find found them: written + unchanged = every file of the run
secs=$(echo "$(date +%s.%N) $start" | awk '{printf "%.1f", $1 - $2}')
plural() { [ "$1" -eq 1 ] && echo "$1 $2" || echo "$1 ${2}s"; }
say "$newest: $(plural "$changed" file) written, $same unchanged$moved, in $secs s"
if [ -z "$quiet" ]; then
	echo "report: $out/latest/report.html"
	[ ! -f "$out/latest/chart.html" ] || echo "chart:  $out/latest/chart.html"
	echo "tables: $out/latest/csv/"
fi
