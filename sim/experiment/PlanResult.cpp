#include "sim/experiment/PlanResult.hpp"

#include "models/common/InputError.hpp"
#include "models/common/Text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace acmesim {

namespace {


constexpr std::size_t JUST_BELOW = 3;

// Numbers on the terminal: six significant digits (plan.json keeps them whole).
std::string shown(double v)
{
  return fmt::format("{:.6g}", v);
}

std::vector<double> metric_over_seeds(const PlanSpec& spec, std::size_t candidate, const std::string& metric,
                                      const std::vector<std::vector<RunMetric>>& runs)
{
  std::vector<double> values;
  for (std::size_t s = 0; s < runs.size(); ++s) {
    const auto it = std::find_if(runs[s].begin(), runs[s].end(), [&](const RunMetric& m) { return m.name == metric; });
    if (it == runs[s].end()) {
      std::vector<std::string> names;
      for (const auto& m : runs[s])
        names.push_back(m.name);
      throw InputError(Diagnostic{
          spec.source, "", metric,
          fmt::format("candidate {} seed {}: the run reports no metric of this name (a job type without GPU jobs "
                      "has none); it reports: {}",
                      spec.candidate_id(candidate), spec.seeds[s], join_names(names))});
    }
    values.push_back(it->value);
  }
  return values;
}

double linear_cost(const PlanSpec& spec, std::size_t candidate)
{
  const auto indices = spec.value_indices(candidate);
  double cost = spec.cost.fixed;
  for (std::size_t i = 0; i < spec.variables.size(); ++i)
    if (spec.cost.per_unit[i] != 0)
      cost += spec.cost.per_unit[i] * spec.variables[i].numbers[indices[i]].value_or(0);
  return cost;
}

Json values_json(const PlanSpec& spec, std::size_t candidate)
{
  Json values = Json::object();
  const auto indices = spec.value_indices(candidate);
  for (std::size_t i = 0; i < spec.variables.size(); ++i)
    values[spec.variables[i].key] = spec.variables[i].values[indices[i]];
  return values;
}

std::string values_text(const PlanSpec& spec, std::size_t candidate)
{
  const auto indices = spec.value_indices(candidate);
  std::string out;
  for (std::size_t i = 0; i < spec.variables.size(); ++i)
    out += fmt::format("{}{}={}", i ? ", " : "", spec.variables[i].key, spec.variables[i].values[indices[i]]);
  return out;
}

std::vector<std::string> misses(const PlanSpec& spec, const CandidateResult& c)
{
  std::vector<std::string> out;
  for (std::size_t t = 0; t < spec.targets.size(); ++t)
    if (!c.targets[t].met)
      out.push_back(spec.targets[t].describe());
  return out;
}

Json candidate_json(const PlanSpec& spec, const CandidateResult& c)
{
  Json targets = Json::array();
  for (std::size_t t = 0; t < spec.targets.size(); ++t) {
    const TargetResult& r = c.targets[t];
    targets.push_back({{"metric", spec.targets[t].metric},
                       {"mean", r.value.mean},
                       {"sd", r.value.sd},
                       {"bound", r.bound},
                       {"met", r.met},
                       {"confidence", r.confidence}});
  }
  return Json{{"id", spec.candidate_id(c.candidate)},
              {"values", values_json(spec, c.candidate)},
              {"cost", c.cost},
              {"meets_targets", c.feasible()},
              {"targets", targets},
              {"misses", misses(spec, c)}};
}

} // namespace

bool CandidateResult::feasible() const
{
  return std::all_of(targets.begin(), targets.end(), [](const TargetResult& t) { return t.met; });
}

CandidateResult judge_candidate(const PlanSpec& spec, std::size_t candidate,
                                const std::vector<std::vector<RunMetric>>& runs)
{
  CandidateResult c;
  c.candidate = candidate;
  for (const PlanTarget& target : spec.targets) {
    TargetResult r;
    r.value = one_sided_mean(metric_over_seeds(spec, candidate, target.metric, runs), spec.confidence);
    r.bound = target.at_most ? r.value.upper : r.value.lower;
    r.met = target.at_most ? r.bound <= target.threshold : r.bound >= target.threshold;
    r.confidence = target.at_most ? r.value.confidence_at_most(target.threshold)
                                  : r.value.confidence_at_least(target.threshold);
    c.targets.push_back(r);
  }
  if (spec.cost.metric) {
    const auto values = metric_over_seeds(spec, candidate, *spec.cost.metric, runs);
    c.cost = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  } else {
    c.cost = linear_cost(spec, candidate);
  }
  return c;
}

