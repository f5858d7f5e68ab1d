#include "sim/experiment/ExperimentFile.hpp"

#include "models/common/TextFile.hpp"
#include "sim/config/EmbeddedConfigs.hpp"
#include "sim/config/ScenarioLoader.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>

namespace acmesim {

namespace fs = std::filesystem;

namespace {

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

} // namespace

std::string override_text(const ConfigNode& node)
{
  YAML::Emitter out;
  out << YAML::Flow;
  emit(out, node);
  return out.c_str();
}

std::string scenario_digest(const std::string& path)
{
  if (path.empty())
    return text_digest(embedded_default_scenario());
  return text_digest(read_text_file(path).value_or("")); // a missing file was reported already
}

void ExperimentFileReader::read_name(MapReader& top, std::string& name)
{
  if (top.read("name", name) && !is_safe_name(name))
    checker_.error(*top.get("name"), "name",
                   "expected at most 255 letters, digits, '.', '_' or '-', not starting with '.' (it names the results "
                   "directory and the Slurm job)");
}

void ExperimentFileReader::read_scenario(MapReader& top, std::string& scenario)
{
  std::string path;
  if (!top.read("scenario", path))
    return;
  const fs::path p = checker_.resolve(path);
  std::error_code ec;
  if (!fs::is_regular_file(p, ec))
    checker_.error(*top.get("scenario"), "scenario", "no such scenario file (paths are relative to this file)");
  scenario = fs::absolute(p, ec).lexically_normal().string();
}

bool ExperimentFileReader::valid_key(const ConfigEntry& e, const std::string& parent)
{
  if (e.key.empty() || e.key.find('=') != std::string::npos || e.key.front() == '.' || e.key.back() == '.') {
    checker_.error(e.key_where, join_key(parent, e.key), e.key, "expected a dotted scenario key such as "
                                                                "scheduler.name");
    return false;
  }
  if (e.key == "seed") {
    // Each run's seed comes from `seeds:`, and the results report it.
    checker_.error(e.key_where, join_key(parent, e.key), e.key, "the seeds are given by seeds:");
    return false;
  }
  key_where_.try_emplace(e.key, e.key_where);
  return true;
}

InputError located_in_file(const InputError& e, const std::map<std::string, std::string>& key_where)
{
  constexpr std::string_view SET = "--set ";
  std::vector<Diagnostic> out = e.diagnostics();
  for (Diagnostic& d : out) {
    if (!d.where.starts_with(SET))
      continue;
    const std::string key = d.where.substr(SET.size(), d.where.find('=') - SET.size());
    if (const auto it = key_where.find(key); it != key_where.end())
      d.where = it->second;
  }
  return InputError(std::move(out));
}

void ExperimentFileReader::read_set(MapReader& top, std::vector<std::string>& set)
{
  const ConfigNode* node = top.get("set");
  if (!node || !checker_.expect_map(*node, "set"))
    return;
  for (const auto& e : node->entries)
    if (valid_key(e, "set"))
      set.push_back(e.key + "=" + override_text(e.value));
}

std::vector<std::uint64_t> ExperimentFileReader::read_seeds(MapReader& top)
{
  std::uint64_t first = 1;
  top.read("first_seed", first);
  const ConfigNode* seeds = top.get("seeds");
  if (!seeds)
    return {first};
  if (seeds->is_list()) {
    std::vector<std::uint64_t> out;
    for (std::size_t i = 0; i < seeds->items.size(); ++i) {
      const auto s = checker_.unsigned64(seeds->items[i], fmt::format("seeds.{}", i));
      if (!s)
        continue;
      // The same seed is the same run: counted twice, it would shrink the spread and inflate the
      // confidence of every mean over the seeds.
      if (std::find(out.begin(), out.end(), *s) != out.end())
        checker_.error(seeds->items[i], fmt::format("seeds.{}", i),
                       fmt::format("seed {} is listed twice: a repeated seed repeats the same run, which would "
                                   "count as independent evidence",
                                   *s));
      out.push_back(*s);
    }
    if (seeds->items.empty())
      checker_.error(*seeds, "seeds", "expected a number of seeds or a non-empty list of seeds");
    return out.empty() ? std::vector<std::uint64_t>{first} : out;
  }
  const auto count = checker_.integer(*seeds, "seeds", integer_between(1, static_cast<double>(MAX_RUNS)));
  if (count && first > std::numeric_limits<std::uint64_t>::max() - static_cast<std::uint64_t>(*count - 1)) {
    checker_.error(*seeds, "seeds", "first_seed + seeds - 1 is beyond the largest seed, 2^64 - 1");
    return {first};
  }
  std::vector<std::uint64_t> out;
  for (int i = 0; i < count.value_or(1); ++i)
    out.push_back(first + static_cast<std::uint64_t>(i));
  return out;
}

void ExperimentFileReader::read_slurm(MapReader& top, SlurmOptions& slurm)
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

ExperimentFileText read_experiment_file(const std::string& path, std::string_view what)
{
  auto text = read_text_file(path);
  if (!text)
    throw InputError(Diagnostic{path, "", "", fmt::format("cannot open the {} file", what)});
  const fs::path p(path);
  return {std::move(*text), path, p.has_parent_path() ? p.parent_path().string() : ".", p.stem().string()};
}

} // namespace acmesim
