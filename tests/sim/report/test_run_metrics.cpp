#include "sim/report/RunMetrics.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <iterator>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace acmesim;

namespace {

TimeStats distribution(std::size_t count, double mean, double p95)
{
  TimeStats t;
  t.count = count;
  if (count > 0) {
    t.mean = mean;
    t.p50 = 0;
    t.p95 = p95;
    t.p99 = 0;
    t.max = 0;
  }
  return t;
}

RunSummary summary()
{
  RunSummary s;
  s.makespan_s = 1000.5;
  s.wait_s.all = distribution(3, 10, 20);
  s.wait_s.by_type[JobType::Eval] = distribution(0, 0, 0);
  s.wait_s.by_type[JobType::Pretrain] = distribution(3, 10, 20);
  s.jct_s.all = distribution(3, 110, 220);
  s.jct_s.by_type[JobType::Eval] = distribution(0, 0, 0);
  s.jct_s.by_type[JobType::Pretrain] = distribution(3, 110, 220);
  s.utilisation = Utilisation{0.5, 0.625, 0.25, 0.0625, CpuUtilisation{1024, 0.75, 1.25, 2, 0.125}};
  double hours = 0;
  for (GpuState cause : LOST_GPU_STATES)
    s.lost_gpu_hours.by_state[cause] = ++hours;
  s.lost_gpu_hours.total = 28;
  for (GpuState state : UNAVAILABLE_GPU_STATES)
    s.unavailable_gpu_hours.by_state[state] = 10 * ++hours; // down 80, spare 90, stranded 100
  s.unavailable_gpu_hours.total = 270;
  s.energy.emplace();
  s.energy->it_kwh = 120;
  s.energy->facility_kwh = 150;
  s.energy->mean_it_kw = 2.5;
  s.jobs.rejected = 2;
  s.training.ettr.count = 1;
  s.training.ettr.mean = 0.97;
  s.training.ettr_large.count = 1;
  s.training.ettr_large.mean = 0.93;
  return s;
}

} // namespace

TEST_CASE("run metrics are the table's paths in summary.json, in the table's order")
{
  const auto metrics = run_metrics(summary());
  std::vector<std::string> names;
  for (const auto& m : metrics)
    names.push_back(m.name);
  const std::vector<std::string> expected{"makespan_s",
                                          "wait_s.all.mean",
                                          "wait_s.all.p95",
                                          "jct_s.all.mean",
                                          "jct_s.all.p95",
                                          "wait_s.by_type.Pretrain.mean",
                                          "wait_s.by_type.Pretrain.p95",
                                          "jct_s.by_type.Pretrain.mean",
                                          "jct_s.by_type.Pretrain.p95",
                                          "utilisation.mean_gpu_busy",
                                          "utilisation.mean_gpu_allocated",
                                          "utilisation.gpu_free_while_queued",
                                          "utilisation.cpu.mean_busy",
                                          "utilisation.cpu.mean_demand",
                                          "utilisation.cpu.over_capacity_share",
                                          "lost_gpu_hours.total",
                                          "lost_gpu_hours.lost_work",
                                          "lost_gpu_hours.preempted",
                                          "lost_gpu_hours.checkpoint",
                                          "lost_gpu_hours.detection",
                                          "lost_gpu_hours.waiting_for_person",
                                          "lost_gpu_hours.restart",
                                          "lost_gpu_hours.communication",
                                          "unavailable_gpu_hours.total",
                                          "unavailable_gpu_hours.down",
                                          "energy.it_kwh",
                                          "energy.facility_kwh",
                                          "energy.mean_it_kw",
                                          "jobs.rejected",
                                          "training.ettr.mean",
                                          "training.ettr_large.mean"};
  CHECK(names == expected); // Eval has no job: left out, not zero
  CHECK(metrics[0].value == 1000.5);
  CHECK(metrics[4].value == 220);
  CHECK(metrics[10].value == 0.625);
  CHECK(metrics[11].value == 0.0625);
  CHECK(metrics[12].value == 0.75);
  CHECK(metrics[13].value == 1.25);
  CHECK(metrics[14].value == 0.125);
  CHECK(metrics[15].value == 28);
  CHECK(metrics[21].value == 6);
  CHECK(metrics[22].value == 7);
  CHECK(metrics[23].value == 270);
  CHECK(metrics[24].value == 80);
  CHECK(metrics[25].value == 120);
  CHECK(metrics[26].value == 150);
  CHECK(metrics[27].value == 2.5);
  CHECK(metrics[28].value == 2);
  CHECK(metrics[29].value == 0.97);
  CHECK(metrics[30].value == 0.93);
}

