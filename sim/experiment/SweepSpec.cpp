#include "sim/experiment/SweepSpec.hpp"

#include "sim/keys/CheckedReader.hpp"
#include "sim/keys/ConfigTree.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace acmesim {


namespace {

// More points than this is a typo (or a job for several sweep files), not an experiment.
constexpr std::size_t MAX_POINTS = ExperimentFileReader::MAX_RUNS;

class SweepReader {
public:
  explicit SweepReader(ConfigChecker& checker) : shared_(checker), checker_(checker) {}

  void read(const ConfigNode& root, SweepSpec& spec)
  {
    MapReader top(checker_, &root, "", {"name", "scenario", "set", "grid", "points", "seeds", "first_seed", "out",
                                        "slurm"});
    if (!top.ok())
      return;
    shared_.read_name(top, spec.name);
    shared_.read_scenario(top, spec.scenario);
    top.read("out", spec.out);
    shared_.read_set(top, spec.set);
    const auto seeds = shared_.read_seeds(top);
    std::vector<std::vector<std::optional<std::string>>> combos{{}};
    if (top.get("grid") && top.get("points"))
      checker_.error(*top.get("points"), "points", "give either grid or points, not both");
    else if (const ConfigNode* grid = top.get("grid"))
      combos = read_grid(*grid, spec.parameters);
    else if (const ConfigNode* points = top.get("points"))
      combos = read_points(*points, spec.parameters);
    shared_.read_slurm(top, spec.slurm);
    spec.key_where = shared_.key_where();
    // A file that varies nothing (only a name, say) would run the default scenario once: a mistake.
    // Said only when nothing else is wrong, since an error elsewhere is the likelier cause.
    if (checker_.diagnostics().empty() && !top.get("grid") && !top.get("points") && !top.get("seeds") &&
        !top.get("scenario") && !top.get("set"))
      checker_.error(root, "", "the sweep varies nothing and names no scenario: give grid, points or seeds");
    if (combos.size() * seeds.size() > MAX_POINTS) {
      checker_.error(root, "", fmt::format("{} points is more than the {} a sweep may have",
                                           combos.size() * seeds.size(), MAX_POINTS));
      return;
    }
    for (auto& values : combos)
      for (const auto seed : seeds) {
        values.resize(spec.parameters.size());
        spec.points.push_back({fmt::format("p{:04}", spec.points.size()), values, seed});
      }
  }

private:
  std::size_t column_of(const std::string& key, std::vector<std::string>& parameters)
  {
    const auto it = std::find(parameters.begin(), parameters.end(), key);
    if (it != parameters.end())
      return static_cast<std::size_t>(it - parameters.begin());
    parameters.push_back(key);
    return parameters.size() - 1;
  }

  std::vector<std::vector<std::optional<std::string>>> read_grid(const ConfigNode& grid,
                                                                 std::vector<std::string>& parameters)
  {
    std::vector<std::vector<std::optional<std::string>>> combos{{}};
    if (!checker_.expect_map(grid, "grid"))
      return combos;
    if (grid.entries.empty()) { // would quietly run the base scenario alone
      checker_.error(grid, "grid", "expected at least one key with its list of values");
      return combos;
    }
    double product = 1;
    for (const auto& e : grid.entries)
      product *= e.value.is_list() ? static_cast<double>(std::max<std::size_t>(e.value.items.size(), 1)) : 1;
    if (product > static_cast<double>(MAX_POINTS)) {
      checker_.error(grid, "grid", fmt::format("{:.0f} combinations is more than the {} points a sweep may have",
                                               product, MAX_POINTS));
      return combos;
    }
    for (const auto& e : grid.entries) {
      const std::string key = join_key("grid", e.key);
      if (!shared_.valid_key(e, "grid") || !checker_.expect_list(e.value, key))
        continue;
      if (e.value.items.empty()) {
        checker_.error(e.value, key, "expected a non-empty list of values");
        continue;
      }
      const std::size_t column = column_of(e.key, parameters);
      std::vector<std::vector<std::optional<std::string>>> next;
      for (const auto& combo : combos)
        for (const auto& v : e.value.items) {
          auto extended = combo;
          extended.resize(column + 1);
          extended[column] = override_text(v);
          next.push_back(std::move(extended));
        }
      combos = std::move(next);
    }
    return combos;
  }

  std::vector<std::vector<std::optional<std::string>>> read_points(const ConfigNode& points,
                                                                   std::vector<std::string>& parameters)
  {
    std::vector<std::vector<std::optional<std::string>>> combos;
    if (!checker_.expect_list(points, "points") || points.items.empty()) {
      if (points.is_list())
        checker_.error(points, "points", "expected a non-empty list of override maps");
      return {{}};
    }
    for (std::size_t i = 0; i < points.items.size(); ++i) {
      const ConfigNode& p = points.items[i];
      const std::string key = fmt::format("points.{}", i);
      std::vector<std::optional<std::string>> values;
      if (checker_.expect_map(p, key))
        for (const auto& e : p.entries)
          if (shared_.valid_key(e, key)) {
            const std::size_t column = column_of(e.key, parameters);
            values.resize(std::max(values.size(), column + 1));
            values[column] = override_text(e.value);
          }
      combos.push_back(std::move(values));
    }
    return combos;
  }

  ExperimentFileReader shared_;
  ConfigChecker& checker_;
};

} // namespace

std::vector<std::string> SweepSpec::overrides_of(const SweepPoint& point) const
{
  std::vector<std::string> overrides = set;
  for (std::size_t i = 0; i < parameters.size() && i < point.values.size(); ++i)
    if (point.values[i])
      overrides.push_back(parameters[i] + "=" + *point.values[i]);
  return overrides;
}

SweepSpec parse_sweep(std::string_view text, const std::string& source, const std::string& base_dir,
                    const std::string& default_name)
{
  return parse_experiment<SweepSpec, SweepReader>(text, source, base_dir, default_name);
}

SweepSpec load_sweep_file(const std::string& path)
{
  return load_experiment<SweepSpec, SweepReader>(path, "sweep");
}

} // namespace acmesim
