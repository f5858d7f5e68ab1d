#include "sim/config/EvaluationSection.hpp"

#include "models/common/TextFile.hpp"
#include "sim/config/EmbeddedConfigs.hpp"
#include "sim/config/PhysicalRanges.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

namespace acmesim {

namespace {

namespace fs = std::filesystem;

// Bounds past which a value is a typing or unit error rather than a what-if.
constexpr int MAX_GPUS_PER_TRIAL = 64;
constexpr std::size_t MAX_CAMPAIGNS = 10000;
// Below a second, chunks would be far shorter than loading a model, and a small value could
// cut one dataset into millions of jobs.
constexpr double MIN_CHUNK_S = 1;

const char* const EMBEDDED_CATALOGUE = "eval/datasets.yaml";
const char* const EMBEDDED_SOURCE = "<embedded eval/datasets.yaml>";

// Parses a catalogue into a separate list, then hands its diagnostics to `checker`.
DatasetCatalogue load_catalogue(ConfigChecker& checker, std::string_view text, const std::string& source_name,
                                bool& clean)
{
  DiagnosticList diags;
  DatasetCatalogue catalogue = parse_dataset_catalogue(text, source_name, diags);
  for (const auto& d : diags.items())
    checker.error(d.where, d.key, d.value, d.message);
  clean = diags.empty();
  return catalogue;
}

// `catalogue: default | <path>`; `clean` is false when the catalogue is missing or has errors.
DatasetCatalogue read_catalogue(MapReader& m, bool& clean)
{
  clean = false;
  std::string written = "default";
  if (m.get("catalogue") && !m.read("catalogue", written))
    return {};
  if (written == "default") {
    const auto text = embedded_config_file(EMBEDDED_CATALOGUE);
    if (!text) { // a build without configs/eval: the binary cannot evaluate anything
      m.checker().error(m.node()->where, m.key_of("catalogue"), "default",
                        "the default catalogue is not compiled into this build (configs/eval/datasets.yaml)");
      return {};
    }
    DatasetCatalogue catalogue = load_catalogue(m.checker(), *text, EMBEDDED_SOURCE, clean);
    catalogue.source = "<embedded default>";
    return catalogue;
  }

  const std::string resolved = m.checker().resolve(written);
  const ConfigNode& node = *m.get("catalogue");
  if (!check_readable_file(m.checker(), node, m.key_of("catalogue"), resolved, "catalogue file",
                           "`default` takes the built-in one"))
    return {};
  const auto text = read_text_file(resolved);
  if (!text) {
    m.checker().error(node, m.key_of("catalogue"), "catalogue file cannot be read: " + resolved);
    return {};
  }
  return load_catalogue(m.checker(), *text, resolved, clean);
}

// `datasets: [a, b]`: names from the catalogue, each once.
void read_dataset_names(MapReader& m, const DatasetCatalogue& catalogue, bool check_names,
                        std::vector<std::string>& out)
{
  // A few names suffice to show the spelling; the full list lives in the catalogue file.
  std::vector<std::string> examples;
  for (std::size_t i = 0; i < catalogue.datasets.size() && i < 6; ++i)
    examples.push_back(catalogue.datasets[i].name);
  ConfigChecker& checker = m.checker();
  read_list(m, "datasets", "expected at least one dataset name (leave the key out to evaluate every dataset)", out,
            [&](const ConfigNode& item, const std::string& key,
                const std::vector<std::string>& listed) -> std::optional<std::string> {
              const auto name = checker.string(item, key);
              if (!name)
                return std::nullopt;
              if (check_names && !catalogue.find(*name))
                checker.error(item, key,
                              "unknown dataset; the catalogue (" + catalogue.source + ") has " +
                                  std::to_string(catalogue.datasets.size()) + " datasets, e.g. " +
                                  join_names(examples));
              else if (std::find(listed.begin(), listed.end(), *name) != listed.end())
                checker.error(item, key, "dataset listed twice");
              else
                return name;
              return std::nullopt;
            });
}

using E = EvalSpec;

// `chunk_s: 0` never cuts a dataset; a positive length must be at least MIN_CHUNK_S.
bool read_chunk(ConfigChecker& checker, const ConfigNode& node, const std::string& key, E& spec)
{
  const auto v = checker.number(node, key, physical::SECONDS_OR_NONE);
  if (!v)
    return false;
  if (*v > 0 && *v < MIN_CHUNK_S) {
    checker.error(node, key,
                  "expected 0 (never cut datasets) or a chunk length of at least " + format_number(MIN_CHUNK_S) + " s");
    return false;
  }
  spec.chunk_s = *v;
  return true;
}

// The catalogue as the results name it: the built-in one, or its file's name (not its path).
Json catalogue_json(const E& spec)
{
  const std::string& source = spec.catalogue.source;
  return source == "<embedded default>" ? source : fs::path(source).filename().string();
}

// The catalogue and the datasets chosen from it are read first by read_evaluation: the
// catalogue needs the scenario's directory, and the names are checked against it.
std::vector<ConfigKey<E>> dataset_choice_keys()
{
  return {
      ConfigKey<E>(other_doc("catalogue", "path", "default, or a catalogue file",
                             "the datasets campaigns can evaluate: the built-in configs/eval/datasets.yaml, or a "
                             "file relative to the scenario's directory"),
                   {}, catalogue_json)
          .default_is("default"),
      ConfigKey<E>(other_doc("datasets", "list of names", "names of the catalogue, each once",
                             "the datasets every campaign evaluates"),
                   {}, [](const E& spec) { return Json(spec.datasets); })
          .default_is("every dataset of the catalogue"),
  };
}

std::vector<ConfigKey<E>> trial_keys()
{
  return {
      number_key("model_params_b", &E::model_params_b, physical::PARAMS_BILLION, "billion parameters",
                 "the size of the evaluated model"),
      number_key("gpus_per_trial", &E::gpus_per_trial, integer_between(1, MAX_GPUS_PER_TRIAL), "GPUs",
                 "GPUs of one trial, on one node"),
      number_key("weight_bytes_per_param", &E::weight_bytes_per_param, physical::BYTES_PER_PARAM, "bytes",
                 "bytes a trial loads per model parameter (2: bf16 weights)"),
      number_key("pcie_GBps", &E::pcie_GBps, physical::BANDWIDTH, "GB/s",
                 "host memory to GPU bandwidth, for a model already on the node"),
      number_key("chunk_s", &E::chunk_s, physical::SECONDS_OR_NONE, "s",
                 "datasets of more inference seconds are cut into chunks no longer than this (at least 1), "
                 "which may run on several GPUs; 0: never cut")
          .read_with(node_reader<E>(read_chunk)),
  };
}

std::vector<ConfigKey<E>> campaign_keys()
{
  return {
      number_list_key("campaigns_s", &E::campaigns_s, physical::SECONDS_OR_NONE, "s",
                      "submission times of the campaigns, each evaluating every chosen dataset"),
      number_key("every_checkpoints", &E::every_checkpoints, integer_between(0, 1e6), "checkpoints",
                 "in whole-cluster runs, every this many checkpoints of a large pretraining job submit a campaign "
                 "for that checkpoint; 0: never"),
      number_key("trigger_min_gpus", &E::trigger_min_gpus, integer_between(1, 1e6), "GPUs",
                 "pretraining jobs of at least this many GPUs trigger campaigns"),
  };
}

const KeyTable<E>& evaluation_keys()
{
  static const KeyTable<E> keys({dataset_choice_keys(), trial_keys(), campaign_keys()});
  return keys;
}

} // namespace

EvalSpec evaluation_defaults()
{
  EvalSpec spec;
  spec.enabled = true;
  spec.campaigns_s = {0};
  return spec;
}

EvalSpec read_evaluation(ConfigChecker& checker, const ConfigNode& node)
{
  MapReader m(checker, &node, "evaluation", evaluation_keys().names());
  if (!m.ok())
    return EvalSpec{};
  EvalSpec spec = evaluation_defaults();
  bool catalogue_clean = false;
  spec.catalogue = read_catalogue(m, catalogue_clean);
  // Against a broken catalogue every name could look unknown: its own errors say enough.
  read_dataset_names(m, spec.catalogue, catalogue_clean, spec.datasets);
  evaluation_keys().read(m, spec);
  if (spec.campaigns_s.empty() && spec.every_checkpoints == 0)
    checker.error(*m.get("campaigns_s"), m.key_of("campaigns_s"),
                  "expected at least one campaign submission time in seconds, e.g. [0], or campaigns triggered by "
                  "checkpoints (every_checkpoints > 0)");
  // Each campaign is a trial per dataset (or chunk of one): bounded before they are built.
  if (spec.campaigns_s.size() > MAX_CAMPAIGNS)
    checker.error(*m.get("campaigns_s"), m.key_of("campaigns_s"),
                  fmt::format("{} campaigns is more than the {} a scenario may have (one an hour for a year is "
                              "8760)",
                              spec.campaigns_s.size(), MAX_CAMPAIGNS));
  return spec;
}

template <> Json section_echo(const EvalSpec& spec) { return echo_if_enabled(evaluation_keys(), spec); }

template <> std::vector<KeyDoc> section_key_docs<EvalSpec>(const std::string& path)
{
  return evaluation_keys().docs(path, evaluation_defaults());
}

} // namespace acmesim
