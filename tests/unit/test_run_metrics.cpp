#include "sim/experiment/RunMetrics.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>

using namespace acmesim;
using Json = nlohmann::json;

namespace {

Json distribution(int count, double mean, double p95)
{
  return Json{{"count", count}, {"mean", mean}, {"p50", 0}, {"p95", p95}, {"p99", 0}, {"max", 0}};
}

Json summary()
{
  Json s;
  s["makespan_s"] = 1000.5;
  s["wait_s"] = Json{{"all", distribution(3, 10, 20)},
                     {"by_type", Json{{"Eval", distribution(0, 0, 0)}, {"Pretrain", distribution(3, 10, 20)}}}};
  s["jct_s"] = Json{{"all", distribution(3, 110, 220)},
                    {"by_type", Json{{"Eval", distribution(0, 0, 0)}, {"Pretrain", distribution(3, 110, 220)}}}};
  s["utilisation"] = Json{{"mean_gpu_busy", 0.5}, {"mean_gpu_allocated", 0.625}};
  s["lost_gpu_hours"] = Json{{"lost_work", 1},   {"checkpoint", 2}, {"detection", 3}, {"waiting_for_person", 4},
                             {"restart", 5},     {"down", 6},       {"total", 21}};
  s["training"] = Json{{"ettr", Json{{"count", 1}, {"mean", 0.97}}}};
  s["evaluation"] = nullptr;
  return s;
}

} // namespace

TEST_CASE("run metrics are read from summary.json in their fixed order")
{
  const auto metrics = run_metrics(summary());
  std::vector<std::string> names;
  for (const auto& m : metrics)
    names.push_back(m.name);
  const std::vector<std::string> expected{"makespan_s",
                                          "wait_s.mean",
                                          "wait_s.p95",
                                          "jct_s.mean",
                                          "jct_s.p95",
                                          "wait_s.Pretrain.mean",
                                          "wait_s.Pretrain.p95",
                                          "jct_s.Pretrain.mean",
                                          "jct_s.Pretrain.p95",
                                          "utilisation.gpu_busy",
                                          "utilisation.gpu_allocated",
                                          "lost_gpu_hours.total",
                                          "lost_gpu_hours.lost_work",
                                          "lost_gpu_hours.checkpoint",
                                          "lost_gpu_hours.detection",
                                          "lost_gpu_hours.waiting_for_person",
                                          "lost_gpu_hours.restart",
                                          "lost_gpu_hours.down",
                                          "training.ettr_mean"};
  CHECK(names == expected); // Eval has no job: left out, not zero
  CHECK(metrics[0].value == 1000.5);
  CHECK(metrics[4].value == 220);
  CHECK(metrics[10].value == 0.625);
  CHECK(metrics[17].value == 6);
  CHECK(metrics[18].value == 0.97);
}

TEST_CASE("evaluation feedback latency is a metric when checkpoints triggered campaigns")
{
  Json s = summary();
  s["evaluation"] = Json{{"campaigns", Json::array()}, {"feedback_latency_s", distribution(2, 900, 1300)}};
  const auto metrics = run_metrics(s);
  REQUIRE(metrics.size() == 21);
  CHECK(metrics[19].name == "evaluation.feedback_latency_s.mean");
  CHECK(metrics[19].value == 900);
  CHECK(metrics[20].name == "evaluation.feedback_latency_s.p95");
}

TEST_CASE("a summary.json without a metric's key is refused naming the key")
{
  Json s = summary();
  s["lost_gpu_hours"].erase("down");
  CHECK_THROWS_WITH(run_metrics(s), Catch::Contains("lost_gpu_hours.down"));
  s = summary();
  s["makespan_s"] = "long";
  CHECK_THROWS_WITH(run_metrics(s), Catch::Contains("makespan_s") && Catch::Contains("not a number"));
}
