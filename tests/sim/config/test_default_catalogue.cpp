// The default dataset catalogue (configs/eval/datasets.yaml, embedded) as the scenario loader reads
// it: complete, and calibrated to the trial profile Acme published.
#include "models/common/InputError.hpp"
#include "sim/config/EmbeddedConfigs.hpp"
#include "sim/config/EvaluationSection.hpp"

#include <catch2/catch.hpp>

using namespace acmesim;

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
