#include "sim/experiment/PlanResult.hpp"

#include "models/common/InputError.hpp"
#include "models/common/Text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

namespace acmesim {

namespace {

constexpr std::size_t JUST_BELOW = 3;
constexpr double SECONDS_PER_DAY = 86400;

double mean_of(const std::vector<double>& x)
{
  return std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size());
}

const RunMetric* find_in(const std::vector<RunMetric>& run, const std::string& metric)
{
  const auto it = std::find_if(run.begin(), run.end(), [&](const RunMetric& m) { return m.name == metric; });
  return it == run.end() ? nullptr : &*it;
}

// A metric's value on every seed, or why there is none.
struct SeedValues {
  std::vector<double> values;
  std::string missing; // the first seed whose run does not report it; empty when all do
};

SeedValues metric_over_seeds(const PlanSpec& spec, const std::string& label, const std::string& metric,
                             const SeedMetrics& runs)
{
  SeedValues out;
  for (std::size_t s = 0; s < runs.size(); ++s) {
    const RunMetric* m = find_in(runs[s], metric);
    if (!m)
      return {{}, fmt::format("{} seed {} reports no {} (a job type without GPU jobs has no waits, a CPU machine no "
                              "energy)",
                              label, spec.seeds[s], metric)};
    out.values.push_back(m->value);
  }
  return out;
}

// The base scenario's values of a metric: one it does not report is the plan's error (bad input),
// not a candidate's.
std::vector<double> base_values(const PlanSpec& spec, const std::string& metric, const SeedMetrics& base)
{
  SeedValues v = metric_over_seeds(spec, "the base scenario", metric, base);
  if (v.missing.empty())
    return v.values;
  std::vector<std::string> names;
  for (const auto& each : base.front())
    names.push_back(each.name);
  throw InputError(
      Diagnostic{spec.source, "", metric, fmt::format("{}; it reports: {}", v.missing, join_names(names))});
}

double capital_cost(const PlanSpec& spec, std::size_t candidate)
{
  const auto indices = spec.value_indices(candidate);
  double cost = spec.cost.fixed;
  for (std::size_t i = 0; i < spec.variables.size(); ++i)
    if (spec.cost.per_unit[i] != 0)
      cost += spec.cost.per_unit[i] * spec.variables[i].numbers[indices[i]].value_or(0);
  return cost;
}

// A candidate whose runs do not report what its cost is worked out from.
struct UnknownCost {
  std::string why;
};

// Energy over the horizon: each seed's facility energy per second of its makespan (its mean
// facility power, docs/energy.md) for horizon_days, at the price; the mean over the seeds.
double energy_cost(const PlanSpec& spec, const std::string& label, const SeedMetrics& runs)
{
  const PlanEnergyCost& e = *spec.cost.energy;
  const auto kwh = metric_over_seeds(spec, label, std::string(FACILITY_KWH_METRIC), runs);
  const auto makespan = metric_over_seeds(spec, label, std::string(MAKESPAN_METRIC), runs);
  if (!kwh.missing.empty())
    throw UnknownCost{kwh.missing};
  std::vector<double> bought(runs.size(), 0.0);
  for (std::size_t s = 0; s < runs.size(); ++s)
    if (makespan.values[s] > 0)
      bought[s] = e.price_per_kwh * kwh.values[s] * e.horizon_days * SECONDS_PER_DAY / makespan.values[s];
  return mean_of(bought);
}

TargetResult judge_target(const PlanSpec& spec, const PlanTarget& target, const SeedValues& seeds)
{
  TargetResult r;
  if (!seeds.missing.empty()) {
    r.missing = seeds.missing;
    return r;
  }
  const std::vector<double>& values = seeds.values;
  r.value = one_sided_mean(values, spec.confidence);
  r.bound = target.at_most ? r.value.upper : r.value.lower;
  r.met = target.at_most ? r.bound <= target.threshold : r.bound >= target.threshold;
  r.confidence = target.at_most ? r.value.confidence_at_most(target.threshold)
                                : r.value.confidence_at_least(target.threshold);
  r.margin = target.at_most ? target.threshold - r.bound : r.bound - target.threshold;
  return r;
}

GuardResult judge_guard(const PlanSpec& spec, const PlanGuard& guard, const SeedValues& seeds,
                        const std::vector<double>& base)
{
  GuardResult g;
  g.base_mean = mean_of(base);
  if (!seeds.missing.empty()) {
    g.missing = seeds.missing;
    return g;
  }
  const std::vector<double>& values = seeds.values;
  std::vector<double> worsening(values.size());
  for (std::size_t s = 0; s < values.size(); ++s) {
    const double diff = values[s] - base[s];
    // Within float noise of the base's value is the base's value (PairedStats.hpp).
    const bool noise = std::abs(diff) <= FLOAT_NOISE * std::max(std::abs(values[s]), std::abs(base[s]));
    worsening[s] = noise ? 0.0 : (guard.lower_is_better ? diff : -diff);
  }
  g.worsening = one_sided_mean(worsening, spec.confidence);
  g.allowed = guard.worsens_by_at_most * std::abs(g.base_mean);
  g.met = g.worsening.upper <= g.allowed;
  return g;
}

// Index into `candidates` by candidate number.
std::map<std::size_t, std::size_t> by_number(const std::vector<CandidateResult>& candidates)
{
  std::map<std::size_t, std::size_t> index;
  for (std::size_t i = 0; i < candidates.size(); ++i)
    index[candidates[i].candidate] = i;
  return index;
}

std::optional<std::size_t> bisected(const PlanSpec& spec)
{
  for (std::size_t i = 0; i < spec.variables.size(); ++i)
    if (spec.variables[i].bisect)
      return i;
  return std::nullopt;
}

// The candidate one value along variable `v` from `candidate` (step -1 or +1), if there is one.
std::optional<std::size_t> step_along(const PlanSpec& spec, std::size_t v, std::size_t candidate, int step)
{
  auto indices = spec.value_indices(candidate);
  if ((step < 0 && indices[v] == 0) || (step > 0 && indices[v] + 1 == spec.variables[v].values.size()))
    return std::nullopt;
  indices[v] = step < 0 ? indices[v] - 1 : indices[v] + 1;
  return spec.candidate_of(indices);
}

void find_neighbours(const PlanSpec& spec, PlanOutcome& o)
{
  const CandidateResult& a = o.candidates[*o.answer];
  if (const auto v = bisected(spec)) {
    const auto index = by_number(o.candidates);
    const auto run = [&](std::optional<std::size_t> c) -> std::optional<std::size_t> {
      if (!c || !index.contains(*c))
        return std::nullopt;
      return index.at(*c);
    };
    o.cheaper = run(step_along(spec, *v, a.candidate, -1));
    o.dearer = run(step_along(spec, *v, a.candidate, +1));
    return;
  }
  // A grid ran every candidate: the neighbours are the next in cost either side.
  for (std::size_t i = 0; i < o.candidates.size(); ++i) {
    if (i == *o.answer)
      continue;
    const double cost = o.candidates[i].cost;
    if (cost <= a.cost && (!o.cheaper || cost > o.candidates[*o.cheaper].cost))
      o.cheaper = i;
    if (cost > a.cost && (!o.dearer || cost < o.candidates[*o.dearer].cost))
      o.dearer = i;
  }
}

// Along each line of the bisection variable, for each target and guard, every value at which it
// is met followed by the next value run at which it is missed: bisection assumed there is none.
void find_non_monotone(const PlanSpec& spec, PlanOutcome& o)
{
  const auto v = bisected(spec);
  if (!v)
    return;
  std::map<std::vector<std::size_t>, std::vector<std::size_t>> lines; // grid values -> candidates, by value
  for (std::size_t i = 0; i < o.candidates.size(); ++i) {
    auto key = spec.value_indices(o.candidates[i].candidate);
    key[*v] = 0;
    lines[key].push_back(i); // candidates are in candidate order, so by value along the line
  }
  const auto check = [&](const std::string& what, auto&& met) {
    for (const auto& [key, line] : lines)
      for (std::size_t k = 1; k < line.size(); ++k)
        if (met(o.candidates[line[k - 1]]) && !met(o.candidates[line[k]]))
          o.non_monotone.push_back({line[k - 1], line[k], what});
  };
  for (std::size_t t = 0; t < spec.targets.size(); ++t)
    check(spec.targets[t].describe(), [t](const CandidateResult& c) { return c.targets[t].met; });
  for (std::size_t g = 0; g < spec.guards.size(); ++g)
    check(spec.guards[g].describe(), [g](const CandidateResult& c) { return c.guards[g].met; });
}

} // namespace

