#!/usr/bin/env bash
# Installs what is missing, builds everything with warnings as errors and runs the whole
# test suite with ctest (CMakePresets.json: preset "plain", in build/). With --sanitize, preset
# "sanitize" instead: clang with AddressSanitizer and UndefinedBehaviorSanitizer at -O1, in
# build-asan, which also holds the fuzz harnesses (scripts/fuzz.sh runs them without building
# again). Unoptimised, the golden runs took 40 times as long as in the plain build; GCC at -Og ran
# them in a sixth of that (acme-eval-feedback: 71 s, against 446 s at -O0); clang at -O1 compiles
# as fast as GCC at -Og did.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=plain
deps=(--test)
if [ "${1:-}" = "--sanitize" ]; then
  preset=sanitize
  deps+=(--fuzz)
fi
scripts/install-deps.sh "${deps[@]}"
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j"$(nproc)"
ctest --preset "$preset" -j"$(nproc)"
