// Evaluation campaigns: the dataset catalogue, chunks of datasets, campaign jobs, LPT packing,
// and the `evaluation:` section with its diagnostics.
#include "models/common/InputError.hpp"
#include "models/evaluation/EvalCampaign.hpp"
#include "models/evaluation/TrialPacking.hpp"
#include "sim/config/EmbeddedConfigs.hpp"
#include "sim/config/EvaluationSection.hpp"
#include "sim/config/ScenarioLoader.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

using namespace acmesim;
using Catch::Contains;

namespace {

namespace fs = std::filesystem;

DatasetEntry entry(std::string name, std::vector<std::pair<double, double>> inference, double preprocess,
                   double metric, bool cached = false)
{
  DatasetEntry d;
  d.name = std::move(name);
  d.inference_s = std::move(inference);
  d.preprocess_s = preprocess;
  d.metric_s = metric;
  d.cached = cached;
  return d;
}

EvalSpec small_spec()
{
  EvalSpec spec;
  spec.enabled = true;
  spec.catalogue.datasets = {entry("long", {{7, 1000}}, 30, 60), entry("short", {{7, 100}}, 10, 5),
                             entry("warm", {{7, 200}}, 40, 2, true)};
  spec.campaigns_s = {0};
  return spec;
}

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

// --- catalogue maths -------------------------------------------------------------------------

TEST_CASE("inference time is exact at table sizes and log-log interpolated between them")
{
  DatasetCatalogue cat;
  const DatasetEntry d = entry("d", {{7, 100}, {20, 250}, {70, 1000}}, 0, 0);
  CHECK(cat.inference_s(d, 7) == Approx(100));
  CHECK(cat.inference_s(d, 20) == Approx(250));
  CHECK(cat.inference_s(d, 70) == Approx(1000));
  // The geometric midpoint of two sizes gets the geometric mean of their times.
  CHECK(cat.inference_s(d, std::sqrt(20.0 * 70.0)) == Approx(std::sqrt(250.0 * 1000.0)));
  CHECK(cat.inference_s(d, std::sqrt(7.0 * 20.0)) == Approx(std::sqrt(100.0 * 250.0)));
  // Monotone between points.
  CHECK(cat.inference_s(d, 10) > 100);
  CHECK(cat.inference_s(d, 10) < 250);
}

TEST_CASE("inference time is proportional to parameters beyond the table and for a single size")
{
  DatasetCatalogue cat;
  const DatasetEntry d = entry("d", {{7, 100}, {70, 1000}}, 0, 0);
  CHECK(cat.inference_s(d, 3.5) == Approx(50));
  CHECK(cat.inference_s(d, 140) == Approx(2000));
  const DatasetEntry single = entry("s", {{7, 114}}, 0, 0);
  CHECK(cat.inference_s(single, 7) == Approx(114));
  CHECK(cat.inference_s(single, 14) == Approx(228));
  CHECK(cat.inference_s(single, 3.5) == Approx(57));
}

TEST_CASE("find looks datasets up by exact name")
{
  const EvalSpec spec = small_spec();
  REQUIRE(spec.catalogue.find("short") != nullptr);
  CHECK(spec.catalogue.find("short")->metric_s == 5);
  CHECK(spec.catalogue.find("Short") == nullptr);
  CHECK(spec.catalogue.find("") == nullptr);
}

// --- chunks and campaign jobs ----------------------------------------------------------------

TEST_CASE("cut_dataset splits a long dataset into equal chunks whose shares sum to its totals")
{
  EvalSpec spec = small_spec();
  spec.chunk_s = 300;
  const auto chunks = cut_dataset(spec, 2, 0); // "long": 1000 s of inference -> 4 chunks of 250 s
  REQUIRE(chunks.size() == 4);
  double pre = 0, inf = 0, met = 0;
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    CHECK(chunks[k].campaign == 2);
    CHECK(chunks[k].dataset == 0);
    CHECK(chunks[k].chunk == static_cast<int>(k));
    CHECK(chunks[k].chunks == 4);
    CHECK(chunks[k].inference_s == Approx(250));
    CHECK(chunks[k].model_bytes == Approx(7e9 * 2));
    pre += chunks[k].preprocess_s;
    inf += chunks[k].inference_s;
    met += chunks[k].metric_s;
  }
  CHECK(pre == Approx(30));
  CHECK(inf == Approx(1000));
  CHECK(met == Approx(60));

