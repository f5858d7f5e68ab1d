// Reading a plan file (PlanSpec.hpp, docs/planning.md): every key checked, every problem reported
// with its place in the file, before anything runs.
#include "sim/experiment/PlanSpec.hpp"

#include "models/common/InputError.hpp"
#include "models/common/Text.hpp"
#include "sim/config/WorkloadSection.hpp"
#include "sim/keys/ConfigTree.hpp"
#include "sim/report/RunMetrics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace acmesim {

namespace {

// A plan searches at most this many candidates (the product of its variables' values).
constexpr double MAX_CANDIDATES = 1e6;
// Values of one variable: a range finer than this is a typo.
constexpr double MAX_VALUES = 100000;

class PlanReader {
public:
  explicit PlanReader(ConfigChecker& checker) : shared_(checker), checker_(checker)
  {
  }

  void read(const ConfigNode& root, PlanSpec& spec)
  {
    MapReader top(checker_, &root, "", {"name", "scenario", "set", "seeds", "first_seed", "confidence", "variables",
                                        "cost", "targets", "guards", "warn_worse_than", "robustness", "out",
                                        "slurm"});
    if (!top.ok())
      return;
    shared_.read_name(top, spec.name);
    shared_.read_scenario(top, spec.scenario);
    top.read("out", spec.out);
    shared_.read_set(top, spec.set);
    spec.seeds = shared_.read_seeds(top);
    if (spec.seeds.size() < 2)
      checker_.error(top.get("seeds") ? *top.get("seeds") : root, "seeds",
                     "expected at least 2 seeds: a target is judged by a confidence bound over the seeds");
    top.read("confidence", spec.confidence, number_between(0.5, 0.9999));
    if (top.require("variables"))
      read_variables(*top.get("variables"), spec);
    if (top.require("targets"))
      read_targets(*top.get("targets"), spec.targets);
    if (top.get("guards"))
      read_guards(*top.get("guards"), spec.guards);
    top.read("warn_worse_than", spec.warn_worse_than, number_between(0, 100));
    if (top.get("robustness"))
      read_robustness(*top.get("robustness"), spec);
    if (top.require("cost"))
      read_cost(*top.get("cost"), spec);
    shared_.read_slurm(top, spec.slurm);
    spec.key_where = shared_.key_where();
  }

private:
  void read_variables(const ConfigNode& node, PlanSpec& spec)
  {
    if (!checker_.expect_map(node, "variables"))
      return;
    if (node.entries.empty())
      checker_.error(node, "variables", "expected at least one variable");
    double product = 1;
    const ConfigNode* bisected = nullptr;
    for (const auto& e : node.entries) {
      if (!shared_.valid_key(e, "variables"))
        continue;
      PlanVariable v{e.key, {}, {}, false};
      read_variable(e.value, join_key("variables", e.key), v);
      if (v.values.empty())
        continue;
      if (v.bisect) {
        if (bisected)
          checker_.error(e.value, join_key("variables", e.key),
                         "at most one variable may be searched by bisection (the others are a grid)");
        bisected = &e.value;
      }
      product *= static_cast<double>(v.values.size());
      spec.variables.push_back(std::move(v));
    }
    if (product > MAX_CANDIDATES)
      checker_.error(node, "variables",
                     fmt::format("{:.0f} candidates is more than the {:.0f} a plan may have", product, MAX_CANDIDATES));
  }

  void read_variable(const ConfigNode& node, const std::string& key, PlanVariable& v)
  {
    MapReader m(checker_, &node, key, {"values", "from", "to", "step", "search"});
    if (!m.ok()) {
      if (!node.is_map())
        checker_.error(node, key, "expected a map: {values: [...]} or {from: a, to: b, step: s}, and search: "
                                  "grid or bisect");
      return;
    }
    std::string search = "grid";
    m.read_choice("search", search, {"grid", "bisect"});
    v.bisect = search == "bisect";
    const ConfigNode* values = m.get("values");
    const bool range = m.get("from") || m.get("to") || m.get("step");
    if (values && range) {
      checker_.error(node, key, "give either values or from/to/step, not both");
      return;
    }
    if (values) {
      if (!checker_.expect_list(*values, m.key_of("values")))
        return;
      if (values->items.empty())
        checker_.error(*values, m.key_of("values"), "expected a non-empty list of values");
      for (const auto& item : values->items) {
        v.values.push_back(override_text(item));
        v.numbers.push_back(item.is_scalar() ? parse_double(item.scalar) : std::nullopt);
      }
      return;
    }
    double from = 0, to = 0, step = 1;
    const bool has_from = m.require("from") && m.read("from", from, any_number());
    const bool has_to = m.require("to") && m.read("to", to, any_number());
    m.read("step", step, positive());
    if (!has_from || !has_to)
      return;
    if (to < from) {
      checker_.error(*m.get("to"), m.key_of("to"), "expected a number >= from");
      return;
    }
    const double count = std::floor((to - from) / step + 1e-9) + 1;
    if (count > MAX_VALUES) {
      checker_.error(node, key, fmt::format("{:.0f} values is more than the {:.0f} a variable may have", count,
                                            MAX_VALUES));
      return;
    }
    for (int i = 0; i < static_cast<int>(count); ++i) {
      const double x = from + i * step;
      v.values.push_back(format_number(x));
      v.numbers.push_back(x);
    }
  }

