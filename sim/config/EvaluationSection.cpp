#include "sim/config/EvaluationSection.hpp"

#include "models/common/TextFile.hpp"
#include "sim/config/EmbeddedConfigs.hpp"

#include <algorithm>
#include <filesystem>

namespace acmesim {

namespace {

namespace fs = std::filesystem;

// Bounds past which a value is a typing or unit error rather than a what-if.
constexpr double MAX_PARAMS_BILLION = 1e5; // 100T parameters
constexpr double MAX_BYTES_PER_PARAM = 1e3;
constexpr double MAX_PCIE_GBPS = 1e4;
constexpr double MAX_SECONDS = 1e9; // about 31.7 years, as for trace times
constexpr int MAX_GPUS_PER_TRIAL = 64;
// Below a second, chunks would be far shorter than loading a model, and a small value could
// cut one dataset into millions of jobs.
constexpr double MIN_CHUNK_S = 1;

const char* const EMBEDDED_CATALOGUE = "eval/datasets.yaml";
const char* const EMBEDDED_SOURCE = "<embedded eval/datasets.yaml>";

const std::vector<std::string> KEYS{"catalogue", "datasets", "model_params_b", "gpus_per_trial",
                                    "weight_bytes_per_param", "pcie_GBps", "chunk_s", "campaigns_s",
                                    "every_checkpoints", "trigger_min_gpus"};
const std::vector<std::string> DATASET_KEYS{"name", "inference_s", "preprocess_s", "metric_s", "cached"};

// `inference_s: {7: 114, 20: 260}`: sizes in billions of parameters, strictly increasing.
bool read_inference_table(ConfigChecker& checker, const ConfigNode& node, const std::string& key,
                          std::vector<std::pair<double, double>>& out)
{
  if (!checker.expect_map(node, key))
    return false;
  if (node.entries.empty()) {
    checker.error(node, key, "expected at least one {billions of parameters: seconds} entry, e.g. {7: 114}");
    return false;
  }
  bool ok = true;
  double previous = 0;
  for (const auto& entry : node.entries) {
    const std::string entry_key = join_key(key, entry.key);
    // The size is a map key: check it as a number written where the key is.
    const ConfigNode size_node = ConfigNode::make_scalar(entry.key, entry.key_where);
    const auto size = checker.number(size_node, entry_key, positive_up_to(MAX_PARAMS_BILLION));
    const auto seconds = checker.number(entry.value, entry_key, positive_up_to(MAX_SECONDS));
    if (!size || !seconds) {
      ok = false;
      continue;
    }
    // Interpolation walks the table in order; out of order, it would pick the wrong neighbours.
    if (*size <= previous) {
      checker.error(entry.key_where, entry_key, entry.key,
                    "model sizes must increase strictly; the previous size is " + format_number(previous));
      ok = false;
    }
    previous = std::max(previous, *size);
    out.emplace_back(*size, *seconds);
  }
  return ok;
}

std::optional<DatasetEntry> read_dataset(ConfigChecker& checker, const ConfigNode& node, const std::string& key)
{
  MapReader m(checker, &node, key, DATASET_KEYS);
  if (!m.ok())
    return std::nullopt;
  if (node.kind == ConfigNode::Kind::Null) { // a bare `-`: MapReader accepts it as an empty map
    checker.error(node, key, "expected a dataset {name: ..., inference_s: {7: s}, preprocess_s: s, metric_s: s}");
    return std::nullopt;
  }
  DatasetEntry d;
  bool ok = m.require("name") && m.read("name", d.name);
  if (m.require("inference_s"))
    ok = read_inference_table(checker, *m.get("inference_s"), m.key_of("inference_s"), d.inference_s) && ok;
  else
    ok = false;
  const NumberRange seconds = number_between(0, MAX_SECONDS);
  ok = m.require("preprocess_s") && m.read("preprocess_s", d.preprocess_s, seconds) && ok;
  ok = m.require("metric_s") && m.read("metric_s", d.metric_s, seconds) && ok;
  if (m.get("cached"))
    ok = m.read("cached", d.cached) && ok;
  return ok ? std::optional<DatasetEntry>(std::move(d)) : std::nullopt;
}

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
DatasetCatalogue read_catalogue(MapReader& m, const std::string& base_dir, bool& clean)
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