PlanOutcome conclude_plan(const PlanSpec& spec, std::vector<CandidateResult> candidates, std::size_t rounds)
{
  PlanOutcome o;
  std::sort(candidates.begin(), candidates.end(),
            [](const CandidateResult& a, const CandidateResult& b) { return a.candidate < b.candidate; });
  o.candidates = std::move(candidates);
  o.rounds = rounds;
  o.runs = o.candidates.size() * spec.seeds.size();
  for (std::size_t i = 0; i < o.candidates.size(); ++i)
    if (o.candidates[i].feasible() && (!o.answer || o.candidates[i].cost < o.candidates[*o.answer].cost))
      o.answer = i;
  if (o.answer) {
    std::vector<std::size_t> cheaper;
    for (std::size_t i = 0; i < o.candidates.size(); ++i)
      if (o.candidates[i].cost < o.candidates[*o.answer].cost ||
          (o.candidates[i].cost == o.candidates[*o.answer].cost && i < *o.answer))
        cheaper.push_back(i);
    std::stable_sort(cheaper.begin(), cheaper.end(), [&](std::size_t a, std::size_t b) {
      return o.candidates[a].cost > o.candidates[b].cost;
    });
    cheaper.resize(std::min(cheaper.size(), JUST_BELOW));
    o.just_below = cheaper;
    return o;
  }
  for (std::size_t t = 0; t < spec.targets.size(); ++t)
    if (std::none_of(o.candidates.begin(), o.candidates.end(),
                     [t](const CandidateResult& c) { return c.targets[t].met; }))
      o.unmet_targets.push_back(t);
  return o;
}

Json plan_json(const PlanSpec& spec, const PlanOutcome& o)
{
  Json variables = Json::array();
  for (const auto& v : spec.variables)
    variables.push_back({{"key", v.key}, {"search", v.bisect ? "bisect" : "grid"}, {"values", v.values}});
  Json targets = Json::array();
  for (const auto& t : spec.targets)
    targets.push_back({{"metric", t.metric}, {t.at_most ? "at_most" : "at_least", t.threshold}});
  Json candidates = Json::array();
  for (const auto& c : o.candidates)
    candidates.push_back(candidate_json(spec, c));
  Json below = Json::array();
  for (const std::size_t i : o.just_below)
    below.push_back(spec.candidate_id(o.candidates[i].candidate));
  Json unmet = Json::array();
  for (const std::size_t t : o.unmet_targets)
    unmet.push_back(spec.targets[t].describe());
  return Json{{"plan", spec.name},
              {"scenario_digest", spec.scenario_digest},
              {"set", spec.set},
              {"seeds", spec.seeds},
              {"confidence", spec.confidence},
              {"variables", variables},
              {"targets", targets},
              {"cost", spec.cost.describe(spec.variables)},
              {"rounds", o.rounds},
              {"runs", o.runs},
              {"candidates", candidates},
              {"answer", o.answer ? Json(spec.candidate_id(o.candidates[*o.answer].candidate)) : Json(nullptr)},
              {"just_below", below},
              {"unmet_targets", unmet}};
}

void print_plan(std::ostream& out, const PlanSpec& spec, const PlanOutcome& o)
{
  // One row per candidate, cheapest first: its values, cost, and each target's mean and bound.
  std::vector<std::size_t> order(o.candidates.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return o.candidates[a].cost < o.candidates[b].cost; });
  std::vector<std::string> header;
  for (const auto& v : spec.variables)
    header.push_back(v.key);
  header.push_back("cost");
  for (const auto& t : spec.targets)
    header.push_back(t.describe());
  std::vector<std::vector<std::string>> rows{header};
  for (const std::size_t i : order) {
    const CandidateResult& c = o.candidates[i];
    std::vector<std::string> row;
    const auto indices = spec.value_indices(c.candidate);
    for (std::size_t v = 0; v < spec.variables.size(); ++v)
      row.push_back(spec.variables[v].values[indices[v]]);
    row.push_back(shown(c.cost));
    for (const auto& t : c.targets)
      row.push_back(fmt::format("{} ({}) {}", shown(t.value.mean), shown(t.bound),
                                t.met ? "met" : "MISSED"));
    if (o.answer == i)
      row.back() += "  <- answer";
    rows.push_back(std::move(row));
  }
  std::vector<std::size_t> widths(header.size(), 0);
  for (const auto& row : rows)
    for (std::size_t k = 0; k < row.size(); ++k)
      widths[k] = std::max(widths[k], row[k].size());
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t k = 0; k < row.size(); ++k)
      line += fmt::format("{}{:<{}}", k ? "  " : "", row[k], k + 1 < row.size() ? widths[k] : 0);
    out << line << '\n';
  }
  out << fmt::format("(each target: mean over {} seeds, and in brackets its one-sided {:g}% bound)\n",
                     spec.seeds.size(), 100 * spec.confidence);
  if (!o.answer) {
    out << "no candidate meets every target";
    for (const std::size_t t : o.unmet_targets)
      out << fmt::format("; none meets {}", spec.targets[t].describe());
    out << '\n';
    return;
  }
  const CandidateResult& a = o.candidates[*o.answer];
  out << fmt::format("answer: {} (cost {})\n", values_text(spec, a.candidate), shown(a.cost));
  for (std::size_t t = 0; t < spec.targets.size(); ++t)
    out << fmt::format("  {}: mean {}, bound {}, met with confidence {:.3f}\n", spec.targets[t].describe(),
                       shown(a.targets[t].value.mean), shown(a.targets[t].bound),
                       a.targets[t].confidence);
  for (const std::size_t i : o.just_below)
    out << fmt::format("just below: {} (cost {}) misses {}\n", values_text(spec, o.candidates[i].candidate),
                       shown(o.candidates[i].cost), join_names(misses(spec, o.candidates[i])));
}

} // namespace acmesim
