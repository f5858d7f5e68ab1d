// The resolved-scenario echo (summary.json's "scenario"): a scenario again, in the keys the
// reference lists, that reads back as the same scenario.
#include "sim/config/ScenarioKeys.hpp"
#include "tests/support/ScenarioTestInputs.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <set>

using namespace acmesim;
using namespace acmesim::testing;

namespace {

namespace fs = std::filesystem;

// A scenario setting most keys a file can set, failures and checkpoints included.
const std::string EVERY_SECTION = "name: every-section\n"
                                  "seed: 9\n"
                                  "cluster:\n"
                                  "  pods:\n"
                                  "    - {preset: seren, nodes: 8}\n"
                                  "    - {name: small, nodes: 4, storage_nic_bandwidth_Gbps: 25,\n"
                                  "       fabric: {leaf_radix: 8, oversubscription: 3, nodes_per_leaf: 2}}\n"
                                  "  storage: {bandwidth_GBps: 12.5}\n" +
                                  WORKLOAD +
                                  "        states: {COMPLETED: 0.75, NODE_FAIL: 0.25}\n"
                                  "scheduler: {name: easy-backfill, placement: spread, backfill_depth: 7}\n"
                                  "failures:\n"
                                  "  model: acme\n"
                                  "  components:\n"
                                  "    gpu: {tbf: {dist: weibull, shape: 0.7, scale_h: 5000}}\n"
                                  "    node: {reboot: {dist: fixed, value_h: 0.5}, categories: {node_failure: 1}}\n"
                                  "    nic: {tbf: {dist: lognormal, median_h: 100, sigma: 0.5}, enabled: false}\n"
                                  "  lemon_nodes: 2\n"
                                  "  node_rate_multipliers: {small-n1: 3}\n"
                                  "  detection_s: {nccl_timeout: 1200}\n"
                                  "checkpoint: {mode: async, interval: daly, job_types: [Pretrain, Eval],\n"
                                  "             model_sizes: [{max_gpus: 8, params_b: 1.5}]}\n"
                                  "recovery: {name: auto+spares, spare_nodes: 1}\n"
                                  "output: {timeline: true, utilisation_bin_s: 60}\n";

// The echo as a scenario file. Some of what a file leaves out is echoed in a form no file
// writes: evaluation off as `enabled: false`, no workload as `none`, every dataset of the
// catalogue as `datasets: []`, a preset's CPU job share left to the published one as -1; and
// the built-in catalogue is named as a file names it.
Json as_scenario(Json echo)
{
  Json& workload = echo["workload"];
  if (workload.contains("synthetic") && workload["synthetic"].value("cpu_job_share", 0.0) < 0)
    workload["synthetic"].erase("cpu_job_share");
  if (echo["evaluation"] == Json{{"enabled", false}})
    echo.erase("evaluation");
  else if (echo["evaluation"]["catalogue"] == "<embedded default>")
    echo["evaluation"]["catalogue"] = "default";
  if (echo.contains("evaluation") && echo["evaluation"]["datasets"].empty())
    echo["evaluation"].erase("datasets");
  if (workload.contains("none"))
    echo.erase("workload");
  return echo;
}

// The reference's paths: list items are <i>, names of a map keyed by names its placeholder.
std::string reference_path(const std::set<std::string>& reference, const std::string& parent, const std::string& key)
{
  const std::string path = join_key(parent, key);
  if (reference.count(path))
    return path;
  const auto placeholder = std::find_if(reference.begin(), reference.end(), [&](const std::string& p) {
    return p.starts_with(parent + ".<") && p.find('.', parent.size() + 1) == std::string::npos;
  });
  return placeholder == reference.end() ? path : *placeholder;
}

// Every key of `value` (at `path` of the reference) is one the reference lists.
void check_listed(const Json& value, const std::string& path, const std::set<std::string>& reference)
{
  if (value.is_array() && !value.empty() && value.front().is_object())
    for (const auto& item : value)
      check_listed(item, join_key(path, "<i>"), reference);
  if (!value.is_object())
    return;
  for (const auto& [key, item] : value.items()) {
    const std::string child = reference_path(reference, path, key);
    INFO(child);
    CHECK(reference.count(child) == 1);
    check_listed(item, child, reference);
  }
}

void check_round_trip(const Scenario& scenario, const std::string& base_dir)
{
  INFO(scenario.source);
  // Every path of the reference, and the maps keyed by names above them (`types.<type>`).
  std::set<std::string> reference;
  for (const auto& doc : scenario_key_docs())
    for (auto dot = doc.path.find('.'); ; dot = doc.path.find('.', dot + 1)) {
      reference.insert(doc.path.substr(0, dot));
      if (dot == std::string::npos)
        break;
    }
  const Json echo = resolved_scenario_json(scenario);
  const Json file = as_scenario(echo);
  check_listed(file, "", reference);
  // JSON is YAML: the echo is read as a scenario file is.
  const Scenario again = load_scenario_text(file.dump(), scenario.source, base_dir);
  CHECK(resolved_scenario_json(again).dump(2) == echo.dump(2));
}

} // namespace

TEST_CASE("the echo of a scenario setting every section reads back as the same scenario")
{
  const Scenario s = load(EVERY_SECTION);
  const Json echo = resolved_scenario_json(s);
  // Derived values are echoed as the run uses them: this pod's leaves and its storage NICs.
  CHECK(echo["cluster"]["pods"][1]["fabric"]["nodes_per_leaf"] == 2);
  CHECK(echo["cluster"]["pods"][0]["storage_nic_bandwidth_Gbps"] == 200);
  CHECK(echo["failures"]["components"]["gpu"]["tbf"] == Json{{"dist", "weibull"}, {"shape", 0.7}, {"scale_h", 5000.0}});
  check_round_trip(s, DATA_DIR);
}

TEST_CASE("the echo of a recorded failure list keeps its detection delays, so the summary reproduces the run")
{
  const fs::path dir = fs::temp_directory_path() / ("acmesim-echo-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "failures.csv") << "time_s,component,target,category,repair_s,repair_kind\n"
                                         "3600,node,seren-n1,node_failure,7200,reboot\n";
  const Scenario s = load_scenario_text(SEREN + WORKLOAD +
                                            "failures: {recorded: failures.csv, detection_s: {nccl_timeout: 1200}}\n",
                                        "recorded.yaml", dir.string());
  const Json echo = resolved_scenario_json(s);
  CHECK(echo["failures"]["recorded"] == "failures.csv");
  CHECK(echo["failures"]["detection_s"]["nccl_timeout"] == 1200.0);
  check_round_trip(s, dir.string());
  fs::remove_all(dir);
}

TEST_CASE("the echo of every shipped scenario reads back as the same scenario")
{
  check_round_trip(load_default_scenario(), fs::current_path().string());
  const fs::path shipped = fs::path(ACMESIM_SOURCE_DIR) / "scenarios";
  int count = 0;
  for (const auto& entry : fs::directory_iterator(shipped))
    if (entry.path().extension() == ".yaml") {
      check_round_trip(load_scenario_file(entry.path().string()), shipped.string());
      ++count;
    }
  CHECK(count >= 8);
}
