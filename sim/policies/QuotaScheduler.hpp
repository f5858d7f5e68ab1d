#pragma once
// Quotas as Acme ran its clusters (NSDI'24 §3.2): most of each cluster reserved for pretraining,
// evaluation submitted at low priority into the spare capacity. Every job type is a class with
//
//   reserved_<type>  the share of each pod's GPUs reserved for the class (shares sum to at most 1)
//   priority_<type>  classes of higher priority come first in the queue (equal: submission order)
//
// Any job may take idle GPUs, reserved for another class or not (best effort). A class holding
// more of a pod than its reservation borrows there. A queued job whose class is within its
// reservation on a pod, counting the job, owns GPUs there; when it does not fit, it reclaims:
//
//   reclaim 1  preempt borrowers on that pod (classes above their reservation there, lowest
//              priority first, then latest started) until the job fits, and start it
//   reclaim 0  wait, holding EASY's reservation, while borrowers end
//
// Jobs start in queue order while they fit; the jobs behind the first that does not fit are
// backfilled around its reservation (EASY), so backfilling keeps to the rules.
// docs/built-in-policies.md has the defaults and their sources.
#include "sim/policies/EasyBackfillScheduler.hpp"

#include <array>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace acmesim {

inline constexpr std::size_t JOB_CLASS_COUNT = enum_values<JobType>().size();

struct QuotaRules {
  std::array<double, JOB_CLASS_COUNT> reserved_share{}; // by JobType; sum <= 1
  std::array<double, JOB_CLASS_COUNT> priority{};       // by JobType
  std::array<int, JOB_CLASS_COUNT> user_gpus{};          // by JobType: GPUs one user's jobs of the class may hold; 0: any
  bool reclaim_by_preemption = true;
};

class QuotaScheduler final : public EasyBackfillScheduler {
public:
  QuotaScheduler(const Topology& topology, std::unique_ptr<PlacementPolicy> placement,
                 int backfill_depth, QuotaRules rules);

  // GPUs of `pod` reserved for job type `type`, and those its running jobs hold there.
  int reserved(int pod, JobType type) const { return reserved_[slot(pod, type)]; }
  int used(int pod, JobType type) const { return used_[slot(pod, type)]; }

protected:
  void schedule(const ClusterView& view, const std::vector<SchedulerEvent>& events) override;
  void on_started(const ClusterView& view, JobId job) override;
  void on_finished(const ClusterView& view, JobId job) override;
  void on_queued(const ClusterView& view, JobId job) override;
  bool can_preempt() const override { return rules_.reclaim_by_preemption; }

private:
  struct Running {
    int pod = 0;
    JobType type = JobType::Other;
    int gpus = 0; // held at its start: what its class is charged for until it ends
    double start_s = 0;
    std::size_t user = 0; // index in user_ids_
  };
  static std::size_t slot(int pod, JobType type)
  {
    return static_cast<std::size_t>(pod) * JOB_CLASS_COUNT + static_cast<std::size_t>(type);
  }
  double priority(JobType type) const { return rules_.priority[static_cast<std::size_t>(type)]; }
  // Whether the job may start in this pass: not if this pass preempted it, nor if its user holds
  // so many GPUs in jobs of its class that the job would take them beyond the class's user limit.
  bool eligible(const Job& job, JobId id);
  std::size_t user_index(const std::string& user);
  int& user_gpus(std::size_t user, JobType type) { return user_used_[user * JOB_CLASS_COUNT + static_cast<std::size_t>(type)]; }
  // Pods where the job's class stays within its reservation with the job, in pod order.
  std::vector<int> owned_pods(const Job& job) const;
  // Preempts borrowers so that `job` fits on one of the pods it owns GPUs on, and starts it;
  // false (nothing done) if no set of borrowers there would make room.
  bool reclaim_for(const ClusterView& view, JobId job);
  // Borrowers of `pod` that may be preempted for a job of `owner`, in the order they are taken.
  std::vector<JobId> borrowers(const ClusterView& view, int pod, JobType owner) const;

  QuotaRules rules_;
  std::vector<int> reserved_; // by slot(pod, type)
  std::vector<int> used_;     // by slot(pod, type)
  std::unordered_map<JobId, Running> running_;
  // Running jobs of each class on each pod, latest started first: (-start, -id).
  std::vector<std::set<std::pair<double, std::int64_t>>> latest_; // by slot(pod, type)
  std::set<std::pair<double, JobId>> order_; // (-class priority, id): first to start first
  std::set<JobId> preempted_this_pass_;       // not started again in the pass that preempted them
  std::unordered_map<std::string, std::size_t> user_ids_;
  std::vector<int> user_used_; // by user index x JOB_CLASS_COUNT + type: GPUs held, every pod
};

} // namespace acmesim
