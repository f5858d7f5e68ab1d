#include "sim/experiment/PlanReport.hpp"

#include "models/common/Text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace acmesim {

namespace {

// Numbers on the terminal: six significant digits (plan.json keeps them whole).
std::string shown(double v)
{
  return fmt::format("{:.6g}", v);
}

std::string percent(double share)
{
  return std::isfinite(share) ? fmt::format("{:+.1f}%", 100 * share) : "from 0";
}

std::string cost_text(const PlanSpec& spec, double cost)
{
  if (!std::isfinite(cost)) // the runs do not report what it is worked out from
    return "unknown";
  return spec.cost.unit.empty() ? shown(cost) : shown(cost) + " " + spec.cost.unit;
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

// A judged number, or null when the runs gave none (`missing` says why).
Json known(const std::string& missing, double value) { return missing.empty() ? Json(value) : Json(nullptr); }
Json missing_json(const std::string& missing) { return missing.empty() ? Json(nullptr) : Json(missing); }

Json targets_json(const PlanSpec& spec, const std::vector<TargetResult>& results)
{
  Json targets = Json::array();
  for (std::size_t t = 0; t < spec.targets.size(); ++t) {
    const TargetResult& r = results[t];
    targets.push_back({{"metric", spec.targets[t].metric},
                       {"mean", known(r.missing, r.value.mean)},
                       {"sd", known(r.missing, r.value.sd)},
                       {"bound", known(r.missing, r.bound)},
                       {"margin", known(r.missing, r.margin)},
                       {"met", r.met},
                       {"confidence", known(r.missing, r.confidence)},
                       {"missing", missing_json(r.missing)}});
  }
  return targets;
}

Json candidate_json(const PlanSpec& spec, const CandidateResult& c)
{
  Json guards = Json::array();
  for (std::size_t g = 0; g < spec.guards.size(); ++g) {
    const GuardResult& r = c.guards[g];
    const double relative = r.relative();
    guards.push_back({{"metric", spec.guards[g].metric},
                      {"base_mean", r.base_mean},
                      {"worsening_mean", known(r.missing, r.worsening.mean)},
                      {"worsening_bound", known(r.missing, r.worsening.upper)},
                      {"allowed", r.allowed},
                      {"relative", std::isfinite(relative) ? known(r.missing, relative) : Json(nullptr)},
                      {"met", r.met},
                      {"missing", missing_json(r.missing)}});
  }
  Json out{{"id", spec.candidate_id(c.candidate)},
           {"values", values_json(spec, c.candidate)},
           {"cost", std::isfinite(c.cost) ? Json(c.cost) : Json(nullptr)}, // null: unknown (misses says why)
           {"meets_targets", c.feasible()},
           {"targets", targets_json(spec, c.targets)},
           {"guards", guards},
           {"misses", misses(spec, c)}};
  if (!spec.cost.metric)
    out["cost_parts"] = {{"capital", c.capital}, {"energy", c.energy}};
  return out;
}

Json beside_json(const std::vector<MetricBeside>& beside)
{
  Json out = Json::array();
  for (const MetricBeside& m : beside)
    out.push_back({{"metric", m.name},
                   {"unit", m.decl->unit},
                   {"better", to_string(m.decl->better)},
                   {"base", m.base},
                   {"answer", m.answer},
                   {"change", m.change ? Json(*m.change) : Json(nullptr)},
                   {"worse", m.worse},
                   {"flagged", m.flagged},
                   {"role", m.role}});
  return out;
}

// The candidates as a table, cheapest first: values, cost, and each target's mean and bound.
void print_candidates(std::ostream& out, const PlanSpec& spec, const PlanOutcome& o)
{
  std::vector<std::size_t> order(o.candidates.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return o.candidates[a].cost < o.candidates[b].cost; });
  std::vector<std::string> header;
  for (const auto& v : spec.variables)
    header.push_back(v.key);
  header.push_back(spec.cost.unit.empty() ? "cost" : "cost (" + spec.cost.unit + ")");
  for (const auto& t : spec.targets)
    header.push_back(t.describe());
  for (const auto& g : spec.guards)
    header.push_back(g.metric + " vs base");
  std::vector<std::vector<std::string>> rows{header};
  for (const std::size_t i : order) {
    const CandidateResult& c = o.candidates[i];
    std::vector<std::string> row;
    const auto indices = spec.value_indices(c.candidate);
    for (std::size_t v = 0; v < spec.variables.size(); ++v)
      row.push_back(spec.variables[v].values[indices[v]]);
    row.push_back(std::isfinite(c.cost) ? shown(c.cost) : "unknown");
    for (const auto& t : c.targets)
      row.push_back(t.missing.empty()
                        ? fmt::format("{} ({}) {}", shown(t.value.mean), shown(t.bound), t.met ? "met" : "MISSED")
                        : "no value MISSED");
    for (const auto& g : c.guards)
      row.push_back(g.missing.empty() ? fmt::format("{} {}", percent(g.relative()), g.met ? "met" : "MISSED")
                                      : "no value MISSED");
    if (!c.unfit.empty())
      row.back() += "  (unfit: plan.json says why)";
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
  out << fmt::format("(each target: mean over {} seeds, and in brackets its one-sided {:g}% bound{})\n",
                     spec.seeds.size(), 100 * spec.confidence,
                     spec.guards.empty() ? "" : "; each guard: the mean change from the base, judged on its bound");
}

std::string margins_text(const PlanSpec& spec, const CandidateResult& c)
{
  std::vector<std::string> parts;
  for (std::size_t t = 0; t < spec.targets.size(); ++t)
    parts.push_back(fmt::format("{} {}", spec.targets[t].metric, shown(c.targets[t].margin)));
  return join_names(parts);
}

void print_neighbour(std::ostream& out, const PlanSpec& spec, const char* which, const CandidateResult& c)
{
  const auto missed = misses(spec, c);
  out << fmt::format("  one step {}: {} (cost {}) {}; margins {}\n", which, values_text(spec, c.candidate),
                     cost_text(spec, c.cost), missed.empty() ? "meets everything" : "misses " + join_names(missed),
                     margins_text(spec, c));
}

void print_beside_base(std::ostream& out, const PlanSpec& spec, const PlanOutcome& o)
{
  std::vector<const MetricBeside*> changed;
  for (const auto& m : o.beside_base)
    if (m.answer != m.base && m.change != 0.0)
      changed.push_back(&m);
  out << fmt::format("the answer beside the base scenario, means over {} seeds ({} of {} metrics changed; ! = over "
                     "{:g}% worse, neither target nor guard; plan.json lists every metric):\n",
                     spec.seeds.size(), changed.size(), o.beside_base.size(), 100 * spec.warn_worse_than);
  std::size_t width = 0;
  for (const auto* m : changed)
    width = std::max(width, m->name.size());
  for (const auto* each : changed) {
    const MetricBeside& m = *each;
    out << fmt::format("  {} {:<{}}  {:>12} -> {:<12} {:>8}  {}{}\n", m.flagged ? "!" : " ", m.name, width,
                       shown(m.base), shown(m.answer), m.change ? percent(*m.change) : (m.answer == 0 ? "" : "from 0"),
                       m.decl->unit, m.role.empty() ? "" : " (" + m.role + ")");
  }
}

void print_answer(std::ostream& out, const PlanSpec& spec, const PlanOutcome& o)
{
  const CandidateResult& a = o.candidates[*o.answer];
  out << fmt::format("answer: {} (cost {}{})\n", values_text(spec, a.candidate), cost_text(spec, a.cost),
                     spec.cost.energy ? fmt::format(": capital {}, energy {}", shown(a.capital), shown(a.energy))
                                      : "");
  for (std::size_t t = 0; t < spec.targets.size(); ++t)
    out << fmt::format("  {}: mean {}, bound {}, margin {}, met with confidence {:.3f}\n",
                       spec.targets[t].describe(), shown(a.targets[t].value.mean), shown(a.targets[t].bound),
                       shown(a.targets[t].margin), a.targets[t].confidence);
  for (std::size_t g = 0; g < spec.guards.size(); ++g)
    out << fmt::format("  {}: {} (base {}, bound of the change {})\n", spec.guards[g].describe(),
                       percent(a.guards[g].relative()), shown(a.guards[g].base_mean),
                       shown(a.guards[g].worsening.upper));
  for (const std::size_t i : o.just_below)
    out << fmt::format("just below: {} (cost {}) misses {}\n", values_text(spec, o.candidates[i].candidate),
                       cost_text(spec, o.candidates[i].cost), join_names(misses(spec, o.candidates[i])));
  if (o.cheaper || o.dearer)
    out << "neighbours (margin: from each target's bound to its threshold; negative is a miss):\n";
  if (o.cheaper)
    print_neighbour(out, spec, "cheaper", o.candidates[*o.cheaper]);
  if (o.dearer)
    print_neighbour(out, spec, "dearer", o.candidates[*o.dearer]);
  for (const auto& r : o.robustness) {
    std::vector<std::string> missed;
    for (std::size_t t = 0; t < spec.targets.size(); ++t)
      if (!r.targets[t].met)
        missed.push_back(fmt::format("{} (mean {}, bound {})", spec.targets[t].describe(),
                                     shown(r.targets[t].value.mean), shown(r.targets[t].bound)));
    out << fmt::format("at load x{:g}: {}\n", r.load_scale,
                       missed.empty() ? "the answer still meets every target" : "misses " + join_names(missed));
  }
}

} // namespace

Json plan_json(const PlanSpec& spec, const PlanOutcome& o)
{
  Json variables = Json::array();
  for (const auto& v : spec.variables)
    variables.push_back({{"key", v.key}, {"search", v.bisect ? "bisect" : "grid"}, {"values", v.values}});
  Json targets = Json::array();
  for (const auto& t : spec.targets)
    targets.push_back({{"metric", t.metric}, {t.at_most ? "at_most" : "at_least", t.threshold}});
  Json guards = Json::array();
  for (const auto& g : spec.guards)
    guards.push_back({{"metric", g.metric}, {"worsens_by_at_most", g.worsens_by_at_most}});
  Json candidates = Json::array();
  for (const auto& c : o.candidates)
    candidates.push_back(candidate_json(spec, c));
  const auto id_of = [&](std::size_t i) { return spec.candidate_id(o.candidates[i].candidate); };
  const auto maybe_id = [&](std::optional<std::size_t> i) { return i ? Json(id_of(*i)) : Json(nullptr); };
  Json below = Json::array();
  for (const std::size_t i : o.just_below)
    below.push_back(id_of(i));
  Json unmet = Json::array();
  for (const std::size_t t : o.unmet_targets)
    unmet.push_back(spec.targets[t].describe());
  for (const std::size_t g : o.unmet_guards)
    unmet.push_back(spec.guards[g].describe());
  Json non_monotone = Json::array();
  for (const auto& pair : o.non_monotone)
    non_monotone.push_back({{"what", pair.what}, {"meets", id_of(pair.met)}, {"misses", id_of(pair.missed)}});
  Json robustness = Json::array();
  for (const auto& r : o.robustness)
    robustness.push_back({{"load_scale", r.load_scale},
                          {"meets_targets", r.meets_targets()},
                          {"targets", targets_json(spec, r.targets)}});
  return Json{{"plan", spec.name},
              {"scenario_digest", spec.scenario_digest},
              {"set", spec.set},
              {"seeds", spec.seeds},
              {"confidence", spec.confidence},
              {"variables", variables},
              {"targets", targets},
              {"guards", guards},
              {"warn_worse_than", spec.warn_worse_than},
              {"cost", spec.cost.describe(spec.variables)},
              {"cost_unit", spec.cost.unit},
              {"rounds", o.rounds},
              {"runs", o.runs},
              {"candidates", candidates},
              {"answer", o.answer ? Json(id_of(*o.answer)) : Json(nullptr)},
              {"just_below", below},
              {"neighbours", {{"cheaper", maybe_id(o.cheaper)}, {"dearer", maybe_id(o.dearer)}}},
              {"non_monotone", non_monotone},
              {"beside_base", beside_json(o.beside_base)},
              {"robustness", robustness},
              {"unmet_targets", unmet}};
}

void print_plan(std::ostream& out, const PlanSpec& spec, const PlanOutcome& o)
{
  print_candidates(out, spec, o);
  for (const auto& pair : o.non_monotone)
    out << fmt::format("not monotone: {} meets {} but the later {} does not\n",
                       values_text(spec, o.candidates[pair.met].candidate), pair.what,
                       values_text(spec, o.candidates[pair.missed].candidate));
  if (!o.non_monotone.empty())
    out << "(bisection assumes a target once met stays met along its variable: a cheaper value than those run may "
           "meet every target)\n";
  if (!o.answer) {
    out << "no candidate meets every target";
    for (const std::size_t t : o.unmet_targets)
      out << fmt::format("; none meets {}", spec.targets[t].describe());
    for (const std::size_t g : o.unmet_guards)
      out << fmt::format("; none meets {}", spec.guards[g].describe());
    out << '\n';
    return;
  }
  print_answer(out, spec, o);
  print_beside_base(out, spec, o);
}

} // namespace acmesim