double GuardResult::relative() const
{
  if (base_mean == 0)
    return worsening.mean == 0 ? 0.0 : std::copysign(std::numeric_limits<double>::infinity(), worsening.mean);
  return worsening.mean / std::abs(base_mean);
}

bool CandidateResult::feasible() const
{
  return unfit.empty() && std::all_of(targets.begin(), targets.end(), [](const TargetResult& t) { return t.met; }) &&
         std::all_of(guards.begin(), guards.end(), [](const GuardResult& g) { return g.met; });
}

bool RobustnessResult::meets_targets() const
{
  return std::all_of(targets.begin(), targets.end(), [](const TargetResult& t) { return t.met; });
}

void require_base_metrics(const PlanSpec& spec, const SeedMetrics& base)
{
  for (const PlanTarget& target : spec.targets)
    base_values(spec, target.metric, base);
  for (const PlanGuard& guard : spec.guards)
    base_values(spec, guard.metric, base);
  if (spec.cost.metric)
    base_values(spec, *spec.cost.metric, base);
  if (spec.cost.energy)
    base_values(spec, std::string(FACILITY_KWH_METRIC), base);
}

std::vector<TargetResult> judge_targets(const PlanSpec& spec, const std::string& label, const SeedMetrics& runs)
{
  std::vector<TargetResult> out;
  for (const PlanTarget& target : spec.targets)
    out.push_back(judge_target(spec, target, metric_over_seeds(spec, label, target.metric, runs)));
  return out;
}

