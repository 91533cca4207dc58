#!/bin/sh
# Build the libFuzzer targets and fuzz the MAINTAINERS parser and matcher.
#
#   scripts/dev/fuzz.sh [SECONDS] [libFuzzer options...]
#
# SECONDS (default 600) is the total fuzzing time.  The working corpus lives
# outside the repository ($MEV_FUZZ_CORPUS, default /tmp/mev-fuzz-corpus) and
# is seeded from tests/fuzz/corpus; crashes, leaks, timeouts and index/brute
# mismatches are written to $MEV_FUZZ_ARTIFACTS (default /tmp/mev-fuzz-artifacts).
# Minimise one with:
#   build-fuzz/tests/fuzz/fuzz_parser -minimize_crash=1 -runs=100000 ARTIFACT
# and add the result to tests/fuzz/corpus/ once the bug is fixed.
set -eu

case ${1:-} in -h | --help) echo "usage: scripts/dev/fuzz.sh [SECONDS] [libFuzzer options...]"; exit 0 ;; esac
seconds=${1:-600}
[ $# -gt 0 ] && shift
case $seconds in
	''|*[!0-9]*)
		echo "fuzz.sh: error: '$seconds' is not a number of seconds" >&2
		echo "usage: scripts/dev/fuzz.sh [SECONDS] [libFuzzer options...]" >&2
		exit 2 ;;
esac

root=$(cd "$(dirname "$0")/../.." && pwd)
build=$root/build-fuzz
corpus=${MEV_FUZZ_CORPUS:-/tmp/mev-fuzz-corpus}
artifacts=${MEV_FUZZ_ARTIFACTS:-/tmp/mev-fuzz-artifacts}

CC=${CC:-clang} cmake -S "$root" -B "$build" -DMEV_FUZZ=ON \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" --target fuzz_parser -j"$(nproc 2>/dev/null || echo 2)"

mkdir -p "$corpus" "$artifacts"
cp -n "$root"/tests/fuzz/corpus/* "$corpus"/ 2>/dev/null || true

# One worker (the machine is shared); -timeout catches regex blow-ups.  Run
# from the artifacts directory: with -jobs=N libFuzzer writes fuzz-N.log there.
cd "$artifacts"
exec "$build/tests/fuzz/fuzz_parser" \
	-max_total_time="$seconds" -max_len=65536 -timeout=10 \
	-dict="$root/tests/fuzz/fuzz_parser.dict" \
	-artifact_prefix="$artifacts/" -print_final_stats=1 \
	"$@" "$corpus"
