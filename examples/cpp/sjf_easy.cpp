// Shortest job first with EASY-style reservations, as a scheduler plugin for acmesim
// (docs/writing-a-scheduler.md). The same policy is written in Python in examples/python/sjf_easy.py; both
// give identical results.
//
// Queued jobs go in order of their runtime estimate (the recorded duration; the job id breaks
// ties). Jobs start in that order while they fit. The first one that does not fit gets a
// reservation: the earliest time enough GPUs free up, from the estimated ends of the running jobs
// (its shadow time). A job behind it may start now if it is estimated to end by then, or if the
// GPUs it takes are not needed by the reserved job at the shadow time.
#include "sim/policies/QueueScheduler.hpp"
#include "sim/policy_api/SchedulerPlugin.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace {

using namespace acmesim;

class SjfEasy final : public QueueScheduler {
public:
  SjfEasy(const Topology& topology, std::unique_ptr<PlacementPolicy> placement, int depth)
      : QueueScheduler(topology, std::move(placement)), depth_(depth)
  {
  }

private:
  // QueueScheduler tells of each start and end; the running jobs' estimated ends follow them.
  void on_started(const ClusterView& view, JobId job) override
  {
    const double end = view.now() + view.job(job).duration_s;
    end_of_[job] = end;
    by_end_.emplace(end, job);
  }
  void on_finished(const ClusterView&, JobId job) override
  {
    by_end_.erase({end_of_.at(job), job});
    end_of_.erase(job);
  }

  void schedule(const ClusterView& view, const std::vector<SchedulerEvent>&) override
  {
    std::vector<JobId> order(view.queue().begin(), view.queue().end());
    std::stable_sort(order.begin(), order.end(), [&](JobId a, JobId b) {
      return view.job(a).duration_s < view.job(b).duration_s;
    });
    auto it = order.begin();
    while (it != order.end() && try_start(view, *it))
      ++it;
    if (it == order.end())
      return;
    // The reservation of the first job that did not fit: release running jobs in order of
    // estimated end until it fits.
    const Job& head = view.job(*it);
    CapacityProfile at_shadow = mirror().capacity();
    double shadow = view.now();
    for (const auto& [end, running] : by_end_) {
      if (at_shadow.fits(head.gpus))
        break;
      at_shadow.give_back(allocation_of(running));
      shadow = end;
    }
    int examined = 0;
    for (++it; it != order.end() && examined < depth_ && mirror().free_gpus_total() > 0; ++it, ++examined) {
      const Job& job = view.job(*it);
      if (view.now() + job.duration_s <= shadow) {
        try_start(view, *it);
        continue;
      }
      // Runs past the shadow time: only on GPUs the reserved job does not need then.
      Allocation allocation = placement().place(mirror(), job.gpus);
      if (allocation.empty())
        continue;
      at_shadow.take(allocation);
      if (at_shadow.fits(head.gpus))
        start_on(view, *it, std::move(allocation));
      else
        at_shadow.give_back(allocation);
    }
  }

  int depth_;
  std::map<JobId, double> end_of_;
  std::set<std::pair<double, JobId>> by_end_;
};

SchedulerPlugin sjf_easy()
{
  return {{"sjf-easy", "shortest job first, with an EASY reservation for the first job that does not fit",
           {{"depth", "queued jobs examined behind the reserved one, per pass", 1000, 1, 1e9, true}}},
          [](const PolicyParams& params, const Topology& topology, std::unique_ptr<PlacementPolicy> placement) {
            return std::make_unique<SjfEasy>(topology, std::move(placement), params.integer("depth"));
          }};
}

} // namespace

ACMESIM_SCHEDULER_PLUGIN(sjf_easy)
