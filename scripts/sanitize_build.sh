#!/usr/bin/env bash
# Configures (once) and builds the sanitizer build: clang, every file with
# AddressSanitizer, UndefinedBehaviorSanitizer and libFuzzer's coverage
# instrumentation, core only (no Qt). It holds the core tests and the importer
# (the sanitizer ring, scripts/sanitize.sh) and the libFuzzer targets
# (scripts/fuzz.sh): core is compiled once for both.
#   scripts/sanitize_build.sh [TARGET...]   (default: everything the two need)
# Build directory: $RIGSMITH_SANITIZE_BUILD_DIR, default build-sanitize.
# -O1 and line tables only (-gline-tables-only: file:line in every report) keep
# the compile cheap; see bench/README.md (issue 21) for the figures.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${RIGSMITH_SANITIZE_BUILD_DIR:-build-sanitize}"
JOBS="${RIGSMITH_JOBS:-$(nproc)}"
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] ||
  TARGETS=(core_tests rigsmith-import bvh_fuzz project_fuzz rig_files_fuzz retarget_fuzz import_fuzz)
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
if [ ! -f "$BUILD_DIR/CMakeCache.txt" ]; then
  cmake -S . -B "$BUILD_DIR" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="${RIGSMITH_SANITIZE_OPT:--O1} -gline-tables-only -DNDEBUG" \
    -DCMAKE_CXX_FLAGS="$SAN -fsanitize=fuzzer-no-link -fno-omit-frame-pointer" \
    -DCMAKE_EXE_LINKER_FLAGS="$SAN" \
    -DRIGSMITH_BUILD_UI=OFF -DRIGSMITH_BUILD_TESTS=ON -DRIGSMITH_BUILD_BENCH=OFF -DRIGSMITH_BUILD_FUZZ=ON >/dev/null
fi
cmake --build "$BUILD_DIR" --target "${TARGETS[@]}" -j"$JOBS"
