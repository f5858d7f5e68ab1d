#!/usr/bin/env bash
# Installs what is missing, builds everything with warnings as errors and runs the whole
# test suite with ctest. With --sanitize, builds in build-asan with AddressSanitizer and
# UndefinedBehaviorSanitizer instead.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test
build=build
flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DACMESIM_WERROR=ON)
if [ "${1:-}" = "--sanitize" ]; then
  build=build-asan
  flags=(-DCMAKE_BUILD_TYPE=Debug -DACMESIM_WERROR=ON -DACMESIM_SANITIZE=ON)
fi
cmake -S . -B "$build" "${flags[@]}" >/dev/null
cmake --build "$build" -j"$(nproc)"
cd "$build"
ctest --output-on-failure -j"$(nproc)"