  // A metric the table declares (RunMetrics.hpp): a misspelt one is found before any run.
  bool known_metric(MapReader& m, const std::string& name)
  {
    if (find_metric(name))
      return true;
    checker_.error(*m.get("metric"), m.key_of("metric"),
                   "expected a metric (acmesim list metrics, docs/metrics.md); did you mean " + nearest_metric(name) +
                       "?");
    return false;
  }

  void read_targets(const ConfigNode& node, std::vector<PlanTarget>& targets)
  {
    if (!checker_.expect_list(node, "targets"))
      return;
    if (node.items.empty())
      checker_.error(node, "targets", "expected at least one target");
    for (std::size_t i = 0; i < node.items.size(); ++i) {
      const std::string key = fmt::format("targets.{}", i);
      MapReader m(checker_, &node.items[i], key, {"metric", "at_most", "at_least"});
      if (!m.ok()) {
        if (!node.items[i].is_map())
          checker_.error(node.items[i], key, "expected {metric: NAME, at_most: X} or {metric: NAME, at_least: X}");
        continue;
      }
      PlanTarget t;
      const bool has_metric = m.require("metric") && m.read("metric", t.metric) && known_metric(m, t.metric);
      const bool most = m.get("at_most") != nullptr, least = m.get("at_least") != nullptr;
      if (most == least) {
        checker_.error(node.items[i], key, "expected exactly one of at_most and at_least");
        continue;
      }
      t.at_most = most;
      if (m.read(most ? "at_most" : "at_least", t.threshold, any_number()) && has_metric)
        targets.push_back(std::move(t));
    }
  }

  void read_guards(const ConfigNode& node, std::vector<PlanGuard>& guards)
  {
    if (!checker_.expect_list(node, "guards"))
      return;
    for (std::size_t i = 0; i < node.items.size(); ++i) {
      const std::string key = fmt::format("guards.{}", i);
      MapReader m(checker_, &node.items[i], key, {"metric", "worsens_by_at_most"});
      if (!m.ok()) {
        if (!node.items[i].is_map())
          checker_.error(node.items[i], key, "expected {metric: NAME, worsens_by_at_most: SHARE}");
        continue;
      }
      PlanGuard g;
      const bool has_metric = m.require("metric") && m.read("metric", g.metric) && known_metric(m, g.metric);
      const bool has_share =
          m.require("worsens_by_at_most") && m.read("worsens_by_at_most", g.worsens_by_at_most, number_between(0, 100));
      if (!has_metric || !has_share)
        continue;
      const MetricDecl* decl = find_metric(g.metric);
      if (decl->better == Better::Neither) {
        checker_.error(*m.get("metric"), m.key_of("metric"),
                       "this metric has no better direction (acmesim list metrics), so it cannot worsen: guard one "
                       "that does");
        continue;
      }
      g.lower_is_better = decl->better == Better::Lower;
      guards.push_back(std::move(g));
    }
  }

