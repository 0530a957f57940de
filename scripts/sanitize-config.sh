#!/usr/bin/env bash
# Configures the sanitizer tree once (build-sanitize, or
# $RIGSMITH_SANITIZE_BUILD_DIR) and prints its path: the engine, the core tests,
# the importer and the fuzz targets, compiled by clang with AddressSanitizer and
# UBSan at -O2 (CMakeLists.txt, RIGSMITH_SANITIZE; tests/fuzz adds libFuzzer's
# coverage to the readers). scripts/sanitize.sh and scripts/fuzz.sh share it.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${RIGSMITH_SANITIZE_BUILD_DIR:-build-sanitize}"
if [ ! -f "$BUILD_DIR/CMakeCache.txt" ]; then
  cmake -S . -B "$BUILD_DIR" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-DNDEBUG" -DRIGSMITH_SANITIZE=ON -DRIGSMITH_BUILD_FUZZ=ON \
    -DRIGSMITH_BUILD_UI=OFF -DRIGSMITH_BUILD_TESTS=ON -DRIGSMITH_BUILD_BENCH=OFF >/dev/null
fi
echo "$BUILD_DIR"
