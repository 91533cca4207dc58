#!/usr/bin/env bash
# test.sh: install the dependencies, build maintevo in ./build and run the
# whole test suite (unit tests and command-line end-to-end tests).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)"
cd build
ctest --output-on-failure -j "$(nproc)"
