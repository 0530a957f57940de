#!/usr/bin/env bash
# Configures (once) and builds Rigsmith in Release into build/.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${RIGSMITH_BUILD_DIR:-build}"
JOBS="${RIGSMITH_JOBS:-$(nproc)}"
if [ ! -f "$BUILD_DIR/CMakeCache.txt" ]; then
  cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
fi
cmake --build "$BUILD_DIR" -j"$JOBS"
