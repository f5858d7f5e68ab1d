#include "sim/experiment/CompareReport.hpp"

#include "acmesim/Version.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string_view>

namespace acmesim {

namespace {

using SortedJson = nlohmann::json; // keys in name order, as the experiment files are written

std::optional<double> find(const std::vector<RunMetric>& run, const std::string& name)
{
  const auto it = std::find_if(run.begin(), run.end(), [&](const RunMetric& m) { return m.name == name; });
  if (it == run.end())
    return std::nullopt;
  return it->value;
}

SortedJson optional_number(const std::optional<double>& v)
{
  return v ? SortedJson(*v) : SortedJson(nullptr);
}

SortedJson side_json(const CompareSide& side)
{
  return SortedJson{{"label", side.label},
              {"scenario", side.scenario.empty() ? SortedJson(nullptr) : SortedJson(side.scenario)},
              {"set", side.set},
              {"runs", "runs/" + std::string(side.label == "A" ? "a" : "b")}};
}

// Compact figures for the table: 4 significant digits keep columns narrow and still show the
// differences an experiment can resolve.
std::string figure(double v)
{
  return fmt::format("{:.4g}", v);
}

std::string interval_text(const std::optional<Interval>& ci)
{
  return ci ? fmt::format("[{}, {}]", figure(ci->low), figure(ci->high)) : "-";
}

// Which way the metric is better, from its declaration ("neither" for a name the table lacks).
std::string better_of(const std::string& metric)
{
  const MetricDecl* decl = find_metric(metric);
  return std::string(to_string(decl ? decl->better : Better::Neither));
}

} // namespace

std::string verdict(const PairedDifference& stats)
{
  switch (stats.direction()) {
    case -1:
      return "B lower";
    case 1:
      return "B higher";
    default:
      return "";
  }
}

std::vector<MetricComparison> compare_metrics(const std::vector<std::vector<RunMetric>>& a_runs,
                                              const std::vector<std::vector<RunMetric>>& b_runs, double confidence)
{
  std::vector<std::string> names;
  for (const auto* side : {&a_runs, &b_runs})
    for (const auto& run : *side)
      for (const auto& m : run)
        if (std::find(names.begin(), names.end(), m.name) == names.end())
          names.push_back(m.name);
  std::vector<MetricComparison> out;
  for (const auto& name : names) {
    std::vector<double> a, b;
    for (std::size_t i = 0; i < std::min(a_runs.size(), b_runs.size()); ++i) {
      const auto va = find(a_runs[i], name);
      const auto vb = find(b_runs[i], name);
      if (va && vb) {
        a.push_back(*va);
        b.push_back(*vb);
      }
    }
    if (!a.empty())
      out.push_back({name, paired_difference(a, b, confidence)});
  }
  return out;
}

SortedJson compare_json(const CompareSide& a, const CompareSide& b, const std::vector<std::uint64_t>& seeds,
                  double confidence, const std::vector<MetricComparison>& metrics)
{
  SortedJson rows = SortedJson::array();
  for (const auto& [name, s] : metrics) {
    const std::string v = verdict(s);
    rows.push_back(SortedJson{{"metric", name},
                        {"n", s.n},
                        {"a_mean", s.a_mean},
                        {"b_mean", s.b_mean},
                        {"diff_mean", s.diff_mean},
                        {"diff_ci_low", optional_number(s.diff_ci ? std::optional(s.diff_ci->low) : std::nullopt)},
                        {"diff_ci_high", optional_number(s.diff_ci ? std::optional(s.diff_ci->high) : std::nullopt)},
                        {"ratio", optional_number(s.ratio)},
                        {"ratio_ci_low", optional_number(s.ratio_ci ? std::optional(s.ratio_ci->low) : std::nullopt)},
                        {"ratio_ci_high",
                         optional_number(s.ratio_ci ? std::optional(s.ratio_ci->high) : std::nullopt)},
                        {"verdict", v.empty() ? SortedJson(nullptr) : SortedJson(v)},
                        {"better", better_of(name)}});
  }
  return SortedJson{{"program", SortedJson{{"name", "acmesim"}, {"version", VERSION}}},
              {"confidence", confidence},
              {"seeds", seeds},
              {"a", side_json(a)},
              {"b", side_json(b)},
              {"metrics", rows}};
}

std::string compare_table(const CompareSide& a, const CompareSide& b, std::size_t seeds, double confidence,
                          const std::vector<MetricComparison>& metrics)
{
  const auto describe = [](const CompareSide& s) {
    std::string text = s.scenario.empty() ? "<embedded default>" : s.scenario;
    for (const auto& o : s.set)
      text += " --set " + o;
    return text;
  };
  std::string out = fmt::format("A: {}\nB: {}\n{} seeds, paired; {:.0f}% confidence intervals of B - A and B / A\n",
                                describe(a), describe(b), seeds, 100 * confidence);
  // The first column as wide as the longest metric name (they are paths in summary.json).
  std::size_t width = std::string_view("metric").size();
  for (const auto& m : metrics)
    width = std::max(width, m.metric.size());
  out += fmt::format("{:<{}} {:>10} {:>10} {:>10} {:>24} {:>7} {:>18}  {}\n", "metric", width, "A mean", "B mean",
                     "B - A", "interval", "B / A", "interval", "verdict");
  for (const auto& [name, s] : metrics)
    out += fmt::format("{:<{}} {:>10} {:>10} {:>10} {:>24} {:>7} {:>18}  {}\n", name, width, figure(s.a_mean),
                       figure(s.b_mean), figure(s.diff_mean), interval_text(s.diff_ci),
                       s.ratio ? fmt::format("{:.3f}", *s.ratio) : "-",
                       s.ratio_ci ? fmt::format("[{:.3f}, {:.3f}]", s.ratio_ci->low, s.ratio_ci->high) : "-",
                       verdict(s));
  return out;
}

} // namespace acmesim
