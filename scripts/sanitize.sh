#!/usr/bin/env bash
# The sanitizer ring: builds the core library, its tests and the importer with
# clang, AddressSanitizer and UndefinedBehaviorSanitizer in build-sanitize (or
# $RIGSMITH_SANITIZE_BUILD_DIR), runs the core tests there, then replays every
# fuzz corpus (seeds and crashers) through the fuzz targets of build-fuzz (they
# are built with the same sanitizers). Any report fails the ring.
#   scripts/sanitize.sh            (scripts/test --sanitize runs it)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${RIGSMITH_SANITIZE_BUILD_DIR:-build-sanitize}"
JOBS="${RIGSMITH_JOBS:-$(nproc)}"
FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cmake -S . -B "$BUILD_DIR" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS="$FLAGS" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DRIGSMITH_BUILD_UI=OFF -DRIGSMITH_BUILD_TESTS=ON -DRIGSMITH_BUILD_BENCH=OFF >/dev/null
cmake --build "$BUILD_DIR" --target core_tests rigsmith-import -j"$JOBS"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
ctest --test-dir "$BUILD_DIR" -L core -j"$JOBS" --output-on-failure

# The fuzz corpora, once each (-runs=0: replay only).
export RIGSMITH_IMPORTER="$PWD/$BUILD_DIR/app/rigsmith-import"
scripts/fuzz.sh 0 # builds the targets and replays the crashers (no fuzzing)
FUZZ_DIR="${RIGSMITH_FUZZ_BUILD_DIR:-build-fuzz}"
for target in bvh_fuzz project_fuzz rig_files_fuzz retarget_fuzz import_fuzz; do
  name="${target%_fuzz}"
  dirs=("tests/fuzz/corpus/$name")
  [ -d "tests/fuzz/crashers/$name" ] && dirs+=("tests/fuzz/crashers/$name")
  "$FUZZ_DIR/tests/fuzz/$target" -runs=0 "${dirs[@]}" >/dev/null 2>&1 ||
    { "$FUZZ_DIR/tests/fuzz/$target" -runs=0 "${dirs[@]}" 2>&1 | tail -40; echo "sanitize: $target corpus failed"; exit 1; }
  echo "sanitize: $target corpus replayed clean"
done
echo "sanitize: clean"
