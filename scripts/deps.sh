#!/usr/bin/env bash
# Installs the Debian 12 packages Rigsmith needs to build, run and test, but only
# those that are missing (fast and silent when everything is present).
set -euo pipefail

PACKAGES=(
  build-essential cmake pkg-config git
  qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev qt6-qpa-plugins libgl-dev libgl1-mesa-dri
  libassimp-dev libeigen3-dev libglm-dev libtinygltf-dev nlohmann-json3-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  xvfb xauth assimp-testmodels
  clang libclang-rt-14-dev ccache
  nodejs
)

# The benchmark's reference scorer (numpy, scipy) where its data is laid beside
# the checkout: cli_evaluate_rignet_agreement compares evaluate with it there.
if [ -d "$(dirname "${BASH_SOURCE[0]}")/../../shared/rignet-val" ]; then
  PACKAGES+=(python3-numpy python3-scipy)
fi

# One dpkg-query for all of them (one per package cost 0.46 s before every
# `scripts/run`, issue 46); a package it does not know is simply not listed.
declare -A installed=()
while read -r name status; do
  [ "$status" = "install ok installed" ] && installed["$name"]=1
done < <(dpkg-query -W -f='${Package} ${Status}\n' "${PACKAGES[@]}" 2>/dev/null || true)
missing=()
for p in "${PACKAGES[@]}"; do
  [ -n "${installed[$p]:-}" ] || missing+=("$p")
done
if [ ${#missing[@]} -ne 0 ]; then
  echo "Installing missing packages: ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The independent glTF clients of the tests (three.js and the Khronos glTF validator under Node,
# pinned in tests/clients/package.json and package-lock.json): installed once, silent when present.
CLIENTS="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/tests/clients"
if [ ! -d "$CLIENTS/node_modules/three" ] || [ ! -d "$CLIENTS/node_modules/gltf-validator" ]; then
  if ! command -v npm >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    # Debian's nodejs comes without npm (NodeSource's includes it).
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends npm || true
  fi
  if command -v npm >/dev/null 2>&1; then
    echo "Installing the test clients' npm packages in $CLIENTS"
    (cd "$CLIENTS" && { npm ci --no-audit --no-fund --loglevel=error || npm install --no-audit --no-fund --loglevel=error; })
  else
    echo "WARNING: node/npm not found: the three.js and glTF validator client tests will be SKIPPED (install nodejs and npm)" >&2
  fi
fi
