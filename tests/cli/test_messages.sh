# Messages that mislead (issue 32, point 6), each the same everywhere:
#   - the writer's lock names the command holding it (flow among them);
#   - a reversed --from/--to range is refused by every command taking one,
#     in the same words (mev_release_range());
#   - a --tags glob that does not parse, or matches no tag, is an error and
#     no store is made;
#   - tags that do not point at a commit are named (the first few).
# (A full disk's one message with its hint: test_output_files.sh.)
. "$(dirname "$0")/lib.sh" "$@"

command -v flock >/dev/null || skip "flock(1) is not installed"

step "demo history, walked, tracked"
demo_store S
tags=$("$MEV" releases --store S | awk -F, 'NR > 1 { print $1 }' | tr '\n' ' ')
[ "$tags" = "v1.0 v1.1 v1.2 v1.3 v1.4 v1.5 v1.6 v1.7 " ] || fail "releases: $tags"

step "the writer's lock names its holder: flow, stopped half-way"
# a history of many commits, so that flow is caught while it runs
for i in $(seq 1 120); do
	echo "change $i" >>demo/README
	git -C demo commit -q -am "change $i"
done
git -C demo tag -a v1.8 -m v1.8
expect_exit 0 "$MEV" walk --repo demo --store S -q
# flow is stopped while it holds the lock.  It may end first (its record
# stays in walk.lock; a process reaped cannot be stopped, one stopped after
# its last write holds no lock): then it runs again on a copy of the store
# as it was before.
cp -r S S.noflow
flow=
trap 'if [ -n "$flow" ]; then kill -9 $flow 2>/dev/null || true; fi; rm -rf "$TMP"' EXIT
for _ in $(seq 1 20); do
	"$MEV" flow --repo demo --store S -q 2>flow.err &
	flow=$!
	# (its record is written once it holds the lock)
	until grep -qx "pid $flow" S/walk.lock 2>/dev/null; do
		kill -0 $flow 2>/dev/null || break
	done
	kill -STOP $flow 2>/dev/null || true
	# T once stopped; nothing (or Z) when it ended first
	while :; do
		state=$(awk '{ print $3 }' /proc/$flow/stat 2>/dev/null || true)
		case $state in R | S | D) ;; *) break ;; esac
	done
	[ "$state" = T ] && ! flock -n S/walk.lock true && break
	kill -CONT $flow 2>/dev/null || true
	wait $flow || fail "flow failed: $(cat flow.err)"
	flow=
	rm -rf S
	cp -r S.noflow S
done
[ -n "$flow" ] || fail "flow always ended before it could be stopped (20 tries)"
for c in cluster track; do
	expect_exit 1 "$MEV" $c --store S
	expect_error "another maintevo command, 'maintevo flow --repo demo --store S -q' (pid $flow), is writing to store 'S'"
	expect_stderr_contains "hint: run this again when it has finished (walk, cluster, track and flow wait with --wait SECONDS)"
done
expect_exit 1 "$MEV" walk --repo demo --store S --wait 0.1
expect_error "another maintevo command, 'maintevo flow --repo demo --store S -q' (pid $flow), still writes to store 'S' after 0.1 s"
kill -CONT $flow
wait $flow || fail "flow failed: $(cat flow.err)"
step "a lock held by something that left no record: the commands that write"
# (held until the file unlock appears, or this test ends: not for a time,
# which a loaded machine may spend before the command below runs)
flock S/walk.lock sh -c "while kill -0 $$ 2>/dev/null && [ ! -e unlock ]; do sleep 0.02; done" &
holder=$!
until ! flock -n S/walk.lock true; do
	kill -0 $holder 2>/dev/null || fail "flock(1) could not take the lock"
	sleep 0.01
done
: >S/walk.lock
expect_exit 1 "$MEV" track --store S
expect_error "another maintevo command (walk, import-pasta, cluster, track, flow or store repair) is writing to store 'S'"
touch unlock
wait $holder

