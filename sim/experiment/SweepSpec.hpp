#pragma once
// A sweep file: a base scenario and the points to run it at, each a set of scenario overrides
// and a seed. For example:
//
//   scenario: kalos-week.yaml          # relative to this file; omitted: the embedded default
//   set: {workload.days: 2}            # applied to every point
//   grid:                              # cartesian product, first key varies slowest
//     cluster.pods.0.nodes: [32, 64]
//     scheduler.name: [fifo, easy-backfill]
//   seeds: 5                           # or a list: [1, 7, 9]; innermost
//   slurm: {partition: batch, time_limit: "01:00:00", throttle: 16}
//
// `points:` (a list of maps of overrides) replaces `grid:` when the combinations are not a grid.
#include "sim/experiment/ExperimentFile.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace acmesim {

struct SweepPoint {
  std::string id; // "p0000", "p0001", ... in expansion order
  // One entry per sweep parameter (SweepSpec::parameters), the value as the YAML text given to
  // --set; nullopt when this point leaves that key as the scenario has it.
  std::vector<std::optional<std::string>> values;
  std::uint64_t seed = 0;
};

struct SweepSpec {
  std::string name;                    // the `name:` key, or the file's stem
  std::string source;                  // the sweep file
  std::string scenario;                // absolute path of the base scenario; empty: embedded default
  std::string scenario_digest;         // of the scenario's text, so --resume sees an edited file
  std::vector<std::string> set;        // overrides of every point, "key=value"
  std::vector<std::string> parameters; // swept keys, in the order of the file
  std::vector<SweepPoint> points;
  std::string out; // `out:` relative to the working directory, or empty
  SlurmOptions slurm;
  std::map<std::string, std::string> key_where; // where each set or swept key is written (ExperimentFile.hpp)

  // The --set overrides of one point: the common ones, then its own.
  std::vector<std::string> overrides_of(const SweepPoint& point) const;
};

// Throws InputError (file:line, key, value, what was expected) for anything malformed.
SweepSpec load_sweep_file(const std::string& path);
SweepSpec parse_sweep(std::string_view text, const std::string& source, const std::string& base_dir,
                      const std::string& default_name);

} // namespace acmesim
