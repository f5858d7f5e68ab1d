#pragma once
// What the files of sweeps and plans share: a base scenario relative to the file, overrides of
// every run (`set:`), the seeds, the Slurm settings, and the way a value is given to `--set`.
#include "models/common/InputError.hpp"
#include "models/common/Text.hpp"
#include "sim/config/ScenarioLoader.hpp"
#include "sim/keys/CheckedReader.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace acmesim {

struct SlurmOptions {
  std::string partition;               // empty: the cluster's default partition
  std::string time_limit;              // per array task, in sbatch --time syntax; empty: the partition's
  int throttle = 0;                    // most array tasks running at once (sbatch --array=...%N); 0: no limit
  std::vector<std::string> extra_args; // passed to sbatch as they are (--account=..., --qos=...)
};

// The text a value takes in `--set key=<text>`, read back as YAML by the scenario loader: flow
// YAML, with a scalar quoted only when it would otherwise read as something else ("a #b", "[1]").
std::string override_text(const ConfigNode& node);

// A stable fingerprint of the base scenario's text (the embedded default when `path` is empty),
// so that --resume sees an edited file.
std::string scenario_digest(const std::string& path);

// Reads the shared keys of an experiment file, reporting problems to the checker.
class ExperimentFileReader {
public:
  // Up to this many runs is an experiment; more is a typo.
  static constexpr std::size_t MAX_RUNS = 100000;

  // Relative paths start at the checker's directory, the experiment file's own.
  explicit ExperimentFileReader(ConfigChecker& checker) : checker_(checker) {}

  // `name:` (a safe name: it names the results directory and the Slurm job).
  void read_name(MapReader& top, std::string& name);
  // `scenario:`: the absolute path of the file, relative to the experiment file.
  void read_scenario(MapReader& top, std::string& scenario);
  // A key given to --set: a dotted scenario path, never the seed. Reported unless valid; a valid
  // one's place in the file is kept (key_where).
  bool valid_key(const ConfigEntry& e, const std::string& parent);
  // `set:` as "key=value" overrides.
  void read_set(MapReader& top, std::vector<std::string>& set);
  // `seeds:` (a count from `first_seed:`, default 1, or a list).
  std::vector<std::uint64_t> read_seeds(MapReader& top);
  void read_slurm(MapReader& top, SlurmOptions& slurm);

  ConfigChecker& checker() { return checker_; }
  // Where each scenario key the file sets (set:, grid:, points:, variables:) is first written.
  const std::map<std::string, std::string>& key_where() const { return key_where_; }

private:
  ConfigChecker& checker_;
  std::map<std::string, std::string> key_where_;
};

// The errors of loading a base scenario with an experiment file's overrides, each one that a
// `--set key=value` made from the file told by the key's place there ("sweep.yaml:4:3"), not as a
// --set the user never typed.
InputError located_in_file(const InputError& e, const std::map<std::string, std::string>& key_where);

// An experiment file's text, and where it is: relative paths in it are relative to `base_dir`,
// and its name defaults to the file's stem. Throws InputError when the file cannot be read.
struct ExperimentFileText {
  std::string text, source, base_dir, default_name;
};
ExperimentFileText read_experiment_file(const std::string& path, std::string_view what);

// Parses an experiment file into a Spec (with name, source, scenario and scenario_digest) with
// `Reader(checker).read(root, spec)` (the checker knowing `base_dir`) for the rest; throws InputError listing all that is
// wrong.
template <typename Spec, typename Reader>
Spec parse_experiment(std::string_view text, const std::string& source, const std::string& base_dir,
                      const std::string& default_name)
{
  DiagnosticList diags;
  const std::optional<ConfigNode> root = parse_config(text, {source, SourceLabel::Style::LineColumn}, diags);
  if (!root)
    throw InputError(diags.items());
  // An empty file would otherwise run the embedded default scenario once and look like success.
  if (root->kind == ConfigNode::Kind::Null)
    throw InputError(Diagnostic{source, "", "", "the file is empty: expected its keys (docs/experiments.md)"});
  Spec spec;
  spec.name = safe_name(default_name);
  spec.source = source;
  ConfigChecker checker(diags, base_dir);
  Reader(checker).read(*root, spec);
  diags.throw_if_any();
  spec.scenario_digest = scenario_digest(spec.scenario);
  return spec;
}

// The same, from the file at `path` (`what` names the kind of file in messages).
template <typename Spec, typename Reader>
Spec load_experiment(const std::string& path, std::string_view what)
{
  const ExperimentFileText file = read_experiment_file(path, what);
  return parse_experiment<Spec, Reader>(file.text, file.source, file.base_dir, file.default_name);
}

} // namespace acmesim
