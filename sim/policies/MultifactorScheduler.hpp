#pragma once
// Slurm's multifactor priority with EASY backfilling, as Acme's Seren cluster ran Slurm (NSDI'24
// §2.2). Each queued job's priority is a weighted sum of factors between 0 and 1, as Slurm's
// priority/multifactor plugin defines them:
//
//   age        time queued over max_age_s, capped at 1
//   fair share 2^(-U/S), Slurm's classic formula: U the user's share of all GPU-seconds used so
//              far, each second's use decaying with half-life half_life_s; S the user's share
//              of the cluster (every user seen gets the same)
//   job size   GPUs asked over the cluster's GPUs (or 1 minus that with favor_small)
//   QoS        a value per job type
//
// Priorities are computed again every calc_period_s, as Slurm's PriorityCalcPeriod does; a job
// entering the queue gets its priority at once. Jobs start in priority order (equal priorities:
// submission order); the first that does not fit holds EASY's reservation and later ones are
// backfilled around it (EasyBackfillScheduler).
#include "sim/policies/EasyBackfillScheduler.hpp"

#include <array>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace acmesim {

struct MultifactorWeights {
  double age = 0;
  double max_age_s = 0;
  double fair_share = 0;
  double half_life_s = 0;
  double job_size = 0;
  bool favor_small = false;
  double qos = 0;
  std::array<double, enum_values<JobType>().size()> qos_of_type{}; // by JobType, each in [0, 1]
  double calc_period_s = 0;
};

class MultifactorScheduler final : public EasyBackfillScheduler {
public:
  MultifactorScheduler(const Topology& topology, std::unique_ptr<PlacementPolicy> placement,
                       int backfill_depth, MultifactorWeights weights);

  // A queued job's priority now, from usage as last brought up to date (for tests and reports).
  double priority(const ClusterView& view, JobId job) const;
  // The fair-share factor of `user` as of the last update of usage.
  double fair_share(const std::string& user) const;

protected:
  void schedule(const ClusterView& view, const std::vector<SchedulerEvent>& events) override;
  void on_started(const ClusterView& view, JobId job) override;
  void on_finished(const ClusterView& view, JobId job) override;
  void on_queued(const ClusterView& view, JobId job) override;

private:
  struct Usage {
    double decayed_gpu_s = 0; // as of usage_at_
    int running_gpus = 0;
  };
  // Decays every user's usage to `now` and adds what their running jobs used since.
  void bring_usage_to(double now);
  std::size_t user_index(const std::string& user);
  void enqueue(const ClusterView& view, JobId job);
  void recompute(const ClusterView& view);

  MultifactorWeights weights_;
  int cluster_gpus_;
  std::unordered_map<std::string, std::size_t> user_ids_;
  std::vector<Usage> usage_; // by user index
  // Running jobs: the GPUs their user is charged for, as at their start (the allocation the base
  // class keeps shrinks with failed nodes and is gone when on_finished is called).
  std::unordered_map<JobId, int> charged_gpus_;
  double total_decayed_gpu_s_ = 0;
  double usage_at_ = 0;
  double next_calc_s_ = 0;
  std::set<std::pair<double, JobId>> order_; // (-priority, id): highest priority first
  std::unordered_map<JobId, double> key_of_; // -priority in order_
};

} // namespace acmesim