  // A dataset no longer than chunk_s stays whole; an exact multiple does not gain a chunk.
  CHECK(cut_dataset(spec, 0, 1).size() == 1);
  spec.chunk_s = 250;
  CHECK(cut_dataset(spec, 0, 0).size() == 4);
  spec.chunk_s = 0;
  const auto whole = cut_dataset(spec, 0, 0);
  REQUIRE(whole.size() == 1);
  CHECK(whole[0].preprocess_s == 30);
  CHECK(whole[0].inference_s == 1000);
  CHECK(whole[0].metric_s == 60);
}

TEST_CASE("cut_dataset skips preprocessing of cached datasets and scales with the model")
{
  EvalSpec spec = small_spec();
  spec.model_params_b = 14;
  spec.weight_bytes_per_param = 1;
  const auto warm = cut_dataset(spec, 0, 2);
  REQUIRE(warm.size() == 1);
  CHECK(warm[0].preprocess_s == 0);
  CHECK(warm[0].inference_s == Approx(400)); // single-size table: proportional
  CHECK(warm[0].metric_s == 2);
  CHECK(warm[0].model_bytes == Approx(14e9));
}

TEST_CASE("append_eval_campaigns adds one Eval job per dataset chunk and campaign in order")
{
  EvalSpec spec = small_spec();
  spec.datasets = {"short", "long"}; // the spec's order, not the catalogue's
  spec.chunk_s = 600;                // "long" -> 2 chunks
  spec.gpus_per_trial = 2;
  spec.campaigns_s = {100, 50};
  Workload w;
  w.jobs.push_back(Job{}); // a job already there: ids continue after it
  append_eval_campaigns(spec, w);

  REQUIRE(w.jobs.size() == 1 + 2 * 3);
  REQUIRE(w.eval_chunks.size() == 6);
  CHECK(w.eval_campaigns_s == std::vector<double>{100, 50});
  const std::vector<std::string> names{"eval0-short", "eval0-long-0", "eval0-long-1",
                                       "eval1-short", "eval1-long-0", "eval1-long-1"};
  for (std::size_t i = 0; i < names.size(); ++i) {
    const Job& job = w.jobs[i + 1];
    INFO(job.name);
    CHECK(job.id == i + 1);
    CHECK(job.name == names[i]);
    CHECK(job.user == "eval");
    CHECK(job.type == JobType::Eval);
    CHECK(job.gpus == 2);
    CHECK(job.trace_nodes == 1);
    CHECK(job.cpus == 0);
    CHECK(job.final_state == JobState::Completed);
    CHECK(job.submit_s == (i < 3 ? 100 : 50));
    REQUIRE(job.eval_chunk == static_cast<std::int32_t>(i));
    CHECK(job.eval_trial());
    const EvalChunk& c = w.eval_chunks[static_cast<std::size_t>(job.eval_chunk)];
    CHECK(c.campaign == (i < 3 ? 0u : 1u));
    CHECK(job.duration_s == Approx(c.preprocess_s + c.inference_s + c.metric_s));
  }
  CHECK(w.jobs[1].duration_s == Approx(10 + 100 + 5));
  CHECK(w.jobs[2].duration_s == Approx((30 + 1000 + 60) / 2.0));
  CHECK(w.eval_chunks[1].dataset == 0); // "long" is catalogue entry 0

  // Normalising sorts by submission and rebases campaign times with the jobs.
  normalise_workload(w);
  CHECK(w.jobs.front().submit_s == 0);
}

TEST_CASE("append_eval_campaigns evaluates every catalogue dataset when none are named")
{
  EvalSpec spec = small_spec();
  Workload w;
  append_eval_campaigns(spec, w);
  REQUIRE(w.jobs.size() == 3);
  CHECK(w.jobs[0].name == "eval0-long");
  CHECK(w.jobs[1].name == "eval0-short");
  CHECK(w.jobs[2].name == "eval0-warm");
  CHECK(w.jobs[2].duration_s == Approx(200 + 2)); // cached: no preprocessing
  CHECK(w.eval_campaigns_s == std::vector<double>{0});
}

// --- packing ---------------------------------------------------------------------------------

TEST_CASE("longest_first reaches the optimum where LPT is optimal, with its exact assignment")
{
  const std::vector<double> d{6, 5, 4, 3, 2, 2}; // total 22: 11 per slot is optimal
  const auto a = longest_first(d, 2);
  REQUIRE(a.size() == 2);
  // 6->0, 5->1, 4->1 (5 < 6), 3->0 (6 < 9), 2->0 (tie 9/9: lowest slot), 2->1.
  CHECK(a[0] == std::vector<std::size_t>{0, 3, 4});
  CHECK(a[1] == std::vector<std::size_t>{1, 2, 5});
  CHECK(packed_makespan(a, d) == Approx(11));
}

