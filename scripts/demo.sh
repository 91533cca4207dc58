#!/usr/bin/env bash
# demo.sh: install the dependencies, build maintevo in ./build, generate the
# demo history in ./demo/repo (once) and run the main job on it: the overlap
# graph of the newest release (CSV and GraphML) and its file map, in
# ./demo/out/.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)" --target maintevo

if ! git -C demo/repo rev-parse --verify -q v1.7 >/dev/null 2>&1; then
	rm -rf demo/repo
	scripts/make-demo-repo.sh demo/repo
fi

# The newest release: the highest version tag that is not a release candidate.
rev=$(git -C demo/repo tag --list 'v*' --sort=-v:refname | grep -v -- -rc | head -n 1)
out=$root/demo/out
mkdir -p "$out"
mev=build/maintevo
$mev graph --repo demo/repo --rev "$rev" --out "$out/graph-$rev.csv"
$mev graph --repo demo/repo --rev "$rev" --format graphml --out "$out/graph-$rev.graphml"
$mev filemap --repo demo/repo --rev "$rev" --out "$out/filemap-$rev.csv"

cat <<MSG

maintevo demo: release $rev of the demo history in $root/demo/repo
  $out/graph-$rev.csv       section overlap graph (from,to,lines,bytes,files)
  $out/graph-$rev.graphml   the same graph for Gephi, igraph or networkx
  $out/filemap-$rev.csv     every file with the sections that cover it
MSG
