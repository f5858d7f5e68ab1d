#include "sim/policies/PolicyFactory.hpp"

#include "sim/policies/EasyBackfillScheduler.hpp"
#include "sim/policies/EvalScheduler.hpp"
#include "sim/policies/FifoScheduler.hpp"
#include "sim/policies/PolicyCatalogue.hpp"
#include "sim/policies/Placements.hpp"

#include <stdexcept>

namespace acmesim {

namespace {
double param(const SchedulerSpec& spec, const std::string& name)
{
  if (auto it = spec.params.find(name); it != spec.params.end())
    return it->second;
  const auto* info = find_policy(scheduler_catalogue(), spec.name);
  for (const auto& p : info->params)
    if (p.name == name)
      return p.default_value;
  throw std::logic_error("scheduler " + spec.name + " has no parameter " + name);
}
} // namespace

std::unique_ptr<PlacementPolicy> make_placement(const std::string& name, std::uint64_t seed)
{
  if (name == "pack")
    return std::make_unique<PackPlacement>();
  if (name == "spread")
    return std::make_unique<SpreadPlacement>();
  if (name == "random")
    return std::make_unique<RandomPlacement>(make_stream(seed, "placement.random"));
  throw std::invalid_argument("unknown placement policy '" + name + "'; valid: " + policy_names(placement_catalogue()));
}

std::unique_ptr<Scheduler> make_scheduler(const SchedulerSpec& spec, const Topology& topology, std::uint64_t seed)
{
  auto placement = make_placement(spec.placement, seed);
  if (spec.name == "fifo")
    return std::make_unique<FifoScheduler>(topology, std::move(placement));
  if (spec.name == "easy-backfill")
    return std::make_unique<EasyBackfillScheduler>(topology, std::move(placement),
                                                   param(spec, "runtime_estimate_factor"),
                                                   static_cast<int>(param(spec, "backfill_depth")));
  if (spec.name == "eval-baseline")
    return std::make_unique<EvalScheduler>(topology, std::move(placement), EvalScheduler::Techniques{});
  if (spec.name == "eval-decoupled")
    return std::make_unique<EvalScheduler>(topology, std::move(placement),
                                           EvalScheduler::Techniques{param(spec, "local_model_load") > 0,
                                                                     param(spec, "metric_on_cpu") > 0,
                                                                     param(spec, "runtime_packing") > 0});
  throw std::invalid_argument("unknown scheduler '" + spec.name + "'; valid: " + policy_names(scheduler_catalogue()));
}

} // namespace acmesim
