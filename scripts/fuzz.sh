#!/usr/bin/env bash
# Fuzzes the BVH reader with libFuzzer for a bounded time:
#   scripts/fuzz.sh [SECONDS]        (default 60)
# Builds tests/fuzz with clang, AddressSanitizer and UBSan in its own build
# directory (build-fuzz, or $RIGSMITH_FUZZ_BUILD_DIR), starts from the seed
# corpus in tests/fuzz/corpus/bvh (left untouched: new inputs go to
# BUILD_DIR/fuzz-corpus/bvh) and exits non-zero on a finding, whose input is
# saved under BUILD_DIR/fuzz-artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${1:-60}"
BUILD_DIR="${RIGSMITH_FUZZ_BUILD_DIR:-build-fuzz}"
JOBS="${RIGSMITH_JOBS:-$(nproc)}"
CXX_COMPILER="${CXX:-clang++}"
case "$CXX_COMPILER" in *clang*) ;; *) CXX_COMPILER=clang++ ;; esac

cmake -S . -B "$BUILD_DIR" -DCMAKE_CXX_COMPILER="$CXX_COMPILER" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DRIGSMITH_BUILD_UI=OFF -DRIGSMITH_BUILD_TESTS=OFF -DRIGSMITH_BUILD_BENCH=OFF -DRIGSMITH_BUILD_FUZZ=ON
cmake --build "$BUILD_DIR" --target bvh_fuzz -j"$JOBS"

CORPUS="$BUILD_DIR/fuzz-corpus/bvh"
ARTIFACTS="$BUILD_DIR/fuzz-artifacts"
mkdir -p "$CORPUS" "$ARTIFACTS"
echo "== fuzzing the BVH reader for ${DURATION} s =="
"$BUILD_DIR/tests/fuzz/bvh_fuzz" "$CORPUS" tests/fuzz/corpus/bvh \
  -dict=tests/fuzz/bvh.dict -max_total_time="$DURATION" -max_len=16384 -timeout=20 \
  -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$ARTIFACTS/"
echo "bvh_fuzz: no finding in ${DURATION} s"
