#pragma once
// A ClusterView built by hand: tests submit jobs, end them and take nodes down, call a scheduler
// and apply its decisions, without the engine.
#include "sim/policy_api/PolicySpec.hpp"
#include "sim/policy_api/SchedulerApi.hpp"

#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace acmesim::testing {

// A built-in scheduler by name, as a scenario names it.
inline SchedulerSpec named_scheduler(std::string name, std::string placement = "pack")
{
  SchedulerSpec spec;
  spec.name = std::move(name);
  spec.placement = std::move(placement);
  return spec;
}


class HandBuiltView final : public ClusterView {
public:
  explicit HandBuiltView(const ClusterSpec& spec) : topology_(spec), cluster_(topology_) {}

  double now() const override { return now_; }
  const Topology& topology() const override { return topology_; }
  const ClusterState& cluster() const override { return cluster_; }
  const Job& job(JobId id) const override { return jobs_.at(id); }
  std::size_t job_count() const override { return jobs_.empty() ? 0 : jobs_.rbegin()->first + 1; }
  const std::set<JobId>& queue() const override { return queue_; }
  RunningJob running(JobId id) const override
  {
    RunningJob r = running_.at(id);
    r.estimated_end_s = r.start_s + estimate_s(id);
    return r;
  }
  std::vector<RunningJob> running_jobs() const override
  {
    std::vector<RunningJob> all;
    for (const auto& [id, r] : running_)
      all.push_back(running(id));
    return all;
  }
  const RuntimeEstimates& estimates() const override { return estimates_model; }
  RuntimeEstimates estimates_model; // as a test sets it
  bool preemptible(JobId id) const override { return running_.count(id) > 0 && !recovering.count(id); }
  std::set<JobId> recovering; // running jobs recovering from a failure: not preemptible
  std::vector<JobId> preempted; // every job the scheduler preempted, in order
  double wake_at = 0;           // the last call's Decisions::wake_at
  const EvalChunk& eval_chunk(JobId id) const override { return chunks.at(static_cast<std::size_t>(jobs_.at(id).eval_chunk)); }
  std::vector<EvalChunk> chunks; // for evaluation trials
  std::optional<JobCommunication> communication(JobId id) const override
  {
    const auto it = communications.find(id);
    return running_.count(id) > 0 && it != communications.end() ? std::optional(it->second) : std::nullopt;
  }
  std::map<JobId, JobCommunication> communications; // what running jobs send, as a test sets it

  // Submits jobs at `now` and returns the scheduler's decisions, applied to the view.
  std::vector<JobId> submit(Scheduler& s, double now, std::vector<Job> jobs)
  {
    now_ = now;
    std::vector<SchedulerEvent> events;
    for (auto& j : jobs) {
      queue_.insert(j.id);
      events.push_back({EventKind::JobSubmitted, now, j.id});
      jobs_[j.id] = std::move(j);
    }
    return apply(s.decide(*this, events));
  }

  std::vector<JobId> finish(Scheduler& s, double now, JobId id) { return finish(s, now, std::vector<JobId>{id}); }
  // Jobs that end at the same time, told in one call, as the simulation does.
  std::vector<JobId> finish(Scheduler& s, double now, const std::vector<JobId>& ids)
  {
    now_ = now;
    std::vector<SchedulerEvent> events;
    for (const JobId id : ids) {
      cluster_.give_back(running_.at(id).allocation);
      running_.erase(id);
      events.push_back({EventKind::JobFinished, now, id});
    }
    return apply(s.decide(*this, events));
  }

  const Allocation& allocation(JobId id) const { return running_.at(id).allocation; }
  bool is_running(JobId id) const { return running_.count(id) > 0; }
  bool is_queued(JobId id) const { return queue_.count(id) > 0; }

  // Failures, as the simulation applies them before telling the scheduler (see decide()).
  // A node leaves service. Jobs on it keep their allocation (recovering in place) unless
  // `drop_from_jobs`: then they lose the node, and its GPUs are given back without becoming free.
  void take_down(NodeId node, bool drop_from_jobs = false)
  {
    cluster_.set_in_service(node, false);
    if (!drop_from_jobs)
      return;
    for (auto& [id, run] : running_) {
      auto& parts = run.allocation.parts;
      for (auto it = parts.begin(); it != parts.end();)
        if (it->node == node) {
          Allocation lost;
          lost.parts = {*it};
          cluster_.give_back(lost);
          it = parts.erase(it);
        } else {
          ++it;
        }
    }
  }
  void bring_up(NodeId node) { cluster_.set_in_service(node, true); }
  // An interrupted job gives its GPUs back and waits in the queue again.
  void requeue_job(JobId id)
  {
    cluster_.give_back(running_.at(id).allocation);
    running_.erase(id);
    queue_.insert(id);
  }
  void end_job(JobId id)
  {
    cluster_.give_back(running_.at(id).allocation);
    running_.erase(id);
  }
  void add_to_queue(Job j)
  {
    queue_.insert(j.id);
    jobs_[j.id] = std::move(j);
  }
  // Calls the scheduler at `now` with `events` and applies its decisions.
  std::vector<JobId> decide(Scheduler& s, double now, const std::vector<SchedulerEvent>& events)
  {
    now_ = now;
    return apply(s.decide(*this, events));
  }

private:
  std::vector<JobId> apply(const Decisions& d)
  {
    wake_at = d.wake_at;
    for (JobId id : d.preempts) {
      if (!preemptible(id))
        throw std::logic_error("preempted job " + std::to_string(id) + ", which is not preemptible");
      requeue_job(id);
      preempted.push_back(id);
    }
    std::vector<JobId> started;
    for (const auto& start : d.starts) {
      cluster_.take(start.allocation);
      queue_.erase(start.job);
      running_[start.job] = RunningJob{start.job, now_, start.allocation};
      started.push_back(start.job);
    }
    return started;
  }

  Topology topology_;
  ClusterState cluster_;
  double now_ = 0;
  std::map<JobId, Job> jobs_;
  std::set<JobId> queue_;
  std::map<JobId, RunningJob> running_;
};

} // namespace acmesim::testing
