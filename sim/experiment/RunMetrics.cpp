#include "sim/experiment/RunMetrics.hpp"

#include <fmt/format.h>

#include <fstream>
#include <stdexcept>

namespace acmesim {

namespace {

using Json = nlohmann::json;

const Json& at(const Json& j, const std::string& key, const std::string& where)
{
  if (!j.is_object() || !j.contains(key))
    throw std::runtime_error(fmt::format("summary.json has no '{}{}'", where, key));
  return j.at(key);
}

double number(const Json& j, const std::string& key, const std::string& where)
{
  const Json& v = at(j, key, where);
  if (!v.is_number())
    throw std::runtime_error(fmt::format("summary.json '{}{}' is not a number", where, key));
  return v.get<double>();
}

// Mean and p95 of one distribution ({count, mean, p95, ...}), unless it is empty.
void add_distribution(std::vector<RunMetric>& out, const Json& dist, const std::string& name)
{
  if (number(dist, "count", name + ".") == 0)
    return;
  out.push_back({name + ".mean", number(dist, "mean", name + ".")});
  out.push_back({name + ".p95", number(dist, "p95", name + ".")});
}

constexpr const char* LOST_CAUSES[] = {"lost_work", "checkpoint", "detection", "waiting_for_person", "restart",
                                       "down"};

} // namespace

std::vector<RunMetric> run_metrics(const Json& summary)
{
  std::vector<RunMetric> out;
  out.push_back({"makespan_s", number(summary, "makespan_s", "")});
  for (const std::string family : {"wait_s", "jct_s"}) {
    const Json& f = at(summary, family, "");
    add_distribution(out, at(f, "all", family + "."), family);
  }
  for (const std::string family : {"wait_s", "jct_s"})
    for (const auto& [type, dist] : at(at(summary, family, ""), "by_type", family + ".").items())
      add_distribution(out, dist, family + "." + type);
  const Json& utilisation = at(summary, "utilisation", "");
  out.push_back({"utilisation.gpu_busy", number(utilisation, "mean_gpu_busy", "utilisation.")});
  out.push_back({"utilisation.gpu_allocated", number(utilisation, "mean_gpu_allocated", "utilisation.")});
  const Json& lost = at(summary, "lost_gpu_hours", "");
  out.push_back({"lost_gpu_hours.total", number(lost, "total", "lost_gpu_hours.")});
  for (const char* cause : LOST_CAUSES)
    out.push_back({std::string("lost_gpu_hours.") + cause, number(lost, cause, "lost_gpu_hours.")});
  if (summary.contains("training")) {
    const Json& ettr = at(summary["training"], "ettr", "training.");
    if (number(ettr, "count", "training.ettr.") > 0)
      out.push_back({"training.ettr_mean", number(ettr, "mean", "training.ettr.")});
  }
  if (summary.contains("evaluation") && summary["evaluation"].is_object()) {
    const Json& latency = at(summary["evaluation"], "feedback_latency_s", "evaluation.");
    if (latency.is_object())
      add_distribution(out, latency, "evaluation.feedback_latency_s");
  }
  return out;
}

std::vector<RunMetric> read_run_metrics(const std::filesystem::path& dir)
{
  const auto path = dir / "summary.json";
  std::ifstream in(path);
  if (!in)
    throw std::runtime_error(fmt::format("cannot read {}", path.string()));
  try {
    return run_metrics(Json::parse(in));
  } catch (const Json::exception& e) {
    throw std::runtime_error(fmt::format("{}: {}", path.string(), e.what()));
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(fmt::format("{}: {}", path.string(), e.what()));
  }
}

} // namespace acmesim
