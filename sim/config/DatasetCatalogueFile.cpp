#include "sim/config/DatasetCatalogueFile.hpp"

#include "sim/config/PhysicalRanges.hpp"
#include "sim/keys/KeyTable.hpp"

#include <algorithm>

namespace acmesim {

namespace {

// Bounds past which a value is a typing or unit error rather than a what-if.

// The catalogue's one top-level key.
const char* const DATASETS = "datasets";

using D = DatasetEntry;

// `inference_s: {7: 114, 20: 260}`: sizes in billions of parameters, strictly increasing.
bool read_inference_table(ConfigChecker& checker, const ConfigNode& node, const std::string& key, D& dataset)
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
    const auto size = checker.number(size_node, entry_key, physical::PARAMS_BILLION);
    const auto seconds = checker.number(entry.value, entry_key, physical::SECONDS);
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
    dataset.inference_s.emplace_back(*size, *seconds);
  }
  return ok;
}

const KeyTable<D>& dataset_keys()
{
  static const KeyTable<D> keys({
      value_key("name", &D::name, "the dataset's name, distinct within the catalogue").required(),
      ConfigKey<D>(other_doc("inference_s", "map of numbers", "{billions of parameters: seconds}, sizes increasing",
                             "GPU inference seconds of the whole dataset on one trial, by model size (other sizes: "
                             "log-log interpolation)"),
                   node_reader<D>(read_inference_table), {})
          .required(),
      number_key("preprocess_s", &D::preprocess_s, physical::SECONDS_OR_NONE, "s",
                 "tokenisation on CPU before inference")
          .required(),
      number_key("metric_s", &D::metric_s, physical::SECONDS_OR_NONE, "s",
                 "metric computation on CPU after inference (code execution, judges)")
          .required(),
      value_key("cached", &D::cached, "tokenised inputs are cached: no preprocessing"),
  });
  return keys;
}

std::optional<DatasetEntry> read_dataset(ConfigChecker& checker, const ConfigNode& node, const std::string& key)
{
  MapReader m(checker, &node, key, dataset_keys().names());
  if (!m.ok())
    return std::nullopt;
  if (node.kind == ConfigNode::Kind::Null) { // a bare `-`: MapReader accepts it as an empty map
    checker.error(node, key, "expected a dataset {name: ..., inference_s: {7: s}, preprocess_s: s, metric_s: s}");
    return std::nullopt;
  }
  DatasetEntry dataset;
  return dataset_keys().read(m, dataset) ? std::optional<DatasetEntry>(std::move(dataset)) : std::nullopt;
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
  MapReader top(checker, &*root, "", {DATASETS});
  if (!top.ok() || !top.require(DATASETS))
    return catalogue;
  const ConfigNode& list = *top.get(DATASETS);
  if (!checker.expect_list(list, DATASETS))
    return catalogue;
  if (list.items.empty()) {
    checker.error(list, DATASETS, "expected at least one dataset");
    return catalogue;
  }
  for (std::size_t i = 0; i < list.items.size(); ++i) {
    const std::string key = join_key(DATASETS, std::to_string(i));
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

std::vector<KeyDoc> catalogue_key_docs()
{
  KeyDoc list = other_doc(DATASETS, "list of maps", "at least one dataset", "the datasets of the catalogue");
  list.default_value = "required";
  std::vector<KeyDoc> docs{list};
  for (const auto& doc : dataset_keys().docs(join_key(DATASETS, "<i>"), DatasetEntry{}))
    docs.push_back(doc);
  return docs;
}

} // namespace acmesim
