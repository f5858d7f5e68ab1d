#!/usr/bin/env bash
# Installs the Debian 12 packages acmesim builds with, if any is missing (needs root).
# With --test, also what the test suite needs beyond the build: python3-matplotlib for
# `acmesim plot` and `report`, chromium to open report pages headless, and Slurm with munge for the
# test of `sweep --backend slurm`. With --fuzz, clang and its libFuzzer runtime (the sanitizer
# build and scripts/fuzz.sh). Both may be given.
set -euo pipefail
packages=(cmake g++ make pkg-config libsimgrid-dev libboost-graph-dev libboost-program-options-dev libboost-iostreams-dev
          libspdlog-dev libyaml-cpp-dev nlohmann-json3-dev catch2 pybind11-dev python3-dev)
for option in "$@"; do
  case $option in
  --test) packages+=(python3-matplotlib chromium slurmctld slurmd slurm-client munge) ;;
  --fuzz) packages+=(clang libclang-rt-14-dev) ;;
  *) echo "install-deps.sh: unknown option $option (expected --test and/or --fuzz)" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
