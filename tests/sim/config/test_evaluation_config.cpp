// The evaluation configuration: dataset catalogue files and the `evaluation:` section of a
// scenario, with their diagnostics.
#include "models/common/InputError.hpp"
#include "models/evaluation/EvalCampaign.hpp"
#include "sim/config/EvaluationSection.hpp"
#include "sim/config/ScenarioLoader.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace acmesim;
using Catch::Contains;

namespace {

namespace fs = std::filesystem;

DatasetCatalogue parse(const std::string& text, DiagnosticList& diags)
{
  return parse_dataset_catalogue(text, "cat.yaml", diags);
}

// The one diagnostic of `diags` about `key`; fails the test unless there is exactly one.
Diagnostic only_about(const DiagnosticList& diags, const std::string& key)
{
  std::vector<Diagnostic> found;
  for (const auto& d : diags.items())
    if (d.key == key)
      found.push_back(d);
  INFO("diagnostics: " << [&] {
    std::string all;
    for (const auto& d : diags.items())
      all += d.to_string() + "\n";
    return all;
  }());
  REQUIRE(found.size() == 1);
  return found.front();
}

// A valid cluster; the evaluation section replaces the workload.
const std::string BASE = "cluster:\n"
                         "  preset: seren\n"
                         "evaluation:\n";

std::vector<Diagnostic> scenario_errors(const std::string& section_lines, const std::string& base_dir = ".")
{
  try {
    load_scenario_text(BASE + section_lines, "eval.yaml", base_dir);
  } catch (const InputError& e) {
    return e.diagnostics();
  }
  return {};
}

// Exactly one diagnostic, about `key`, containing `text` in its message.
void expect_one_error(const std::string& section_lines, const std::string& key, const std::string& text)
{
  const auto errors = scenario_errors(section_lines);
  std::string all;
  for (const auto& e : errors)
    all += e.to_string() + "\n";
  INFO(section_lines << "gave:\n" << all);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].key == key);
  CHECK_THAT(errors[0].message, Contains(text));
  CHECK_THAT(errors[0].where, Contains("eval.yaml:"));
}

// A scratch directory removed at the end of the test.
struct TempDir {
  fs::path path;
  TempDir()
  {
    const auto tick = std::chrono::steady_clock::now().time_since_epoch().count();
    path = fs::temp_directory_path() / ("acmesim-eval-" + std::to_string(tick));
    fs::create_directories(path);
  }
  ~TempDir()
  {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  void write(const std::string& name, const std::string& text) const { std::ofstream(path / name) << text; }
};

} // namespace

// --- catalogue validation --------------------------------------------------------------------

TEST_CASE("a catalogue entry with a missing field is rejected naming the key")
{
  DiagnosticList diags;
  const auto cat = parse("datasets:\n"
                         "  - {name: a, inference_s: {7: 10}, preprocess_s: 1, metric_s: 2}\n"
                         "  - {name: b, inference_s: {7: 10}, preprocess_s: 1}\n",
                         diags);
  const Diagnostic d = only_about(diags, "datasets.1.metric_s");
  CHECK_THAT(d.where, Contains("cat.yaml:3"));
  CHECK_THAT(d.message, Contains("missing"));
  CHECK(diags.size() == 1);
  CHECK(cat.datasets.size() == 1);

  DiagnosticList no_inference;
  parse("datasets:\n  - {name: a, preprocess_s: 1, metric_s: 2}\n", no_inference);
  only_about(no_inference, "datasets.0.inference_s");
  DiagnosticList no_name;
  parse("datasets:\n  - {inference_s: {7: 1}, preprocess_s: 1, metric_s: 2}\n", no_name);
  only_about(no_name, "datasets.0.name");
}

TEST_CASE("a catalogue entry with a negative field is rejected naming the key and value")
{
  DiagnosticList diags;
  parse("datasets:\n"
        "  - name: a\n"
        "    inference_s: {7: 10}\n"
        "    preprocess_s: 1\n"
        "    metric_s: -5\n",
        diags);
  const Diagnostic d = only_about(diags, "datasets.0.metric_s");
  CHECK(d.where == "cat.yaml:5:15");
  CHECK(d.value == "-5");
  CHECK_THAT(d.message, Contains(">= 0") || Contains("between 0"));

  DiagnosticList pre;
  parse("datasets:\n  - {name: a, inference_s: {7: 10}, preprocess_s: -1, metric_s: 0}\n", pre);
  CHECK(only_about(pre, "datasets.0.preprocess_s").value == "-1");
  DiagnosticList inf;
  parse("datasets:\n  - {name: a, inference_s: {7: -10}, preprocess_s: 1, metric_s: 0}\n", inf);
  CHECK(only_about(inf, "datasets.0.inference_s.7").value == "-10");
  DiagnosticList zero;
  parse("datasets:\n  - {name: a, inference_s: {7: 0}, preprocess_s: 1, metric_s: 0}\n", zero);
  only_about(zero, "datasets.0.inference_s.7");
}

