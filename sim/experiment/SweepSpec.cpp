#include "sim/experiment/SweepSpec.hpp"

#include "models/common/TextFile.hpp"
#include "sim/config/CheckedReader.hpp"
#include "sim/config/ConfigTree.hpp"
#include "sim/config/EmbeddedConfigs.hpp"
#include "sim/config/ScenarioLoader.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <limits>

namespace acmesim {

namespace fs = std::filesystem;

namespace {

// More points than this is a typo (or a job for several sweep files), not an experiment.
constexpr std::size_t MAX_POINTS = 100000;

void emit(YAML::Emitter& out, const ConfigNode& node)
{
  switch (node.kind) {
    case ConfigNode::Kind::Null:
      out << YAML::Null;
      break;
    case ConfigNode::Kind::Scalar:
      out << node.scalar;
      break;
    case ConfigNode::Kind::List:
      out << YAML::BeginSeq;
      for (const auto& item : node.items)
        emit(out, item);
      out << YAML::EndSeq;
      break;
    case ConfigNode::Kind::Map:
      out << YAML::BeginMap;
      for (const auto& e : node.entries) {
        out << YAML::Key << e.key << YAML::Value;
        emit(out, e.value);
      }
      out << YAML::EndMap;
      break;
  }
}

// The text a value takes in `--set key=<text>`, read back as YAML by the scenario loader: flow
// YAML, with a scalar quoted only when it would otherwise read as something else ("a #b", "[1]").
std::string override_text(const ConfigNode& node)
{
  YAML::Emitter out;
  out << YAML::Flow;
  emit(out, node);
  return out.c_str();
}

class SweepReader {
public:
  SweepReader(ConfigChecker& checker, std::string base_dir) : checker_(checker), base_dir_(std::move(base_dir)) {}

  void read(const ConfigNode& root, SweepSpec& spec)
  {
    MapReader top(checker_, &root, "", {"name", "scenario", "set", "grid", "points", "seeds", "first_seed", "out",
                                        "slurm"});
    if (!top.ok())
      return;
    if (top.read("name", spec.name) && !is_safe_name(spec.name))
      checker_.error(*top.get("name"), "name",
                     "expected letters, digits, '.', '_' or '-', not starting with '.' (it names the results "
                     "directory and the Slurm job)");
    std::string scenario;
    if (top.read("scenario", scenario))
      spec.scenario = absolute_scenario(scenario, *top.get("scenario"));
    top.read("out", spec.out);
    read_common_set(top, spec);
    const auto seeds = read_seeds(top);
    std::vector<std::vector<std::optional<std::string>>> combos{{}};
    if (top.get("grid") && top.get("points"))
      checker_.error(*top.get("points"), "points", "give either grid or points, not both");
    else if (const ConfigNode* grid = top.get("grid"))
      combos = read_grid(*grid, spec.parameters);
    else if (const ConfigNode* points = top.get("points"))
      combos = read_points(*points, spec.parameters);
    read_slurm(top, spec.slurm);
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
  std::string absolute_scenario(const std::string& path, const ConfigNode& node)
  {
    const fs::path p = fs::path(path).is_absolute() ? fs::path(path) : fs::path(base_dir_) / path;
    std::error_code ec;
    if (!fs::is_regular_file(p, ec))
      checker_.error(node, "scenario", "no such scenario file (paths are relative to the sweep file)");
    return fs::absolute(p, ec).lexically_normal().string();
  }

  // A swept or fixed key: a dotted scenario path, as --set takes it. Not the seed: each point's
  // seed comes from `seeds:`, and results.csv reports it.
  bool valid_key(const ConfigEntry& e, const std::string& parent)
  {
    if (e.key.empty() || e.key.find('=') != std::string::npos || e.key.front() == '.' || e.key.back() == '.') {
      checker_.error(e.key_where, join_key(parent, e.key), e.key, "expected a dotted scenario key such as "
                                                                  "scheduler.name");
      return false;
    }
    if (e.key == "seed") {
      checker_.error(e.key_where, join_key(parent, e.key), e.key, "the seeds of a sweep are given by seeds:");
      return false;
    }
    return true;
  }

  void read_common_set(MapReader& top, SweepSpec& spec)
  {
    const ConfigNode* set = top.get("set");
    if (!set || !checker_.expect_map(*set, "set"))
      return;
    for (const auto& e : set->entries)
      if (valid_key(e, "set"))
        spec.set.push_back(e.key + "=" + override_text(e.value));
  }

  std::vector<std::uint64_t> read_seeds(MapReader& top)
  {
    std::uint64_t first = 1;
    top.read("first_seed", first);
    const ConfigNode* seeds = top.get("seeds");
    if (!seeds)
      return {first};
    if (seeds->is_list()) {
      std::vector<std::uint64_t> out;
      for (std::size_t i = 0; i < seeds->items.size(); ++i)
        if (const auto s = checker_.unsigned64(seeds->items[i], fmt::format("seeds.{}", i)))
          out.push_back(*s);
      if (seeds->items.empty())
        checker_.error(*seeds, "seeds", "expected a number of seeds or a non-empty list of seeds");
      return out.empty() ? std::vector<std::uint64_t>{first} : out;
    }
    const auto count = checker_.integer(*seeds, "seeds", integer_between(1, static_cast<double>(MAX_POINTS)));
    if (count && first > std::numeric_limits<std::uint64_t>::max() - static_cast<std::uint64_t>(*count - 1)) {
      checker_.error(*seeds, "seeds", "first_seed + seeds - 1 is beyond the largest seed, 2^64 - 1");
      return {first};
    }
    std::vector<std::uint64_t> out;
    for (int i = 0; i < count.value_or(1); ++i)
      out.push_back(first + static_cast<std::uint64_t>(i));
    return out;
  }

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
      if (!valid_key(e, "grid") || !checker_.expect_list(e.value, key))
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
          if (valid_key(e, key)) {
            const std::size_t column = column_of(e.key, parameters);
            values.resize(std::max(values.size(), column + 1));
            values[column] = override_text(e.value);
          }
      combos.push_back(std::move(values));
    }
    return combos;
  }

