# The bash completion (scripts/bash-completion/maintevo): sourced in bash,
# it completes commands, options, option values, export tables and the
# release tags of --store (COMPREPLY checked); 'cmake --install' puts it
# where bash-completion finds it.
. "$(dirname "$0")/lib.sh" "$@"
COMPLETION=$SRC/scripts/bash-completion/maintevo
bash -n "$COMPLETION" || fail "the completion script is not valid bash"

demo_store S
expect_exit 0 "$MEV" releases --store S --names
expect_stdout <<'TAGS'
v1.0
v1.1
v1.2
v1.3
v1.4
v1.5
v1.6
v1.7
TAGS
expect_exit 1 "$MEV" releases --store nostore --names

# comp WANT WORD...: completing the last WORD of "maintevo WORD..." offers
# exactly WANT (words sorted, separated by one space).
comp() {
	local want=$1 got
	shift
	got=$(bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _maintevo
		printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " " | sed "s/ $//"' \
		comp "$COMPLETION" "$MEV" "$@") || fail "completing '$*' failed"
	[ "$got" = "$want" ] || fail "completing '$*': got '$got', expected '$want'"
}

step "commands"
comp "cluster clusters" cl
comp "explain export" ex
comp "--help --version" --
step "options, read from 'maintevo help CMD'"
comp "--release" export --rel
comp "--method" cluster --meth
comp "--stats --store" graph --st
step "release tags of --store (and of ./maintevo.store by default)"
comp "v1.0 v1.1 v1.2 v1.3 v1.4 v1.5 v1.6 v1.7" export sections --store S --release ""
comp "v1.6" report --store S --from v1.5 --to v1.6
comp "v1.3" clusters --store=S --release v1.3
comp "" export --release v1.
mv S maintevo.store
comp "v1.6" events --release v1.6
step "option values and operands"
comp "csv dot graphml json jsonl sqlite" export --format ""
comp "sqlite" export --format=sq
comp "html md" report -f ""
comp "html svg" chart --format ""
comp "files lines sections" chart --measure ""
comp "date index" chart --x ""
comp "auto coreboot dpdk edk2 linux optee qemu uboot xen zephyr" walk --dialect ""
comp "all candidates clusters commits edges events files flow flows graph health lineages listed listed_sections people releases section_changes sections workload" export ""
comp "" export sections ""
comp "check info repair" store ""
comp "v1.3 v1.3-rc1" graph --repo demo --rev v1.3
comp "" walk -j ""
mkdir -p stores/a stores/b
comp "stores" walk --store stor

step "installed by cmake --install"
build=$(dirname "$MEV")
[ -f "$build/CMakeCache.txt" ] || skip "'$MEV' is not in a CMake build folder"
cmake --install "$build" --prefix "$TMP/inst" >/dev/null || fail "cmake --install failed"
cmp -s "$COMPLETION" "$TMP/inst/share/bash-completion/completions/maintevo" ||
	fail "the completion is not in share/bash-completion/completions/maintevo"
echo "PASS"