CandidateResult judge_candidate(const PlanSpec& spec, std::size_t candidate, const SeedMetrics& runs,
                                const SeedMetrics& base)
{
  const std::string label = "candidate " + spec.candidate_id(candidate);
  CandidateResult c;
  c.candidate = candidate;
  c.targets = judge_targets(spec, label, runs);
  for (const PlanGuard& guard : spec.guards)
    c.guards.push_back(judge_guard(spec, guard, metric_over_seeds(spec, label, guard.metric, runs),
                                   base_values(spec, guard.metric, base)));
  // Jobs too large for every pod of the candidate are never run, so its waits leave them out: a
  // candidate that rejects jobs the base scenario runs does not serve the workload.
  const std::string rejected_metric(REJECTED_JOBS_METRIC);
  const SeedValues rejected_seeds = metric_over_seeds(spec, label, rejected_metric, runs);
  const SeedValues base_rejected_seeds = metric_over_seeds(spec, label, rejected_metric, base);
  const double rejected = rejected_seeds.missing.empty() ? mean_of(rejected_seeds.values) : 0;
  const double base_rejected = base_rejected_seeds.missing.empty() ? mean_of(base_rejected_seeds.values) : 0;
  if (rejected > base_rejected)
    c.unfit.push_back(fmt::format("rejects {:g} jobs (mean over the seeds; the base scenario {:g}): larger than "
                                  "every pod, they never run, and its waits leave them out",
                                  rejected, base_rejected));
  try {
    if (spec.cost.metric) {
      const SeedValues cost = metric_over_seeds(spec, label, *spec.cost.metric, runs);
      if (!cost.missing.empty())
        throw UnknownCost{cost.missing};
      c.cost = mean_of(cost.values);
      return c;
    }
    c.capital = capital_cost(spec, candidate);
    c.energy = spec.cost.energy ? energy_cost(spec, label, runs) : 0.0;
    c.cost = c.capital + c.energy;
  } catch (const UnknownCost& e) {
    c.cost = std::numeric_limits<double>::infinity();
    c.unfit.push_back("its cost cannot be worked out: " + e.why);
  }
  return c;
}

