// Evaluation campaigns from the command line: every combination of the decoupled scheduler's
// techniques runs, all off is the baseline, and the shipped scenario keeps the paper's shape.
#include "tests/support/CliRun.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

using acmesim::testing::jobs_csv_rows;
using acmesim::testing::run_acmesim;
using acmesim::testing::scratch;
using acmesim::testing::slurp;

namespace {

double eval_makespan(const std::string& args, const std::string& out)
{
  const auto o = run_acmesim("run scenarios/eval-7b-63-datasets.yaml --quiet --out '" + (scratch() / out).string() +
                             "' " + args);
  INFO(o.err);
  REQUIRE(o.exit_code == 0);
  const auto summary = nlohmann::json::parse(slurp(scratch() / out / "summary.json"));
  const auto& campaign = summary.at("evaluation").at("campaigns").at(0);
  CHECK(campaign.at("trials").get<int>() == static_cast<int>(campaign.at("trials_detail").size()));
  return campaign.at("makespan_s").get<double>();
}

} // namespace

TEST_CASE("cli: every on/off combination of the decoupled techniques runs, and all off is the baseline")
{
  const double baseline = eval_makespan("--set scheduler.name=eval-baseline", "baseline");
  double all_on = 0;
  for (int mask = 0; mask < 8; ++mask) {
    const std::string args = "--set scheduler.local_model_load=" + std::to_string(mask & 1) +
                             " --set scheduler.metric_on_cpu=" + std::to_string((mask >> 1) & 1) +
                             " --set scheduler.runtime_packing=" + std::to_string((mask >> 2) & 1);
    INFO(args);
    const double m = eval_makespan(args, "combo" + std::to_string(mask));
    CHECK(m <= baseline * (1 + 1e-9)); // no technique makes it slower here
    if (mask == 0)
      CHECK(m == Approx(baseline));
    if (mask == 7)
      all_on = m;
  }
  // The shipped scenario on one node: decoupled beats baseline by about 1.3x (Acme NSDI'24 §6.2).
  CHECK(baseline / all_on > 1.2);
  CHECK(baseline / all_on < 1.5);
}

TEST_CASE("cli: a dataset catalogue with a missing or negative field is refused with exit code 2")
{
  const auto catalogue = acmesim::testing::write_scratch_file(
      "catalogue.yaml", "datasets:\n  - {name: a, inference_s: {7: 60}, preprocess_s: 1, metric_s: -3}\n"
                        "  - {name: b, preprocess_s: 1, metric_s: 2}\n");
  const auto o = run_acmesim("validate scenarios/eval-7b-63-datasets.yaml --set evaluation.catalogue='" +
                             catalogue.string() + "'");
  CHECK(o.exit_code == 2);
  CHECK(o.err.find("catalogue.yaml:2") != std::string::npos);
  CHECK(o.err.find("metric_s") != std::string::npos);
  CHECK(o.err.find("inference_s") != std::string::npos);
}

TEST_CASE("cli: evaluation trials' useful time in jobs.csv is their inference, summing to the ledger's busy GPU time")
{
  const auto dir = scratch() / "eval-useful";
  REQUIRE(run_acmesim("run scenarios/eval-7b-63-datasets.yaml --quiet --out '" + dir.string() + "'").exit_code == 0);
  const auto summary = nlohmann::json::parse(slurp(dir / "summary.json"));
  const auto jobs = jobs_csv_rows(dir / "jobs.csv");
  REQUIRE_FALSE(jobs.empty());
  double gpu_hours = 0;
  for (const auto& cells : jobs)
    if (!cells.at("useful_s").empty())
      gpu_hours += std::stod(cells.at("gpus")) * std::stod(cells.at("useful_s")) / 3600;
  const std::size_t rows = jobs.size();
  // Each useful_s is printed to the millisecond.
  CHECK(gpu_hours == Approx(summary.at("gpu_hours").at("busy").get<double>()).margin(1e-3 / 3600 * static_cast<double>(rows) * 8));
}