  const fs::path path(written);
  const std::string resolved = (path.is_absolute() ? path : fs::path(base_dir) / path).lexically_normal().string();
  const ConfigNode& node = *m.get("catalogue");
  std::error_code ec;
  if (!fs::exists(resolved, ec)) {
    m.checker().error(node, m.key_of("catalogue"),
                      "catalogue file not found: " + resolved +
                          " (a relative path starts at the scenario's directory; `default` takes the built-in one)");
    return {};
  }
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

// `campaigns_s: [0, 3600]`; an empty list leaves only campaigns triggered by checkpoints
// (checked by read_evaluation). Non-finite values (.inf, .nan) are refused by the number reader.
void read_campaigns(MapReader& m, std::vector<double>& out)
{
  read_list(m, "campaigns_s", "", out, [&](const ConfigNode& item, const std::string& key, const std::vector<double>&) {
    return m.checker().number(item, key, number_between(0, MAX_SECONDS));
  });
}

} // namespace

DatasetCatalogue parse_dataset_catalogue(std::string_view text, const std::string& source_name, DiagnosticList& diags)
{
  DatasetCatalogue catalogue;
  catalogue.source = source_name;
  const std::optional<ConfigNode> root = parse_config(text, {source_name, SourceLabel::Style::LineColumn}, diags);
  if (!root)
    return catalogue;
  ConfigChecker checker(diags);
  MapReader top(checker, &*root, "", {"datasets"});
  if (!top.ok() || !top.require("datasets"))
    return catalogue;
  const ConfigNode& list = *top.get("datasets");
  if (!checker.expect_list(list, "datasets"))
    return catalogue;
  if (list.items.empty()) {
    checker.error(list, "datasets", "expected at least one dataset");
    return catalogue;
  }
  for (std::size_t i = 0; i < list.items.size(); ++i) {
    const std::string key = join_key("datasets", std::to_string(i));
    std::optional<DatasetEntry> d = read_dataset(checker, list.items[i], key);
    if (!d)
      continue;
    // Campaigns and scenarios name datasets: two entries of one name would make that ambiguous.
    if (const DatasetEntry* first = catalogue.find(d->name)) {
      checker.error(*list.items[i].find("name"), join_key(key, "name"),
                    "dataset name used twice; its first entry is datasets." +
                        std::to_string(first - catalogue.datasets.data()));
      continue;
    }
    catalogue.datasets.push_back(std::move(*d));
  }
  return catalogue;
}

EvalSpec read_evaluation(ConfigChecker& checker, const ConfigNode& node, const std::string& base_dir)
{
  EvalSpec spec;
  spec.campaigns_s = {0};
  MapReader m(checker, &node, "evaluation", KEYS);
  if (!m.ok())
    return spec;
  spec.enabled = true; // writing the section asks for evaluation campaigns

  bool catalogue_clean = false;
  spec.catalogue = read_catalogue(m, base_dir, catalogue_clean);
  // Against a broken catalogue every name could look unknown: its own errors say enough.
  read_dataset_names(m, spec.catalogue, catalogue_clean, spec.datasets);
  m.read("model_params_b", spec.model_params_b, positive_up_to(MAX_PARAMS_BILLION));
  m.read("gpus_per_trial", spec.gpus_per_trial, integer_between(1, MAX_GPUS_PER_TRIAL));
  m.read("weight_bytes_per_param", spec.weight_bytes_per_param, positive_up_to(MAX_BYTES_PER_PARAM));
  m.read("pcie_GBps", spec.pcie_GBps, positive_up_to(MAX_PCIE_GBPS));
  if (const ConfigNode* n = m.get("chunk_s")) {
    const auto v = checker.number(*n, m.key_of("chunk_s"), number_between(0, MAX_SECONDS));
    if (v && *v > 0 && *v < MIN_CHUNK_S)
      checker.error(*n, m.key_of("chunk_s"),
                    "expected 0 (never cut datasets) or a chunk length of at least " + format_number(MIN_CHUNK_S) +
                        " s");
    else if (v)
      spec.chunk_s = *v;
  }
  read_campaigns(m, spec.campaigns_s);
  m.read("every_checkpoints", spec.every_checkpoints, integer_between(0, 1e6));
  m.read("trigger_min_gpus", spec.trigger_min_gpus, integer_between(1, 1e6));
  if (spec.campaigns_s.empty() && spec.every_checkpoints == 0)
    checker.error(*m.get("campaigns_s"), m.key_of("campaigns_s"),
                  "expected at least one campaign submission time in seconds, e.g. [0], or campaigns triggered by "
                  "checkpoints (every_checkpoints > 0)");
  return spec;
}

} // namespace acmesim
