# The file -> sections map of real releases against each project's own
# Python script (scripts/eval/check-getmaintainer.sh): OP-TEE, edk2 and Zephyr,
# several releases each over their history.  The data is not part of the
# repository: it is read from $MEV_REAL_DIR (docs/testing.md), one
# bare clone per project (OP-TEE+optee_os/repo, tianocore+edk2/repo,
# ekmixon+zephyr/repo); a project that is absent is skipped, and the test
# is skipped when all are.  Zephyr's script needs python3-yaml.
. "$(dirname "$0")/lib.sh" "$@"
command -v python3 >/dev/null || skip "python3 is not installed"
need_real_dir
real=$MEV_REAL_DIR
checked=0
check() { # DIR TAG...
	local repo=$real/$1/repo
	shift
	if [ ! -d "$repo" ]; then
		echo "# $repo: absent, skipped"
		return 0
	fi
	for tag in "$@"; do
		git --git-dir="$repo" rev-parse -q --verify "$tag^{commit}" >/dev/null ||
			fail "$repo has no tag $tag"
		step "$tag"
		MAINTEVO=$MEV "$SRC/scripts/eval/check-getmaintainer.sh" -j 2 "$repo" "$tag" >check.out 2>check.err ||
			{ cat check.out check.err >&2; fail "$tag: maintevo and the script differ"; }
		tail -n 1 check.out
		checked=$((checked + 1))
	done
}
check OP-TEE+optee_os 3.7.0 3.14.0 4.0.0 4.10.0
check tianocore+edk2 edk2-stable201908 edk2-stable202105 edk2-stable202108 edk2-stable202311 edk2-stable202605
python3 -c 'import yaml' 2>/dev/null || { echo "# python3-yaml missing: Zephyr skipped"; checked_z=skip; }
[ "${checked_z:-}" = skip ] || check ekmixon+zephyr v2.4.0 v2.5.0 v2.6.0
[ "$checked" -gt 0 ] || skip "no real data under $real"
echo "PASS"
