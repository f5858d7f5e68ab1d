#include "sim/policies/LasScheduler.hpp"

#include "sim/policies/Registries.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace acmesim {

namespace {

constexpr double NEVER = std::numeric_limits<double>::infinity();

// Assumptions (docs/built-in-policies.md): Tiresias leaves the queues and thresholds to the operator.
std::vector<ParamSpec> las_params()
{
  return {{"queues", "number of priority queues", 3, 1, 16, true},
          {"first_threshold_gpu_hours", "attained service (GPU-hours) at which a job leaves the first queue", 1, 1e-6,
           1e9, false},
          {"threshold_factor", "each further threshold is this many times the one before", 10, 1, 1e6, false}};
}

std::vector<double> thresholds_from(const PolicyParams& params)
{
  std::vector<double> thresholds;
  double t = params.number("first_threshold_gpu_hours") * 3600;
  for (int q = 1; q < params.integer("queues"); ++q, t *= params.number("threshold_factor"))
    thresholds.push_back(t);
  return thresholds;
}

} // namespace

const Registration las(
    scheduler_registry(),
    {"las",
     "Tiresias-style discretised two-dimensional least-attained-service (GPUs x time held): jobs go by queue of "
     "attained service, and preempt jobs of later queues to start; the thresholds are assumptions "
     "(docs/built-in-policies.md)",
     las_params()},
    [](const PolicyParams& params, const Topology& topology, std::unique_ptr<PlacementPolicy> placement) {
      return std::make_unique<LasScheduler>(topology, std::move(placement), thresholds_from(params));
    });

LasScheduler::LasScheduler(const Topology& topology, std::unique_ptr<PlacementPolicy> placement,
                           std::vector<double> thresholds_gpu_s)
    : QueueScheduler(topology, std::move(placement))
    , thresholds_(std::move(thresholds_gpu_s))
    , running_in_(thresholds_.size() + 1)
{
}

int LasScheduler::queue_of(double gpu_s) const
{
  return static_cast<int>(std::upper_bound(thresholds_.begin(), thresholds_.end(), gpu_s) - thresholds_.begin());
}

double LasScheduler::demotion_time(const Running& r) const
{
  if (r.queue >= static_cast<int>(thresholds_.size()))
    return NEVER;
  const double at = r.start_s + (thresholds_[static_cast<std::size_t>(r.queue)] - r.attained_at_start) / r.gpus;
  return std::max(at, std::nextafter(r.start_s, NEVER)); // after the start, even when rounding says not
}

void LasScheduler::on_queued(const ClusterView&, JobId id)
{
  const double attained = handed_over_ && handed_over_->first == id ? handed_over_->second : 0;
  handed_over_.reset();
  attained_[id] = attained;
  order_.emplace(queue_of(attained), id);
}

void LasScheduler::on_started(const ClusterView& view, JobId id)
{
  const auto it = attained_.find(id);
  Running r;
  r.attained_at_start = it->second;
  r.queue = queue_of(r.attained_at_start);
  r.gpus = view.job(id).gpus;
  r.start_s = view.now();
  r.demote_at = demotion_time(r);
  order_.erase({r.queue, id});
  attained_.erase(it);
  running_in_[static_cast<std::size_t>(r.queue)].emplace(-r.start_s, -static_cast<std::int64_t>(id));
  if (r.demote_at != NEVER)
    demotions_.emplace(r.demote_at, id);
  running_.emplace(id, r);
}

void LasScheduler::on_finished(const ClusterView& view, JobId id)
{
  const auto it = running_.find(id);
  const Running& r = it->second;
  running_in_[static_cast<std::size_t>(r.queue)].erase({-r.start_s, -static_cast<std::int64_t>(id)});
  demotions_.erase({r.demote_at, id});
  // Queued again (a preemption or a failure) right after this: on_queued takes it over.
  handed_over_.emplace(id, r.attained_at_start + (view.now() - r.start_s) * r.gpus);
  running_.erase(it);
}

void LasScheduler::demote_due(double now)
{
  while (!demotions_.empty() && demotions_.begin()->first <= now) {
    const JobId id = demotions_.begin()->second;
    demotions_.erase(demotions_.begin());
    Running& r = running_.at(id);
    running_in_[static_cast<std::size_t>(r.queue)].erase({-r.start_s, -static_cast<std::int64_t>(id)});
    ++r.queue;
    running_in_[static_cast<std::size_t>(r.queue)].emplace(-r.start_s, -static_cast<std::int64_t>(id));
    r.demote_at = demotion_time(r);
    if (r.demote_at != NEVER)
      demotions_.emplace(r.demote_at, id);
  }
}

std::vector<JobId> LasScheduler::victims_for(const ClusterView& view, int queue) const
{
  std::vector<JobId> victims;
  for (int q = static_cast<int>(running_in_.size()) - 1; q > queue; --q)
    for (const auto& [neg_start, neg_id] : running_in_[static_cast<std::size_t>(q)]) {
      const auto id = static_cast<JobId>(-neg_id);
      if (view.preemptible(id))
        victims.push_back(id);
    }
  return victims;
}

void LasScheduler::schedule(const ClusterView& view, const std::vector<SchedulerEvent>&)
{
  preempted_this_pass_.clear();
  demote_due(view.now());
  // Starting a job takes it out of order_: step past it first. Preempted jobs join order_ during
  // the pass; they are skipped until the next one.
  auto it = order_.begin();
  while (it != order_.end()) {
    const auto [queue, id] = *it++;
    if (preempted_this_pass_.count(id) > 0 || try_start(view, id))
      continue;
    const std::vector<JobId> victims = victims_for(view, queue);
    const std::size_t taken = start_by_preempting(view, id, victims);
    preempted_this_pass_.insert(victims.begin(), victims.begin() + static_cast<std::ptrdiff_t>(taken));
    // With no GPU free and nobody to preempt, no job behind (same queue or later) can start.
    if (taken == 0 && victims.empty() && mirror().free_gpus_total() == 0)
      break;
  }
  // A running job crossing a threshold may then yield to a queued one.
  if (!demotions_.empty() && !order_.empty())
    wake_at(demotions_.begin()->first);
}

} // namespace acmesim
