#pragma once
// The read-only view a scheduler decides on (SchedulerApi.hpp), assembled from the components
// that own what it shows: the clock, the job table, the queue, the GPU holders and the training
// jobs (what their rings send), with the scenario's estimate model.
#include "sim/run/Clock.hpp"
#include "sim/run/GpuHolders.hpp"
#include "sim/run/JobQueue.hpp"
#include "sim/run/JobTable.hpp"
#include "sim/run/TrainingJobs.hpp"

#include <stdexcept>
#include <string>

namespace acmesim {

class RunView final : public ClusterView {
public:
  RunView(const Clock& clock, const JobTable& jobs, const JobQueue& queue, const GpuHolders& holders,
          const TrainingJobs& training, RuntimeEstimates estimates)
      : clock_(clock), jobs_(jobs), queue_(queue), holders_(holders), training_(training), estimates_(estimates)
  {
  }

  double now() const override { return clock_.now(); }
  const Topology& topology() const override { return holders_.cluster().topology(); }
  const ClusterState& cluster() const override { return holders_.cluster(); }
  const Job& job(JobId id) const override { return jobs_.job(known(id)); }
  std::size_t job_count() const override { return jobs_.count(); }
  const std::set<JobId>& queue() const override { return queue_.ids(); }
  // A job holds GPUs from its start until it ends or is queued again (running, recovering in
  // place, or leading a group of evaluation trials whose first trial has ended).
  RunningJob running(JobId id) const override
  {
    if (!holders_.holds(id))
      throw std::logic_error("job " + std::to_string(id) + " is not a running GPU job");
    const double start = jobs_.record(id).start_s;
    return RunningJob{id, start, holders_.allocation(id), start + estimate_s(id)};
  }
  std::vector<RunningJob> running_jobs() const override
  {
    std::vector<RunningJob> all;
    all.reserve(holders_.holders().size());
    for (const JobId id : holders_.holders())
      all.push_back(running(id));
    return all;
  }
  const RuntimeEstimates& estimates() const override { return estimates_; }
  bool preemptible(JobId id) const override { return acmesim::preemptible(holders_.phase(known(id))); }
  const EvalChunk& eval_chunk(JobId id) const override
  {
    if (!jobs_.job(known(id)).eval_trial())
      throw std::invalid_argument("eval_chunk(" + std::to_string(id) + "): the job is not an evaluation trial");
    return jobs_.chunk(id);
  }
  std::optional<JobCommunication> communication(JobId id) const override
  {
    return holders_.holds(id) ? training_.communication(id) : std::nullopt;
  }

private:
  // A policy's id, checked: the tables behind the view index without looking.
  JobId known(JobId id) const
  {
    if (id >= jobs_.count())
      throw std::out_of_range("job id " + std::to_string(id) + " is not a job of this run (ids are 0 to " +
                              std::to_string(jobs_.count() - 1) + ")");
    return id;
  }

  const Clock& clock_;
  const JobTable& jobs_;
  const JobQueue& queue_;
  const GpuHolders& holders_;
  const TrainingJobs& training_;
  RuntimeEstimates estimates_; // the scenario's workload.estimates
};

} // namespace acmesim