step "a reversed range: refused by every command that takes --from and --to, the same way"
expect_exit 0 "$MEV" track --store S -q
while read -r cmd; do
	# shellcheck disable=SC2086 # the words of the command
	expect_exit 1 "$MEV" $cmd --store S --from v1.5 --to v1.2
	expect_error "maintevo: error: --from 'v1.5' comes after --to 'v1.2': the range is reversed"
	expect_stderr_contains "hint: releases are in version order, oldest first: see 'maintevo releases --store S'"
	[ ! -s "$OUT" ] || fail "$cmd: a reversed range wrote $(head -c 80 "$OUT")"
	# and in order, it goes
	# shellcheck disable=SC2086
	expect_exit 0 "$MEV" $cmd --store S --from v1.2 --to v1.5
done <<'EOF'
events
section-changes
export events
export section_changes
export flows
report
chart
EOF
# a range written A..B (chart --mark): the same refusal, in its own words
# (issue 38, point 6: it exited 0 and shaded nothing)
expect_exit 1 "$MEV" chart --store S --mark v1.5..v1.2 -o mark.html
expect_error "maintevo: error: --mark 'v1.5..v1.2': 'v1.5' comes after 'v1.2': the range is reversed"
expect_stderr_contains "hint: releases are in version order, oldest first: --mark v1.2..v1.5"
[ ! -e mark.html ] || fail "chart wrote a page for a reversed --mark"
expect_exit 0 "$MEV" chart --store S --mark v1.2..v1.5 -o mark.html
expect_exit 1 "$MEV" explain --store S --lineage 1 --from v1.5 --to v1.2
expect_error "--from 'v1.5' comes after --to 'v1.2': the range is reversed"
expect_exit 1 "$MEV" export all --store S --from v1.5 --to v1.2 -o all.db
expect_error "--from 'v1.5' comes after --to 'v1.2': the range is reversed"
[ ! -e all.db ] || fail "export all wrote a database"
expect_exit 1 "$MEV" export workload --store S --from v1.5 --to v1.2
expect_error "--from 'v1.5' comes after --to 'v1.2': the range is reversed"
expect_exit 1 "$MEV" report --store S --from v1.3 --to v1.3
expect_error "--from and --to name the same release 'v1.3': the range needs two"
# every command with --from and --to is in the list above
expect_exit 0 "$MEV" --help
for c in $(sed -n '/^commands:$/,/^$/s/^  \([a-z-]*\) .*/\1/p' "$OUT"); do
	# (not "$MEV" help | grep -q: grep leaves at the first match, and a
	# help longer than a pipe's write dies of SIGPIPE; under pipefail the
	# command was skipped)
	help=$("$MEV" help "$c") || fail "'maintevo help $c' failed"
	grep -q -- '--from' <<<"$help" || continue
	case " events section-changes export report chart explain " in
	*" $c "*) ;;
	*) fail "'$c' takes --from: add it to the reversed-range cases of test_messages.sh" ;;
	esac
done
# and every option written A..B is in the cases above
for c in $(sed -n '/^commands:$/,/^$/s/^  \([a-z-]*\) .*/\1/p' "$OUT"); do
	help=$("$MEV" help "$c") || fail "'maintevo help $c' failed"
	grep -qE -- '--[a-z-]+ [A-Z]+\.\.[A-Z]+' <<<"$help" || continue
	[ "$c" = chart ] || fail "'$c' takes a range A..B: add its reversed case to test_messages.sh"
done

step "--repo that does not hold the store's releases: every command taking --repo with --store says so"
# (issue 38, point 6: export workload said "object not found", flow and
# export listed the same, naming no repository)
mkrepo other
echo x >other/x
git -C other add x
git -C other commit -q -m x
v10=$(git -C demo rev-parse --short=12 'v1.0^{commit}')
cp -r S S.repo
while read -r cmd; do
	# shellcheck disable=SC2086 # the words of the command
	expect_exit 1 "$MEV" $cmd --store S.repo --repo other
	expect_error "maintevo: error: repository 'other' does not hold the releases of store 'S.repo': it has none of their commits (release v1.0 is commit $v10)"
	expect_stderr_contains "hint: pass the repository the store was walked from (--repo demo, as the store records it)"