TEST_CASE("catalogue tables, names and flags are validated")
{
  DiagnosticList order;
  parse("datasets:\n  - {name: a, inference_s: {20: 100, 7: 50}, preprocess_s: 1, metric_s: 0}\n", order);
  CHECK_THAT(only_about(order, "datasets.0.inference_s.7").message, Contains("increase strictly"));

  DiagnosticList size;
  parse("datasets:\n  - {name: a, inference_s: {big: 100}, preprocess_s: 1, metric_s: 0}\n", size);
  CHECK(only_about(size, "datasets.0.inference_s.big").value == "big");

  DiagnosticList empty;
  parse("datasets:\n  - {name: a, inference_s: {}, preprocess_s: 1, metric_s: 0}\n", empty);
  only_about(empty, "datasets.0.inference_s");

  DiagnosticList twice;
  const auto cat = parse("datasets:\n"
                         "  - {name: a, inference_s: {7: 1}, preprocess_s: 1, metric_s: 0}\n"
                         "  - {name: a, inference_s: {7: 2}, preprocess_s: 1, metric_s: 0}\n",
                         twice);
  CHECK_THAT(only_about(twice, "datasets.1.name").message, Contains("datasets.0"));
  CHECK(cat.datasets.size() == 1);

  DiagnosticList flag;
  parse("datasets:\n  - {name: a, inference_s: {7: 1}, preprocess_s: 1, metric_s: 0, cached: maybe}\n", flag);
  only_about(flag, "datasets.0.cached");

  DiagnosticList extra;
  parse("datasets:\n  - {name: a, inference_s: {7: 1}, preprocess_s: 1, metric_s: 0, metric: 3}\n", extra);
  CHECK_THAT(only_about(extra, "datasets.0.metric").message, Contains("valid keys"));

  DiagnosticList none;
  parse("datasets: []\n", none);
  only_about(none, "datasets");
  DiagnosticList missing;
  parse("dataset: []\n", missing);
  CHECK(missing.size() == 2); // the unknown key and the missing one

  DiagnosticList ok;
  const auto good = parse("datasets:\n  - {name: a, inference_s: {7: 1, 70: 9}, preprocess_s: 0, metric_s: 0}\n", ok);
  CHECK(ok.empty());
  REQUIRE(good.datasets.size() == 1);
  CHECK_FALSE(good.datasets[0].cached);
  CHECK(good.source == "cat.yaml");
}

// --- the evaluation section ------------------------------------------------------------------

TEST_CASE("the evaluation section reads its keys and defaults")
{
  const Scenario s = load_scenario_text(BASE + "  model_params_b: 20\n", "eval.yaml", ".");
  CHECK(s.evaluation.enabled);
  CHECK(s.evaluation.catalogue.datasets.size() == 63);
  CHECK(s.evaluation.catalogue.source == "<embedded default>");
  CHECK(s.evaluation.datasets.empty());
  CHECK(s.evaluation.model_params_b == 20);
  CHECK(s.evaluation.gpus_per_trial == 1);
  CHECK(s.evaluation.weight_bytes_per_param == 2);
  CHECK(s.evaluation.pcie_GBps == 25);
  CHECK(s.evaluation.chunk_s == 0);
  CHECK(s.evaluation.campaigns_s == std::vector<double>{0});

  const Scenario t = load_scenario_text(BASE +
                                            "  catalogue: default\n"
                                            "  datasets: [humaneval, mmlu]\n"
                                            "  gpus_per_trial: 2\n"
                                            "  weight_bytes_per_param: 1\n"
                                            "  pcie_GBps: 12.5\n"
                                            "  chunk_s: 300\n"
                                            "  campaigns_s: [0, 1800, 3600]\n",
                                        "eval.yaml", ".");
  CHECK(t.evaluation.datasets == std::vector<std::string>{"humaneval", "mmlu"});
  CHECK(t.evaluation.gpus_per_trial == 2);
  CHECK(t.evaluation.weight_bytes_per_param == 1);
  CHECK(t.evaluation.pcie_GBps == 12.5);
  CHECK(t.evaluation.chunk_s == 300);
  CHECK(t.evaluation.campaigns_s == std::vector<double>{0, 1800, 3600});
}

