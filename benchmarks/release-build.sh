# Sourced by the benchmark scripts after `cd` to the repository: builds an optimised acmesim in
# BUILD_DIR (the caller's first argument unless it is an option; default build-bench) and sets
# `build` and ACMESIM. With ACMESIM already set, that binary is used and nothing is built. Also
# makes a scratch directory `out`, removed when the script ends. Sourced without arguments, so
# that the build directory is shifted off the caller's own.
build=build-bench
if [[ $# -gt 0 && "$1" != --* ]]; then
  build=$1
  shift
fi
if [[ -z "${ACMESIM:-}" ]]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DACMESIM_TESTS=OFF >/dev/null
  cmake --build "$build" --target acmesim -j"$(nproc)" >/dev/null
  ACMESIM="$PWD/$build/acmesim"
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Runs a command pinned to one core; its wall seconds and peak RSS in KB go to $out/time as
# "SECONDS KB" (the whole process, as /usr/bin/time measures it).
on_one_core() { taskset -c 0 /usr/bin/time -f "%e %M" -o "$out/time" "$@"; }
