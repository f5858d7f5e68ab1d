#!/usr/bin/env bash
# Builds the libFuzzer harnesses of every input parser with clang, AddressSanitizer and
# UndefinedBehaviorSanitizer (preset "sanitize" of CMakePresets.json, in build-asan, which
# `scripts/test.sh --sanitize` has built already in CI), then runs each one: first over the saved inputs of
# tests/fuzz/corpus/<harness>/ (inputs that once crashed, kept as tests), then on new inputs grown
# from the seed files below.
#   scripts/fuzz.sh                    # 2,000 new inputs per harness (what CI runs)
#   scripts/fuzz.sh --runs 1000000     # a long run
#   scripts/fuzz.sh --runs 0 fuzz_plan # one harness; --runs 0 replays the saved inputs only
# A harness that finds a crash, a leak, undefined behaviour, a hang (> 10 s) or more than 2 GB of
# memory stops the script with exit 1 and leaves the input in build-asan/findings/; copy it to
# tests/fuzz/corpus/<harness>/ once fixed, so that it stays a test.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=2000
if [ "${1:-}" = "--runs" ]; then
  runs=$2
  shift 2
fi
scripts/install-deps.sh --fuzz
cmake --preset sanitize >/dev/null
cmake --build --preset sanitize --target fuzzers -j"$(nproc)"

# Seed inputs for each harness: the files of that kind the repository has.
seeds() {
  case $1 in
  fuzz_scenario | fuzz_override) ls scenarios/*.yaml configs/default-scenario.yaml tests/data/scenarios/*.yaml ;;
  fuzz_catalogue) ls configs/eval/*.yaml ;;
  fuzz_trace_acme) ls tests/data/traces/seren_small.csv tests/data/traces/kalos_small.csv ;;
  fuzz_trace_jobs) ls tests/data/traces/jobs.csv ;;
  fuzz_trace_swf) ls tests/data/traces/pwa_small.swf ;;
  fuzz_trace_philly) ls tests/data/traces/philly_small.json ;;
  fuzz_trace_helios) ls tests/data/traces/helios_small.csv ;;
  fuzz_trace_file) ls tests/data/traces/pwa_small.swf tests/data/traces/pwa_small.swf.gz ;;
  fuzz_run_job_waits) ls tests/fuzz/seeds/run-jobs.csv ;;
  fuzz_failure_list) ls tests/fuzz/seeds/failures.csv ;;
  fuzz_collectives) ls configs/collectives/*.csv ;;
  fuzz_sweep) ls sweeps/*.yaml ;;
  fuzz_plan) ls plans/*.yaml ;;
  fuzz_plugin_params) ls tests/fuzz/seeds/plugin-params.txt ;;
  esac
}

harnesses=("$@")
if [ ${#harnesses[@]} -eq 0 ]; then
  harnesses=(fuzz_scenario fuzz_override fuzz_catalogue fuzz_trace_acme fuzz_trace_jobs fuzz_trace_swf
             fuzz_trace_philly fuzz_trace_helios fuzz_trace_file fuzz_run_job_waits fuzz_failure_list
             fuzz_collectives fuzz_sweep fuzz_plan fuzz_plugin_params)
fi
mkdir -p build-asan/findings
for h in "${harnesses[@]}"; do
  saved=tests/fuzz/corpus/$h
  work=build-asan/corpus/$h
  mkdir -p "$work"
  cp $(seeds "$h") "$work"/
  options=(-timeout=10 -rss_limit_mb=2048 -max_len=65536 -artifact_prefix=build-asan/findings/"$h"- -print_final_stats=0)
  if [ -d "$saved" ] && [ -n "$(ls -A "$saved")" ]; then
    echo "fuzz: $h replays $(ls "$saved" | wc -l) saved inputs" >&2
    build-asan/tests/fuzz/"$h" "${options[@]}" "$saved"/* 2>build-asan/"$h".replay.log ||
      { tail -30 build-asan/"$h".replay.log; exit 1; }
  fi
  if [ "$runs" -gt 0 ]; then
    echo "fuzz: $h, $runs new inputs" >&2
    # Without allocation stacks ASan runs the harnesses about three times as fast; a finding is
    # still caught, and replaying its saved input (above, once it is in the corpus) shows them.
    ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=0} \
      build-asan/tests/fuzz/"$h" "${options[@]}" -runs="$runs" -seed=1 "$work" 2>build-asan/"$h".log ||
      { tail -40 build-asan/"$h".log; exit 1; }
    grep -E "^Done|stat::number_of_executed_units" build-asan/"$h".log | tail -1 >&2 || true
  fi
done
echo "fuzz: no finding" >&2