done <<'EOF'
flow
export workload
export listed
export listed_sections
export candidates
EOF
expect_exit 1 "$MEV" walk --store S.repo --repo other
expect_error "store 'S.repo' holds the history of another repository ('demo'): 'other' has no commit $v10"
# a clone that lacks some of them (v1.7 and v1.8 deleted and collected): named, counted
git clone -q --no-local demo part
git -C part tag -d v1.7 v1.8 >/dev/null
git -C part reset -q --hard v1.6
git -C part remote remove origin
git -C part reflog expire --expire=now --all
git -C part gc -q --prune=now
v17=$(git -C demo rev-parse --short=12 'v1.7^{commit}')
git -C part cat-file -e "$v17" 2>/dev/null && fail "the clone still has v1.7's commit"
expect_exit 1 "$MEV" export workload --store S.repo --repo part
expect_error "repository 'part' lacks the commits of 2 of the 9 releases of store 'S.repo' (release v1.7 is commit $v17)"
expect_exit 0 "$MEV" export workload --store S.repo --repo demo
# every command whose help offers --repo is in one of the two lists
expect_exit 0 "$MEV" --help
for c in $(sed -n '/^commands:$/,/^$/s/^  \([a-z-]*\) .*/\1/p' "$OUT"); do
	help=$("$MEV" help "$c") || fail "'maintevo help $c' failed"
	grep -q -- '--repo' <<<"$help" || continue
	case " walk flow export " in *" $c "*) continue ;; esac
	# these read a release from git (--repo --rev) or from a store, never both
	case " filemap graph sections explain " in *" $c "*) continue ;; esac
	fail "'$c' takes --repo: add it to the cases of test_messages.sh"
done

step "a walk past the file size limit (ulimit -f): the limit named, with a hint"
# (issue 38, point 6: "cannot commit to the store: Input/output error";
# SIGXFSZ is ignored by maintevo itself, so the write fails with words)
status=0
msg=$( (ulimit -f 100; exec "$MEV" walk --repo demo --store big) 2>&1) || status=$?
[ "$status" -eq 1 ] || fail "walk past the size limit: exit $status, expected 1: $msg"
case $msg in *"cannot commit to the store: the data file of store 'big' reached the file size limit of this process (102 kB: 'ulimit -f' is 100)"*) ;;
*) fail "not the size limit's message: $msg" ;; esac
case $msg in *"hint: raise the limit ('ulimit -f unlimited'"*) ;; *) fail "no hint: $msg" ;; esac
expect_exit 0 "$MEV" walk --repo demo --store big -q

step "--tags that does not parse or matches nothing: an error, no store made"
expect_exit 1 "$MEV" walk --repo demo --store new --tags '['
expect_error "--tags '[' does not parse: a '[' is not closed by ']'"
[ ! -e new ] || fail "a store was made"
expect_exit 1 "$MEV" walk --repo demo --store new --tags 'v1.[0-9' --tags 'v*'
expect_error "--tags 'v1.[0-9' does not parse"
expect_exit 1 "$MEV" walk --repo demo --store new --tags 'v9.*'
expect_error "--tags 'v9.*' matches none of the "
expect_stderr_contains "no store was made"
[ ! -e new ] || fail "a store was made"
expect_exit 1 "$MEV" walk --repo demo --store new --exclude 'v1.[1'
expect_error "--exclude 'v1.[1' does not parse"
[ ! -e new ] || fail "a store was made"
# brackets that parse: ']' first in a set, a negated set, a class
expect_exit 0 "$MEV" walk --repo demo --store new --tags 'v1.[]0-3]' --tags 'v1.[!0-68]' --tags 'v1.[[:digit:]]' -q
[ "$("$MEV" releases --store new | wc -l)" -eq 10 ] || fail "the globs chose $("$MEV" releases --store new | wc -l) lines"

step "tags that do not point at a commit: named, the first few"
git clone -q demo odd
tree=$(git -C odd rev-parse 'HEAD^{tree}')
blob=$(git -C odd rev-parse HEAD:README)
git -C odd tag zz-tree "$tree"
git -C odd tag aa-blob "$blob"
git -C odd tag -a mm-tree -m tree "$tree"
git -C odd tag bb-tree "$tree"
expect_exit 0 "$MEV" walk --repo odd --store O
expect_stderr_contains "maintevo: 4 tags that do not point at a commit left out: aa-blob, bb-tree, mm-tree and 1 more"
git -C odd tag -d zz-tree mm-tree >/dev/null
expect_exit 0 "$MEV" walk --repo odd --store O2
expect_stderr_contains "maintevo: 2 tags that do not point at a commit left out: aa-blob and bb-tree"
echo "PASS"
