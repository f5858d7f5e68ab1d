// The key declarations: every key is described in full, the reference lists what the policy
// registrations declare, and reading refuses exactly the keys the reference does not list.
#include "sim/config/DatasetCatalogueFile.hpp"
#include "sim/config/ScenarioKeys.hpp"
#include "sim/policies/Registries.hpp"
#include "tests/support/ScenarioTestInputs.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace acmesim;
using namespace acmesim::testing;

namespace {

std::vector<KeyDoc> every_key()
{
  std::vector<KeyDoc> docs = scenario_key_docs();
  for (auto& doc : catalogue_key_docs())
    docs.push_back(std::move(doc));
  return docs;
}

bool contains(const std::vector<std::string>& names, const std::string& name)
{
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The names of the keys the reference lists directly under `path`, in order; with `form`, only
// those whose help says they belong to it ("by hand", "with preset").
std::vector<std::string> children_of(const std::vector<KeyDoc>& docs, const std::string& path,
                                     const std::string& form = "")
{
  std::vector<std::string> names;
  const std::string prefix = path.empty() ? "" : path + ".";
  for (const auto& doc : docs)
    if (doc.path.starts_with(prefix) && doc.path.find('.', prefix.size()) == std::string::npos &&
        doc.help.starts_with(form))
      names.push_back(doc.path.substr(prefix.size()));
  return names;
}

// A map of the reference, and a scenario in which `--set <key>.undeclared=1` lands in it.
struct MapCase {
  std::string reference_path;
  std::string scenario;
  std::string key; // the map's path in that scenario
  std::string form;
};

} // namespace

TEST_CASE("every declared key has a type, a unit or none said, what it accepts, a default and help")
{
  const auto docs = every_key();
  CHECK(docs.size() > 150);
  for (const auto& doc : docs) {
    INFO(doc.path);
    CHECK_FALSE(doc.path.empty());
    CHECK_FALSE(doc.type.empty());
    CHECK_FALSE(doc.unit.empty()); // NO_UNIT when the value has none
    CHECK_FALSE(doc.accepts.empty());
    CHECK_FALSE(doc.default_value.empty());
    CHECK_FALSE(doc.help.empty());
  }
}

TEST_CASE("every plain default is a value its key accepts")
{
  int numbers = 0;
  int names = 0;
  for (const auto& doc : every_key())
    for (const Json& value : doc.default_values) {
      INFO(doc.path << " = " << value.dump());
      if (value.is_number()) {
        REQUIRE(doc.numbers);
        CHECK(doc.numbers->contains(value.get<double>()));
        ++numbers;
      } else if (!doc.choices.empty()) {
        CHECK(contains(doc.choices, value.is_string() ? value.get<std::string>() : value.dump()));
        ++names;
      }
    }
  // Most defaults are plain numbers and names: the check above has something to check.
  CHECK(numbers > 60);
  CHECK(names > 10);
}

TEST_CASE("every number a scenario takes has a physical range: bounded above, and no arbitrarily small positive")
{
  // A value of 1e-320 GB/s or 1e308 for a ratio is a typo or an attack, never a cluster: each key
  // declares the range a real system could have, so such values are refused before anything runs.
  std::vector<std::string> unbounded;
  for (const auto& doc : every_key()) {
    if (!doc.numbers)
      continue;
    const NumberRange& r = *doc.numbers;
    const bool bounded_above = r.max < 1e300;
    const bool floor_below = r.min > -1e300 && !(r.min_exclusive && r.min == 0);
    if (!bounded_above || !floor_below)
      unbounded.push_back(doc.path + " (" + r.describe() + ")");
  }
  INFO(join_names(unbounded));
  CHECK(unbounded.empty());
}

TEST_CASE("the reference lists every policy and every parameter its registration declares")
{
  const auto docs = scenario_key_docs();
  const auto doc_of = [&](const std::string& path) {
    return std::find_if(docs.begin(), docs.end(), [&](const KeyDoc& d) { return d.path == path; });
  };
  CHECK(doc_of("scheduler.name")->choices == scheduler_registry().names());
  CHECK(doc_of("scheduler.placement")->choices == placement_registry().names());
  CHECK(doc_of("recovery.name")->choices == recovery_registry().names());
  const auto check_params = [&](const std::string& section, const std::vector<const PolicyInfo*>& policies) {
    for (const PolicyInfo* policy : policies)
      for (const auto& param : policy->params) {
        const std::string path = section + "." + param.name;
        INFO(path << " of " << policy->name);
        CHECK(std::any_of(docs.begin(), docs.end(), [&](const KeyDoc& d) {
          return d.path == path && d.help.starts_with("with name " + policy->name + ": ") &&
                 d.default_values == std::vector<Json>{param.default_value};
        }));
      }
  };
  check_params("scheduler", scheduler_registry().policies());
  check_params("recovery", recovery_registry().policies());
}

TEST_CASE("reading refuses a key the reference does not list in a map, naming those it lists")
{
  const std::string pods = "cluster: {pods: [{nodes: 2}]}\n" + WORKLOAD;
  const std::vector<MapCase> cases{
      {"", SEREN + WORKLOAD, "", ""},
      {"cluster", SEREN + WORKLOAD, "cluster", ""},
      {"cluster.fabric", SEREN + WORKLOAD, "cluster.fabric", ""},
      {"cluster.storage", SEREN + WORKLOAD, "cluster.storage", ""},
      {"cluster.pods.<i>", pods, "cluster.pods.0", ""},
      {"cluster.pods.<i>.fabric", pods, "cluster.pods.0.fabric", ""},
      {"workload", SEREN + WORKLOAD, "workload", ""},
      {"workload.synthetic", SEREN + WORKLOAD, "workload.synthetic", "by hand"},
      {"workload.synthetic", SEREN + "workload: {synthetic: {preset: seren}}\n", "workload.synthetic", "with preset"},
      {"workload.synthetic.types.<type>", SEREN + WORKLOAD, "workload.synthetic.types.Eval", ""},
      {"workload.synthetic.types.<type>.gpus", SEREN + WORKLOAD, "workload.synthetic.types.Eval.gpus", ""},
      {"failures", SEREN + WORKLOAD + "failures: {model: acme}\n", "failures", ""},
      {"failures.components.<component>", SEREN + WORKLOAD + "failures: {model: acme}\n", "failures.components.gpu",
       ""},
      {"checkpoint", SEREN + WORKLOAD, "checkpoint", ""},
      {"evaluation", SEREN + "evaluation: {}\n", "evaluation", ""},
      {"output", SEREN + WORKLOAD, "output", ""},
  };
  const auto docs = scenario_key_docs();
  for (const auto& c : cases) {
    const std::string key = c.key.empty() ? "undeclared" : c.key + ".undeclared";
    INFO(key << " " << c.form);
    const Diagnostic d = single_error(c.scenario, {key + "=1"});
    CHECK(d.key == key);
    CHECK(d.message == "unknown key; valid keys here: " + join_names(children_of(docs, c.reference_path, c.form)));
  }
  const Diagnostic rule =
      single_error(SEREN + WORKLOAD, {"checkpoint.model_sizes=[{max_gpus: 8, params_b: 7, undeclared: 1}]"});
  CHECK(rule.message ==
        "unknown key; valid keys here: " + join_names(children_of(docs, "checkpoint.model_sizes.<i>")));

  DiagnosticList catalogue;
  parse_dataset_catalogue("datasets:\n  - {name: a, inference_s: {7: 1}, preprocess_s: 1, metric_s: 0, undeclared: 1}\n",
                          "cat.yaml", catalogue);
  REQUIRE(catalogue.size() == 1);
  CHECK(catalogue.items()[0].message ==
        "unknown key; valid keys here: " + join_names(children_of(catalogue_key_docs(), "datasets.<i>")));
}
