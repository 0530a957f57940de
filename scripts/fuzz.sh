#!/usr/bin/env bash
# Fuzzes Rigsmith's readers with libFuzzer for a bounded time, then replays the
# corpus of crashers found so far as regression inputs:
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]   (default 20; all targets;
#                                                        0: build and replay the crashers only)
# Targets (tests/fuzz): bvh_fuzz (BVH reader), project_fuzz (project reader),
# rig_files_fuzz (rig and weights readers), retarget_fuzz (a BVH clip onto the
# default rig), import_fuzz (PLY/OBJ/glTF/.X through the importer process, end
# to end: the parent must survive and report).
# Builds tests/fuzz in the sanitizer tree (scripts/sanitize-config.sh: clang,
# AddressSanitizer, UBSan and coverage over the whole engine, in
# build-sanitize or $RIGSMITH_SANITIZE_BUILD_DIR), starts from the seed corpus
# in tests/fuzz/corpus/TARGET (left untouched: new inputs go to
# BUILD_DIR/fuzz-corpus/TARGET) and exits non-zero on a finding, whose input is
# saved under BUILD_DIR/fuzz-artifacts/. import_fuzz needs the importer of a
# normal build ($RIGSMITH_IMPORTER, default build/app/rigsmith-import).
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${1:-20}"
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(bvh_fuzz project_fuzz rig_files_fuzz retarget_fuzz import_fuzz)
JOBS="${RIGSMITH_JOBS:-$(nproc)}"
export RIGSMITH_IMPORTER="${RIGSMITH_IMPORTER:-$PWD/${RIGSMITH_BUILD_DIR:-build}/app/rigsmith-import}"

BUILD_DIR="$(scripts/sanitize-config.sh)"
cmake --build "$BUILD_DIR" --target "${TARGETS[@]}" -j"$JOBS"

ARTIFACTS="$BUILD_DIR/fuzz-artifacts"
mkdir -p "$ARTIFACTS"
for target in "${TARGETS[@]}"; do
  name="${target%_fuzz}"
  seeds="tests/fuzz/corpus/$name"
  corpus="$BUILD_DIR/fuzz-corpus/$name"
  mkdir -p "$corpus"
  extra=()
  dict="$name"; [ "$name" = retarget ] && dict=bvh
  [ -f "tests/fuzz/$dict.dict" ] && extra+=(-dict="tests/fuzz/$dict.dict")
  max_len=16384
  [ "$name" = import ] && max_len=65536
  if [ "$name" = import ] && [ ! -x "$RIGSMITH_IMPORTER" ]; then
    echo "import_fuzz: $RIGSMITH_IMPORTER is missing: build Rigsmith first (scripts/build.sh)"; exit 1
  fi
  # The crashers found so far: each must now be handled (refused or read), never crash.
  crashers="tests/fuzz/crashers/$name"
  if [ -d "$crashers" ] && [ -n "$(ls -A "$crashers")" ]; then
    echo "== $target: replaying $(ls "$crashers" | wc -l) crashers =="
    "$BUILD_DIR/tests/fuzz/$target" "$crashers"/* -timeout=30 -rss_limit_mb=4096 >"$ARTIFACTS/$name-replay.log" 2>&1 ||
      { tail -30 "$ARTIFACTS/$name-replay.log"; echo "$target: a crasher crashes again"; exit 1; }
  fi
  [ "$DURATION" -gt 0 ] || continue # 0: build and replay the crashers only
  echo "== fuzzing $target for ${DURATION} s =="
  "$BUILD_DIR/tests/fuzz/$target" "$corpus" "$seeds" "${extra[@]}" -max_total_time="$DURATION" \
    -max_len="$max_len" -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$ARTIFACTS/$name-" \
    >"$ARTIFACTS/$name.log" 2>&1 || { tail -40 "$ARTIFACTS/$name.log"; echo "$target: finding (see $ARTIFACTS)"; exit 1; }
  grep -E "stat::number_of_executed_units" "$ARTIFACTS/$name.log" | sed "s/^/$target: /" || true
done
echo "fuzz: no finding in ${#TARGETS[@]} targets, ${DURATION} s each"
