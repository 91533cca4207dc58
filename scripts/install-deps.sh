#!/usr/bin/env bash
# install-deps.sh [--fuzz]: install the Debian/Ubuntu packages needed to build
# and test maintevo; with --fuzz also clang for the libFuzzer targets (CI).
# Does nothing when every package is already installed.
set -euo pipefail

build=(cmake gcc make pkg-config git libgit2-dev liblmdb-dev libzstd-dev
	libigraph-dev libpcre2-dev libsqlite3-dev libyaml-dev)
# sqlite3 and pandas for the SQLite export's tests and the user guide's
# snippets (about 2 minutes to install; R's packages, 500 MB, are left out:
# those tests skip without them); chromium for the lineage chart's tests in a
# real browser (tests/browser/)
test=(python3 python3-yaml perl lmdb-utils sqlite3 python3-pandas python3-matplotlib python3-networkx python3-plotly chromium)
fuzz=(clang libclang-rt-14-dev)

want=("${build[@]}" "${test[@]}")
case "${1:-}" in
--fuzz) want+=("${fuzz[@]}") ;;
"") ;;
-h | --help) echo "usage: scripts/install-deps.sh [--fuzz]"; exit 0 ;;
*) echo "usage: scripts/install-deps.sh [--fuzz]" >&2; exit 2 ;;
esac

missing=()
for p in "${want[@]}"; do
	dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null; then
	echo "install-deps.sh: error: missing packages: ${missing[*]}" >&2
	echo "hint: this script knows Debian and Ubuntu only; install them by hand" >&2
	exit 1
fi
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
echo "install-deps.sh: installing ${missing[*]}" >&2
$sudo apt-get update
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