TEST_CASE("a run that has everything the table measures reports every declared metric")
{
  RunSummary s = summary();
  for (const JobType type : enum_values<JobType>()) {
    s.wait_s.by_type[type] = distribution(1, 1, 1);
    s.jct_s.by_type[type] = distribution(1, 2, 2);
  }
  NetworkSummary network;
  network.slowdown.all.count = 1;
  network.slowdown.all.mean = network.slowdown.all.p95 = 1.1;
  for (const JobType type : enum_values<JobType>())
    network.slowdown.by_type[type] = network.slowdown.all;
  network.nic_utilisation.mean = 0.2;
  s.network = network;
  s.evaluation = EvaluationSummary{};
  s.evaluation->feedback_latency_s.count = 1;
  s.evaluation->feedback_latency_s.mean = s.evaluation->feedback_latency_s.p95 = 600;
  s.energy->peak_it_kw = 3;
  // A name whose path summary.json does not hold would be missing here.
  std::vector<std::string> reported;
  for (const auto& m : run_metrics(s))
    reported.push_back(m.name);
  std::vector<std::string> declared;
  for (const MetricName& m : metric_names())
    declared.push_back(m.name);
  CHECK(reported == declared);
}

TEST_CASE("the table declares each metric once, with a unit and a line of help, and finds the nearest for a typo")
{
  std::set<std::string> seen;
  for (const MetricName& m : metric_names()) {
    CHECK(seen.insert(m.name).second);
    CHECK(m.name.find('<') == std::string::npos);
    CHECK_FALSE(m.decl->unit.empty());
    CHECK_FALSE(m.decl->help.empty());
    CHECK(find_metric(m.name) == m.decl);
  }
  CHECK(seen.count("wait_s.by_type.Eval.p95") == 1);
  CHECK(seen.count("lost_gpu_hours.communication") == 1);
  CHECK(find_metric("wait_s.Eval.p95") == nullptr);
  CHECK(nearest_metric("wait_s.Eval.p95") == "wait_s.by_type.Eval.p95");
  CHECK(nearest_metric("wait_s.mean") == "wait_s.all.mean");
  CHECK(nearest_metric("training.ettr_large_mean") == "training.ettr_large.mean");
  CHECK(nearest_metric("utilisation.gpu_busy") == "utilisation.mean_gpu_busy");
  CHECK(metric_table_json().size() == metric_names().size());
}

TEST_CASE("a CPU machine's run has no energy metrics, and is not an error for lacking them")
{
  RunSummary s = summary();
  s.energy.reset(); // processors: cpu
  for (const auto& m : run_metrics(s))
    CHECK(m.name.rfind("energy.", 0) == std::string::npos);
  CHECK(Json(s).contains("energy") == false);
}

TEST_CASE("the peak IT power is a metric when the run kept a series of bins")
{
  RunSummary s = summary();
  for (const auto& m : run_metrics(s))
    CHECK(m.name != "energy.peak_it_kw"); // no series: null in summary.json
  s.energy->peak_it_kw = 4.25;
  const auto metrics = run_metrics(s);
  const auto peak = std::find_if(metrics.begin(), metrics.end(),
                                 [](const RunMetric& m) { return m.name == "energy.peak_it_kw"; });
  REQUIRE(peak != metrics.end());
  CHECK(peak->value == 4.25);
  CHECK(std::prev(peak)->name == "energy.mean_it_kw"); // in the table's order
  CHECK(find_metric("energy.peak_it_kw")->better == Better::Lower);
}

TEST_CASE("run metrics of a run without the network model have no communication cause")
{
  RunSummary s = summary();
  s.lost_gpu_hours.by_state.erase(GpuState::Communication);
  for (const auto& m : run_metrics(s))
    CHECK(m.name != "lost_gpu_hours.communication");
  // Any other cause missing is a broken summary.
  s.lost_gpu_hours.by_state.erase(GpuState::Restart);
  CHECK_THROWS(run_metrics(s));
}

TEST_CASE("evaluation feedback latency is a metric when checkpoints triggered campaigns")
{
  RunSummary s = summary();
  s.evaluation = EvaluationSummary{};
  s.evaluation->feedback_latency_s.count = 2;
  s.evaluation->feedback_latency_s.mean = 900;
  s.evaluation->feedback_latency_s.p95 = 1300;
  const auto metrics = run_metrics(s);
  REQUIRE(metrics.size() == 33);
  CHECK(metrics[31].name == "evaluation.feedback_latency_s.mean");
  CHECK(metrics[31].value == 900);
  CHECK(metrics[32].name == "evaluation.feedback_latency_s.p95");
}

TEST_CASE("a summary.json without a metric's key, or with a value of the wrong type, is refused naming the key")
{
  Json json = summary();
  json["lost_gpu_hours"].erase("restart");
  CHECK_THROWS_WITH(run_metrics(run_summary_from_json(json)), Catch::Contains("'lost_gpu_hours.restart'"));
  json = summary();
  json["makespan_s"] = "long";
  CHECK_THROWS_WITH(run_summary_from_json(json), Catch::Contains("makespan_s") && Catch::Contains("number"));
  json = summary();
  json["wait_s"]["all"].erase("p95");
  CHECK_THROWS_WITH(run_summary_from_json(json), Catch::Contains("'wait_s.all.p95'"));
  json = summary();
  json["jct_s"]["by_type"]["Nope"] = json["jct_s"]["all"];
  CHECK_THROWS_WITH(run_summary_from_json(json), Catch::Contains("jct_s.by_type.Nope") && Catch::Contains("Pretrain"));
}