std::vector<std::string> misses(const PlanSpec& spec, const CandidateResult& c)
{
  std::vector<std::string> out = c.unfit;
  const auto why = [](const std::string& missing) { return missing.empty() ? "" : ": " + missing; };
  for (std::size_t t = 0; t < spec.targets.size(); ++t)
    if (!c.targets[t].met)
      out.push_back(spec.targets[t].describe() + why(c.targets[t].missing));
  for (std::size_t g = 0; g < spec.guards.size(); ++g)
    if (!c.guards[g].met)
      out.push_back(spec.guards[g].describe() + why(c.guards[g].missing));
  return out;
}

std::vector<MetricBeside> beside_base(const PlanSpec& spec, const SeedMetrics& answer, const SeedMetrics& base)
{
  const auto role_of = [&](const std::string& name) -> std::string {
    for (const auto& t : spec.targets)
      if (t.metric == name)
        return "target";
    for (const auto& g : spec.guards)
      if (g.metric == name)
        return "guard";
    return "";
  };
  const auto mean_over = [](const SeedMetrics& runs, const std::string& name) -> std::optional<double> {
    double sum = 0;
    for (const auto& run : runs) {
      const RunMetric* m = find_in(run, name);
      if (!m)
        return std::nullopt; // not measured on every seed: not compared
      sum += m->value;
    }
    return sum / static_cast<double>(runs.size());
  };
  std::vector<MetricBeside> out;
  for (const MetricName& metric : metric_names()) {
    const auto b = mean_over(base, metric.name), a = mean_over(answer, metric.name);
    if (!a || !b)
      continue;
    MetricBeside m{metric.decl, metric.name, *b, *a, std::nullopt, false, false, role_of(metric.name)};
    const double diff = *a - *b;
    const bool noise = std::abs(diff) <= FLOAT_NOISE * std::max(std::abs(*a), std::abs(*b));
    if (*b != 0)
      m.change = noise ? 0.0 : diff / std::abs(*b);
    const Better better = metric.decl->better;
    m.worse = !noise && ((better == Better::Lower && diff > 0) || (better == Better::Higher && diff < 0));
    m.flagged = m.worse && m.role.empty() && (!m.change || std::abs(*m.change) > spec.warn_worse_than);
    out.push_back(std::move(m));
  }
  return out;
}

PlanOutcome conclude_plan(const PlanSpec& spec, std::vector<CandidateResult> candidates, std::size_t rounds)
{
  PlanOutcome o;
  std::sort(candidates.begin(), candidates.end(),
            [](const CandidateResult& a, const CandidateResult& b) { return a.candidate < b.candidate; });
  o.candidates = std::move(candidates);
  o.rounds = rounds;
  o.runs = o.candidates.size() * spec.seeds.size();
  find_non_monotone(spec, o);
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
    find_neighbours(spec, o);
    return o;
  }
  for (std::size_t t = 0; t < spec.targets.size(); ++t)
    if (std::none_of(o.candidates.begin(), o.candidates.end(),
                     [t](const CandidateResult& c) { return c.targets[t].met; }))
      o.unmet_targets.push_back(t);
  for (std::size_t g = 0; g < spec.guards.size(); ++g)
    if (std::none_of(o.candidates.begin(), o.candidates.end(),
                     [g](const CandidateResult& c) { return c.guards[g].met; }))
      o.unmet_guards.push_back(g);
  return o;
}

std::vector<std::size_t> neighbours_to_run(const PlanSpec& spec, const PlanOutcome& o)
{
  const auto v = bisected(spec);
  if (!o.answer || !v)
    return {};
  const std::size_t answer = o.candidates[*o.answer].candidate;
  const auto index = by_number(o.candidates);
  std::vector<std::size_t> out;
  for (const int step : {-1, +1})
    if (const auto c = step_along(spec, *v, answer, step); c && !index.contains(*c))
      out.push_back(*c);
  return out;
}

} // namespace acmesim