  void read_slurm(MapReader& top, SlurmOptions& slurm)
  {
    MapReader m(checker_, top.get("slurm"), "slurm", {"partition", "time_limit", "throttle", "extra_args"});
    if (!m.ok())
      return;
    m.read("partition", slurm.partition);
    m.read("time_limit", slurm.time_limit);
    m.read("throttle", slurm.throttle, integer_between(0, 1e6));
    if (const ConfigNode* extra = m.get("extra_args"); extra && checker_.expect_list(*extra, "slurm.extra_args"))
      for (std::size_t i = 0; i < extra->items.size(); ++i)
        if (const auto s = checker_.string(extra->items[i], fmt::format("slurm.extra_args.{}", i)))
          slurm.extra_args.push_back(*s);
  }

  ConfigChecker& checker_;
  std::string base_dir_;
};

// 64-bit FNV-1a: a stable fingerprint of a scenario's text (not a defence against tampering).
std::string text_digest(std::string_view text)
{
  std::uint64_t h = 14695981039346656037ull;
  for (const unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return fmt::format("{:016x}", h);
}

std::string scenario_digest(const std::string& path)
{
  if (path.empty())
    return text_digest(embedded_default_scenario());
  return text_digest(read_text_file(path).value_or("")); // a missing file was reported already
}

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
  DiagnosticList diags;
  const std::optional<ConfigNode> root = parse_config(text, {source, SourceLabel::Style::LineColumn}, diags);
  if (!root)
    throw InputError(diags.items());
  SweepSpec spec;
  spec.name = safe_name(default_name);
  spec.source = source;
  ConfigChecker checker(diags);
  SweepReader(checker, base_dir).read(*root, spec);
  diags.throw_if_any();
  spec.scenario_digest = scenario_digest(spec.scenario);
  return spec;
}

SweepSpec load_sweep_file(const std::string& path)
{
  const auto text = read_text_file(path);
  if (!text)
    throw InputError(Diagnostic{path, "", "", "cannot open the sweep file"});
  const fs::path p(path);
  return parse_sweep(*text, path, p.has_parent_path() ? p.parent_path().string() : ".", p.stem().string());
}

} // namespace acmesim
