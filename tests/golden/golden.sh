#!/usr/bin/env bash
# Golden results of every shipped scenario: the embedded default scenario and scenarios/*.yaml.
# Each has tests/golden/<name>/summary.json, kept whole, and outputs.sha256, the digests of its
# jobs.csv, utilisation.csv and (with failures) failures.csv. A change meant to keep behaviour
# must keep them all byte for byte; a change meant to alter results regenerates them on purpose
# and the diff shows what moved.
#
#   tests/golden/golden.sh check BINARY NAME     run one scenario, compare with its golden results
#   tests/golden/golden.sh update BINARY [NAME]  regenerate (all scenarios without NAME)
#   tests/golden/golden.sh names                 the shipped scenarios, one name per line
#   tests/golden/golden.sh audit                 fails if a scenario has no golden results or
#                                                golden results have no scenario
#
# A scenario too long to run twice in every test run pins a shorter form of itself: the overrides
# in tests/golden/<name>/args (one `key=value` a line, given as --set; `#` starts a comment), which
# every variant applies. The whole run is measured by the benchmark its scenario names.
#
# With GOLDEN_VARIANT=network-off, scenarios run with `--set network.model=off` against
# tests/golden/network-off/<name>: the outputs of the build before the network model, which the
# model switched off must reproduce byte for byte (docs/network.md).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
variant=${GOLDEN_VARIANT:-}
extra=()
case "$variant" in
  "") ;;
  network-off) extra=(--set network.model=off) ;;
  *) echo "golden: unknown GOLDEN_VARIANT '$variant' (expected network-off)" >&2; exit 2 ;;
esac
golden_root=$here${variant:+/$variant}

names() {
  echo default
  for f in "$root"/scenarios/*.yaml; do basename "$f" .yaml; done
}

# Runs scenario NAME into directory OUT; fails on a non-zero exit or anything on stderr.
run_scenario() {
  local binary=$1 name=$2 out=$3
  local scenario=()
  [ "$name" = default ] || scenario=("$root/scenarios/$name.yaml")
  local pinned=() line
  if [ -f "$here/$name/args" ]; then
    while IFS= read -r line; do
      line=${line%%#*}
      line=${line//[[:space:]]/}
      [ -z "$line" ] || pinned+=(--set "$line")
    done <"$here/$name/args"
  fi
  local err
  err=$(cd "$root" && "$binary" run "${scenario[@]}" "${pinned[@]}" "${extra[@]}" --quiet --out "$out" 2>&1 >/dev/null) || {
    echo "golden: $name: acmesim run failed:" >&2
    echo "$err" >&2
    return 1
  }
  if [ -n "$err" ]; then
    echo "golden: $name: acmesim run --quiet wrote to stderr:" >&2
    echo "$err" >&2
    return 1
  fi
}

digests() {
  (cd "$1" && sha256sum jobs.csv utilisation.csv $([ -f failures.csv ] && echo failures.csv))
}

check() {
  local binary=$1 name=$2
  local golden="$golden_root/$name"
  [ -f "$golden/summary.json" ] && [ -f "$golden/outputs.sha256" ] || {
    echo "golden: $name has no golden results; create them with: tests/golden/golden.sh update BINARY $name" >&2
    return 1
  }
  local out
  out=$(mktemp -d)
  trap 'rm -rf "$out"' RETURN
  run_scenario "$binary" "$name" "$out/run"
  local failed=0
  if ! cmp -s "$golden/summary.json" "$out/run/summary.json"; then
    echo "golden: $name: summary.json differs from $golden/summary.json:" >&2
    diff -u "$golden/summary.json" "$out/run/summary.json" | head -40 >&2 || true
    failed=1
  fi
  if ! (cd "$out/run" && sha256sum --quiet -c "$golden/outputs.sha256" >&2) ||
    [ "$(digests "$out/run" | wc -l)" != "$(wc -l <"$golden/outputs.sha256")" ]; then
    echo "golden: $name: the result files above differ from $golden/outputs.sha256" >&2
    failed=1
  fi
  return $failed
}

update() {
  local binary=$1
  shift
  local list=("$@")
  [ ${#list[@]} -gt 0 ] || mapfile -t list < <(names)
  local out
  out=$(mktemp -d)
  trap 'rm -rf "$out"' RETURN
  for name in "${list[@]}"; do
    run_scenario "$binary" "$name" "$out/$name"
    mkdir -p "$golden_root/$name"
    cp "$out/$name/summary.json" "$golden_root/$name/summary.json"
    digests "$out/$name" >"$golden_root/$name/outputs.sha256"
    echo "golden: $name updated"
  done
}

audit() {
  local expected present
  expected=$(names | sort)
  present=$(cd "$golden_root" && find . -mindepth 1 -maxdepth 1 -type d ! -name network-off -printf '%f\n' | sort)
  if [ "$expected" != "$present" ]; then
    echo "golden: the shipped scenarios (<) and tests/golden/ (>) differ:" >&2
    diff <(echo "$expected") <(echo "$present") >&2 || true
    return 1
  fi
}

case "${1:-}" in
  check) [ $# -eq 3 ] || { echo "usage: $0 check BINARY NAME" >&2; exit 2; }; check "$(realpath "$2")" "$3" ;;
  update) [ $# -ge 2 ] || { echo "usage: $0 update BINARY [NAME...]" >&2; exit 2; }; b=$(realpath "$2"); shift 2; update "$b" "$@" ;;
  names) names ;;
  audit) audit ;;
  *) echo "usage: $0 check BINARY NAME | update BINARY [NAME...] | names | audit" >&2; exit 2 ;;
esac
