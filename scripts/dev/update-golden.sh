#!/usr/bin/env bash
# update-golden.sh [MAINTEVO]: write the reports of the demo history anew
# into tests/golden/ (the files tests/cli/test_golden.sh compares with), by
# running that test in its writing mode with MAINTEVO (default:
# build/maintevo).  Review the change with 'git diff tests/golden' before
# committing it: every difference is a change in what users get.
set -euo pipefail
case ${1:-} in -h | --help) echo "usage: scripts/dev/update-golden.sh [MAINTEVO]"; exit 0 ;; esac
cd "$(dirname "$0")/../.."
mev=${1:-build/maintevo}
[ -x "$mev" ] || { echo "update-golden.sh: error: '$mev' is not an executable (build first)" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/maintevo-golden.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
MEV_UPDATE_GOLDEN=$tmp/golden bash tests/cli/test_golden.sh "$mev" .
mkdir -p tests/golden
rm -f tests/golden/*.md tests/golden/*.html
cp "$tmp"/golden/* tests/golden/
git status --short -- tests/golden || true
