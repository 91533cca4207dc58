#!/usr/bin/env bash
# test.sh [--real DIR]: install the dependencies, build maintevo in ./build and
# run the whole test suite (unit tests and command-line end-to-end tests).
# The checks on real projects' histories run only with --real DIR (or
# MEV_REAL_DIR=DIR), DIR the folder of real data (docs/testing.md, "Real
# data"); without it they are skipped, so the suite is the same everywhere.
set -euo pipefail
usage() { echo "usage: scripts/test.sh [--real DIR]"; }
case ${1:-} in
"") ;;
--real)
	[ $# -eq 2 ] && [ -d "$2" ] || { usage >&2; echo "test.sh: --real needs a folder" >&2; exit 2; }
	MEV_REAL_DIR=$(cd "$2" && pwd)
	export MEV_REAL_DIR ;;
-h | --help) sed -n '2,6p' "$0" | sed 's/^# //'; exit 0 ;;
*) usage >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)"
cd build
ctest --output-on-failure -j "$(nproc)"