  void read_robustness(const ConfigNode& node, PlanSpec& spec)
  {
    MapReader m(checker_, &node, "robustness", {"load_scale"});
    if (!m.ok() || !m.require("load_scale"))
      return;
    const ConfigNode& scales = *m.get("load_scale");
    if (!checker_.expect_list(scales, "robustness.load_scale"))
      return;
    for (std::size_t i = 0; i < scales.items.size(); ++i) {
      const std::string key = fmt::format("robustness.load_scale.{}", i);
      const auto scale = checker_.number(scales.items[i], key, LOAD_SCALE_RANGE);
      if (!scale)
        continue;
      auto& listed = spec.robustness_load_scales;
      if (std::find(listed.begin(), listed.end(), *scale) != listed.end())
        checker_.error(scales.items[i], key, "this scale is listed twice");
      else
        listed.push_back(*scale);
    }
    for (const auto& v : spec.variables)
      if (v.key == LOAD_SCALE_KEY)
        checker_.error(node, "robustness", LOAD_SCALE_KEY + " is a variable of this plan: robustness reruns the "
                                                           "answer at other scales of it, so it cannot be both");
    // A rerun sets the scale outright: under a scale of set:, "1" would be the answer's scale and
    // "1.5" not 1.5 times it.
    for (const auto& s : spec.set)
      if (s.starts_with(LOAD_SCALE_KEY + "="))
        checker_.error(node, "robustness", LOAD_SCALE_KEY + " is set for every run (set:): robustness reruns the "
                                                           "answer at the scales it lists, so it cannot be both");
  }

  void read_energy(const ConfigNode& node, PlanCost& cost)
  {
    MapReader m(checker_, &node, "cost.energy", {"price_per_kwh", "horizon_days"});
    if (!m.ok())
      return;
    PlanEnergyCost energy;
    const bool price = m.require("price_per_kwh") && m.read("price_per_kwh", energy.price_per_kwh, at_least(0));
    const bool horizon =
        m.require("horizon_days") && m.read("horizon_days", energy.horizon_days, number_between(1e-3, 36500));
    if (price && horizon)
      cost.energy = energy;
  }

  void read_cost(const ConfigNode& node, PlanSpec& spec)
  {
    MapReader m(checker_, &node, "cost", {"metric", "fixed", "per_unit", "energy", "unit"});
    if (!m.ok()) {
      if (!node.is_map())
        checker_.error(node, "cost",
                       "expected {metric: NAME} or {per_unit: {KEY: PRICE, ...}, fixed: X, energy: {...}, unit: U}");
      return;
    }
    PlanCost& cost = spec.cost;
    cost.per_unit.assign(spec.variables.size(), 0.0);
    m.read("unit", cost.unit);
    std::string metric;
    if (m.read("metric", metric) && known_metric(m, metric))
      cost.metric = metric;
    const ConfigNode* per_unit = m.get("per_unit");
    const ConfigNode* energy = m.get("energy");
    if (cost.metric && (per_unit || m.get("fixed") || energy)) {
      checker_.error(node, "cost", "give either metric, or per_unit, fixed and energy (capital and energy), not both");
      return;
    }
    if (!m.get("metric") && !per_unit && !energy) {
      checker_.error(node, "cost", "expected metric: NAME, or per_unit: {KEY: PRICE, ...} and/or energy: "
                                   "{price_per_kwh: P, horizon_days: D}");
      return;
    }
    m.read("fixed", cost.fixed, any_number());
    if (energy)
      read_energy(*energy, cost);
    if (!per_unit || !checker_.expect_map(*per_unit, "cost.per_unit"))
      return;
    for (const auto& e : per_unit->entries) {
      const std::string key = join_key("cost.per_unit", e.key);
      std::size_t i = 0;
      while (i < spec.variables.size() && spec.variables[i].key != e.key)
        ++i;
      if (i == spec.variables.size()) {
        checker_.error(e.key_where, key, e.key, "expected one of the plan's variables");
        continue;
      }
      const auto price = checker_.number(e.value, key, at_least(0));
      if (!price)
        continue;
      cost.per_unit[i] = *price;
      const auto& numbers = spec.variables[i].numbers;
      if (std::find(numbers.begin(), numbers.end(), std::nullopt) != numbers.end())
        checker_.error(e.key_where, key, e.key, "a price per unit needs a variable whose values are all numbers");
    }
  }

  ExperimentFileReader shared_;
  ConfigChecker& checker_;
};

} // namespace

PlanSpec parse_plan(std::string_view text, const std::string& source, const std::string& base_dir,
                    const std::string& default_name)
{
  return parse_experiment<PlanSpec, PlanReader>(text, source, base_dir, default_name);
}

PlanSpec load_plan_file(const std::string& path)
{
  return load_experiment<PlanSpec, PlanReader>(path, "plan");
}

} // namespace acmesim
