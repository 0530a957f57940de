#!/usr/bin/env bash
# The sanitizer ring: the core tests built with clang, AddressSanitizer and
# UndefinedBehaviorSanitizer (scripts/sanitize_build.sh, build-sanitize or
# $RIGSMITH_SANITIZE_BUILD_DIR), run there, then every fuzz corpus (seeds and
# crashers) replayed once through the fuzz targets of the same build. Any
# report fails the ring. scripts/test runs it in every run; the core tests run
# only here (not in the gcc build as well), so each is compiled and run once.
#   scripts/sanitize.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${RIGSMITH_SANITIZE_BUILD_DIR:-build-sanitize}"
JOBS="${RIGSMITH_JOBS:-$(nproc)}"
scripts/sanitize_build.sh
# Leaks are reported too; a UBSan finding stops the test (-fno-sanitize-recover).
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:${ASAN_OPTIONS:-}" \
  UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
ctest --test-dir "$BUILD_DIR" -L core -j"$JOBS" --output-on-failure

# The fuzz corpora, once each (-runs=0: replay only). import_fuzz starts the
# importer of the gcc build (as the application would); the sanitized one ran
# in the core tests above.
export RIGSMITH_IMPORTER="${RIGSMITH_IMPORTER:-$PWD/${RIGSMITH_BUILD_DIR:-build}/app/rigsmith-import}"
[ -x "$RIGSMITH_IMPORTER" ] || export RIGSMITH_IMPORTER="$PWD/$BUILD_DIR/app/rigsmith-import"
for target in bvh_fuzz project_fuzz rig_files_fuzz retarget_fuzz import_fuzz; do
  name="${target%_fuzz}"
  dirs=("tests/fuzz/corpus/$name")
  [ -d "tests/fuzz/crashers/$name" ] && dirs+=("tests/fuzz/crashers/$name")
  log="$BUILD_DIR/$name-corpus.log"
  "$BUILD_DIR/tests/fuzz/$target" -runs=0 -timeout=30 -rss_limit_mb=4096 "${dirs[@]}" >"$log" 2>&1 ||
    { tail -40 "$log"; echo "sanitize: $target corpus failed"; exit 1; }
  echo "sanitize: $target corpus replayed clean ($(ls "${dirs[@]}" | wc -l) inputs)"
done
echo "sanitize: clean"
