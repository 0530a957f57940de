#!/usr/bin/env bash
# The sanitizer ring: the core tests and the importer built with clang,
# AddressSanitizer and UndefinedBehaviorSanitizer in the sanitizer tree
# (scripts/sanitize-config.sh), the core tests run there, then every fuzz
# corpus (seeds and crashers) replayed through the fuzz targets of the same
# tree. Any report fails the ring.
#   scripts/sanitize.sh            (scripts/test runs it)
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS="${RIGSMITH_JOBS:-$(nproc)}"
BUILD_DIR="$(scripts/sanitize-config.sh)"
cmake --build "$BUILD_DIR" --target core_tests rigsmith-import -j"$JOBS"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan-assimp.supp:print_suppressions=0"
ctest --test-dir "$BUILD_DIR" -L core -j"$JOBS" --output-on-failure

# The fuzz corpora, seeds and crashers, once each (-runs=0: replay only), through
# the sanitized importer.
TARGETS=(bvh_fuzz project_fuzz rig_files_fuzz retarget_fuzz import_fuzz)
cmake --build "$BUILD_DIR" --target "${TARGETS[@]}" -j"$JOBS"
export RIGSMITH_IMPORTER="$PWD/$BUILD_DIR/app/rigsmith-import"
for target in "${TARGETS[@]}"; do
  name="${target%_fuzz}"
  dirs=("tests/fuzz/corpus/$name")
  [ -d "tests/fuzz/crashers/$name" ] && dirs+=("tests/fuzz/crashers/$name")
  "$BUILD_DIR/tests/fuzz/$target" -runs=0 "${dirs[@]}" >/dev/null 2>&1 ||
    { "$BUILD_DIR/tests/fuzz/$target" -runs=0 "${dirs[@]}" 2>&1 | tail -40; echo "sanitize: $target corpus failed"; exit 1; }
  echo "sanitize: $target corpus replayed clean"
done
echo "sanitize: clean"
