#!/usr/bin/env bash
# Installs what is missing, builds everything with warnings as errors and runs the whole
# test suite with ctest. With --sanitize, builds in build-asan with AddressSanitizer and
# UndefinedBehaviorSanitizer instead, at -O1 (what the sanitizers' authors advise: unoptimised
# code made the golden runs 40 times slower than the plain build, and CI twice as long).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test
build=build
flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DACMESIM_WERROR=ON)
if [ "${1:-}" = "--sanitize" ]; then
  build=build-asan
  flags=(-DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-g -O1" -DACMESIM_WERROR=ON -DACMESIM_SANITIZE=ON)
fi
cmake -S . -B "$build" "${flags[@]}" >/dev/null
cmake --build "$build" -j"$(nproc)"
cd "$build"
ctest --output-on-failure -j"$(nproc)"