TEST_CASE("evaluation section values out of range are rejected with their key")
{
  expect_one_error("  model_params_b: 0\n", "evaluation.model_params_b", "between 1e-06 and 100000");
  expect_one_error("  model_params_b: -7\n", "evaluation.model_params_b", "between 1e-06 and 100000");
  expect_one_error("  gpus_per_trial: 0\n", "evaluation.gpus_per_trial", "between 1 and 64");
  expect_one_error("  gpus_per_trial: 65\n", "evaluation.gpus_per_trial", "between 1 and 64");
  expect_one_error("  gpus_per_trial: 1.5\n", "evaluation.gpus_per_trial", "integer");
  expect_one_error("  weight_bytes_per_param: 0\n", "evaluation.weight_bytes_per_param", "between 0.125 and");
  expect_one_error("  pcie_GBps: -1\n", "evaluation.pcie_GBps", "between 0.001 and");
  expect_one_error("  pcie_GBps: 1e-308\n", "evaluation.pcie_GBps", "between 0.001 and");
  expect_one_error("  chunk_s: -10\n", "evaluation.chunk_s", "between 0");
  expect_one_error("  chunk_s: 0.001\n", "evaluation.chunk_s", "at least 1");
  expect_one_error("  campaigns_s: []\n", "evaluation.campaigns_s", "at least one");
  expect_one_error("  campaigns_s: [0, -5]\n", "evaluation.campaigns_s.1", "between 0");
  expect_one_error("  campaigns_s: [.inf]\n", "evaluation.campaigns_s.0", "between 0");
  expect_one_error("  campaigns_s: [.nan]\n", "evaluation.campaigns_s.0", "between 0");
  expect_one_error("  campaigns_s: 5\n", "evaluation.campaigns_s", "list");
}

TEST_CASE("evaluation section unknown keys and dataset names are rejected with the valid ones")
{
  expect_one_error("  model_size: 7\n", "evaluation.model_size", "model_params_b");
  expect_one_error("  datasets: [humaneval, humaneval2]\n", "evaluation.datasets.1", "unknown dataset");
  const auto errors = scenario_errors("  datasets: [humaneval, humaneval2]\n");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].value == "humaneval2");
  CHECK_THAT(errors[0].message, Contains("e.g. mmlu"));
  CHECK(errors[0].where == "eval.yaml:4:25");
  expect_one_error("  datasets: [mmlu, gsm8k, mmlu]\n", "evaluation.datasets.2", "twice");
  expect_one_error("  datasets: []\n", "evaluation.datasets", "at least one");
}

TEST_CASE("evaluation catalogue files resolve against the scenario and are validated")
{
  TempDir dir;
  dir.write("cat.yaml", "datasets:\n"
                        "  - {name: tiny, inference_s: {7: 60}, preprocess_s: 5, metric_s: 1}\n"
                        "  - {name: judge, inference_s: {7: 300}, preprocess_s: 5, metric_s: 900}\n");
  const Scenario s = load_scenario_text(BASE + "  catalogue: cat.yaml\n  datasets: [judge]\n", "eval.yaml",
                                        dir.path.string());
  CHECK(s.evaluation.catalogue.datasets.size() == 2);
  CHECK(s.evaluation.catalogue.source == (dir.path / "cat.yaml").string());
  CHECK(s.evaluation.datasets == std::vector<std::string>{"judge"});

  // A missing file, named with where it was looked for.
  const auto missing = scenario_errors("  catalogue: nope.yaml\n", dir.path.string());
  REQUIRE(missing.size() == 1);
  CHECK(missing[0].key == "evaluation.catalogue");
  CHECK_THAT(missing[0].message, Contains("not found"));
  CHECK_THAT(missing[0].message, Contains("nope.yaml"));

  // Errors inside the catalogue point into the catalogue file, not the scenario; dataset names
  // are not checked against a broken catalogue.
  dir.write("bad.yaml", "datasets:\n"
                        "  - {name: tiny, inference_s: {7: 60}, preprocess_s: 5, metric_s: -1}\n");
  const auto bad = scenario_errors("  catalogue: bad.yaml\n  datasets: [tiny]\n", dir.path.string());
  REQUIRE(bad.size() == 1);
  CHECK(bad[0].key == "datasets.0.metric_s");
  CHECK(bad[0].value == "-1");
  CHECK_THAT(bad[0].where, Contains("bad.yaml:2:"));
}

TEST_CASE("read_evaluation works on a parsed section directly")
{
  DiagnosticList diags;
  const auto root = parse_config("evaluation:\n  chunk_s: 120\n  datasets: [mbpp]\n", {"direct.yaml"}, diags);
  REQUIRE(root);
  ConfigChecker checker(diags);
  const EvalSpec spec = read_evaluation(checker, *root->find("evaluation"));
  CHECK(diags.empty());
  CHECK(spec.enabled);
  CHECK(spec.chunk_s == 120);
  Workload w;
  append_eval_campaigns(spec, w);
  // MBPP at 7B: 240 s of inference in 120 s chunks.
  REQUIRE(w.jobs.size() == 2);
  CHECK(w.jobs[0].name == "eval0-mbpp-0");
  CHECK(w.jobs[1].name == "eval0-mbpp-1");
}