TEST_CASE("longest_first breaks ties by index and by lowest slot")
{
  const std::vector<double> d{1, 1, 1, 1, 1};
  const auto a = longest_first(d, 2);
  CHECK(a[0] == std::vector<std::size_t>{0, 2, 4});
  CHECK(a[1] == std::vector<std::size_t>{1, 3});
  CHECK(packed_makespan(a, d) == Approx(3));
  // Equal durations out of index order still go in index order.
  const std::vector<double> e{2, 5, 2, 5};
  const auto b = longest_first(e, 2);
  CHECK(b[0] == std::vector<std::size_t>{1, 0});
  CHECK(b[1] == std::vector<std::size_t>{3, 2});
  // The same input always gives the same answer.
  CHECK(longest_first(e, 2) == b);
}

TEST_CASE("longest_first handles more slots than items and no items")
{
  const auto a = longest_first({3, 7}, 4);
  REQUIRE(a.size() == 4);
  CHECK(a[0] == std::vector<std::size_t>{1});
  CHECK(a[1] == std::vector<std::size_t>{0});
  CHECK(a[2].empty());
  CHECK(a[3].empty());
  CHECK(packed_makespan(a, {3, 7}) == 7);
  const auto none = longest_first({}, 3);
  CHECK(none.size() == 3);
  CHECK(packed_makespan(none, {}) == 0);
}

// --- the default catalogue -------------------------------------------------------------------

TEST_CASE("the default catalogue parses with 63 datasets")
{
  const auto text = embedded_config_file("eval/datasets.yaml");
  REQUIRE(text);
  DiagnosticList diags;
  const DatasetCatalogue cat = parse_dataset_catalogue(*text, "<embedded eval/datasets.yaml>", diags);
  CHECK(diags.size() == 0);
  if (!diags.empty())
    FAIL_CHECK(diags.items().front().to_string());
  REQUIRE(cat.datasets.size() == 63);

  // Inference at 7B spans about 30 s to 20 min; about a fifth have a non-trivial metric phase.
  int long_metric = 0;
  for (const auto& d : cat.datasets) {
    INFO(d.name);
    const double inf = cat.inference_s(d, 7);
    CHECK(inf >= 30);
    CHECK(inf <= 1200);
    CHECK(d.metric_s <= 1800); // Acme: up to 30 min
    long_metric += d.metric_s >= 20 ? 1 : 0;
  }
  CHECK(long_metric >= 10);
  CHECK(long_metric <= 16);
  for (const char* name : {"mmlu", "gsm8k", "humaneval", "mbpp", "alpacaeval", "mtbench"})
    CHECK(cat.find(name) != nullptr);
}

TEST_CASE("the default HumanEval entry reproduces the published 7B trial profile")
{
  const auto text = embedded_config_file("eval/datasets.yaml");
  REQUIRE(text);
  DiagnosticList diags;
  const DatasetCatalogue cat = parse_dataset_catalogue(*text, "<embedded eval/datasets.yaml>", diags);
  const DatasetEntry* he = cat.find("humaneval");
  REQUIRE(he);
  CHECK_FALSE(he->cached);
  CHECK(he->metric_s == 42); // Acme §4.2: 42 s of program tests
  // The profile's load is 14 GB over a Seren NIC (25 Gb/s = 3.125 GB/s) shared by 8 trials.
  const double load = 7e9 * 2 / (25e9 / 8 / 8);
  const double trial = load + he->preprocess_s + cat.inference_s(*he, 7) + he->metric_s;
  // Tolerances: half a percentage point for the two published shares, 3 for "about half".
  CHECK(he->metric_s / trial == Approx(0.190).margin(0.005));
  CHECK((load + he->preprocess_s) / trial == Approx(0.295).margin(0.005));
  CHECK(load + he->preprocess_s > 60); // "over 1 minute"
  CHECK(cat.inference_s(*he, 7) / trial == Approx(0.5).margin(0.03));
}

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
  expect_one_error("  model_params_b: 0\n", "evaluation.model_params_b", "> 0");
  expect_one_error("  model_params_b: -7\n", "evaluation.model_params_b", "> 0");
  expect_one_error("  gpus_per_trial: 0\n", "evaluation.gpus_per_trial", "between 1 and 64");
  expect_one_error("  gpus_per_trial: 65\n", "evaluation.gpus_per_trial", "between 1 and 64");
  expect_one_error("  gpus_per_trial: 1.5\n", "evaluation.gpus_per_trial", "integer");
  expect_one_error("  weight_bytes_per_param: 0\n", "evaluation.weight_bytes_per_param", "> 0");
  expect_one_error("  pcie_GBps: -1\n", "evaluation.pcie_GBps", "> 0");
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
  const EvalSpec spec = read_evaluation(checker, *root->find("evaluation"), ".");
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
