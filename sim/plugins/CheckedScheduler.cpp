#include "sim/plugins/CheckedScheduler.hpp"

#include <fmt/format.h>

#include <set>

namespace acmesim {

namespace {

std::string job_name(const ClusterView& view, JobId id) { return fmt::format("{} (id {})", view.job(id).name, id); }

// Whether the allocation's GPUs are free on `room` (taking them if they are), or why not.
std::string take_free(CapacityProfile& room, const Allocation& allocation)
{
  for (const auto& part : allocation.parts) {
    if (!room.in_service(part.node))
      return fmt::format("node {} is out of service", part.node);
    if (room.free_gpus(part.node) < part.gpus)
      return fmt::format("node {} has {} free GPUs, the decision takes {}", part.node, room.free_gpus(part.node),
                         part.gpus);
  }
  room.take(allocation);
  return "";
}

} // namespace

CheckedScheduler::CheckedScheduler(std::string plugin, std::unique_ptr<Scheduler> inner)
    : plugin_(std::move(plugin)), inner_(std::move(inner))
{
}

Decisions CheckedScheduler::decide(const ClusterView& view, const std::vector<SchedulerEvent>& events)
{
  Decisions decisions;
  try {
    decisions = inner_->decide(view, events);
  } catch (const PluginError&) {
    throw;
  } catch (const std::exception& e) {
    throw PluginError(fmt::format("scheduler {} failed at simulated time {:.3f} s: {}", plugin_, view.now(), e.what()));
  }
  if (const std::string wrong = problem(view, decisions); !wrong.empty())
    throw PluginError(fmt::format("scheduler {} at simulated time {:.3f} s: {}", plugin_, view.now(), wrong));
  return decisions;
}

std::string CheckedScheduler::problem(const ClusterView& view, const Decisions& d) const
{
  if (!(d.wake_at > view.now()))
    return fmt::format("asked to be woken at {:.3f} s, not after now", d.wake_at);
  if (d.preempts.empty() && d.starts.empty())
    return "";
  CapacityProfile room = view.cluster().capacity();
  std::set<JobId> preempted;
  for (const JobId id : d.preempts) {
    if (id >= view.job_count() || !view.preemptible(id) || !preempted.insert(id).second)
      return fmt::format("preempt job {}: it is not a running job that may be preempted now",
                         id < view.job_count() ? job_name(view, id) : std::to_string(id));
    room.give_back(view.running(id).allocation);
  }
  std::set<JobId> started;
  for (const StartDecision& s : d.starts) {
    const auto queued = [&](JobId id) {
      return id < view.job_count() && (view.queue().count(id) > 0 || preempted.count(id) > 0) &&
             started.insert(id).second;
    };
    if (!queued(s.job))
      return fmt::format("start job {}: it is not waiting in the queue",
                         s.job < view.job_count() ? job_name(view, s.job) : std::to_string(s.job));
    for (const JobId then : s.then)
      if (!queued(then))
        return fmt::format("start job {} then job {}: the latter is not waiting in the queue", job_name(view, s.job),
                           then < view.job_count() ? job_name(view, then) : std::to_string(then));
    const Job& job = view.job(s.job);
    if (const std::string shape = allocation_problem(view.topology(), job, s.allocation); !shape.empty())
      return fmt::format("start job {} with an allocation {}", job_name(view, s.job), shape);
    if (const std::string taken = take_free(room, s.allocation); !taken.empty())
      return fmt::format("start job {}: {}", job_name(view, s.job), taken);
  }
  return "";
}

} // namespace acmesim
