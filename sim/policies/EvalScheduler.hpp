#pragma once
#include "sim/policies/QueueScheduler.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <utility>

namespace acmesim {

// Evaluation schedulers (Acme NSDI'24 §4.2, §6.2). Jobs that are not evaluation trials start in
// strict submission order, as under fifo.
//
// eval-baseline: each dataset is one trial job holding its GPUs through every phase (remote
// model load, preprocessing, inference, metric); its chunks, if the campaign cut it, run one
// after another in that trial. Trials start in submission order, wherever they fit first.
//
// eval-decoupled: Acme's trial coordinator, each technique switchable on its own:
// - local_model_load: the model is loaded from storage once per node into host memory, and
//   trials read it from there;
// - metric_on_cpu: a trial gives its GPUs to the next one when inference ends; its metric runs
//   on CPUs meanwhile;
// - runtime_packing: the queued trials (chunks) of a campaign start by their known runtimes,
//   longest first, each on the next free GPU slot (longest-first list scheduling; with metrics
//   on CPUs the metric counts in the length, so long CPU work starts early). Off: one trial
//   per dataset, its chunks in a row, in submission order.
class EvalScheduler final : public QueueScheduler {
public:
  struct Techniques {
    bool local_model = false;
    bool metric_on_cpu = false;
    bool packing = false;
  };
  EvalScheduler(const Topology& topology, std::unique_ptr<PlacementPolicy> placement, Techniques techniques);

protected:
  void schedule(const ClusterView& view, const std::vector<SchedulerEvent>& events) override;
  void on_queued(const ClusterView& view, JobId job) override;
  void on_started(const ClusterView& view, JobId job) override;

private:
  // The queue as the packing pass walks it, kept across calls so that a pass costs what it
  // starts, not the length of the queue: the jobs that are not trials, and each campaign's queued
  // trials by id and by priority (longest first, ties by id: the order of a stable sort of the
  // queue). Checked against the view's queue at each call and rebuilt if they differ.
  struct ByPriority {
    bool operator()(const std::pair<double, JobId>& a, const std::pair<double, JobId>& b) const
    {
      return a.first > b.first || (a.first == b.first && a.second < b.second);
    }
  };
  struct CampaignQueue {
    std::set<JobId> ids;
    std::set<std::pair<double, JobId>, ByPriority> by_priority;
  };
  struct Waiting {
    std::set<JobId> others;
    std::map<std::uint32_t, CampaignQueue> campaigns;
    std::set<std::pair<JobId, std::uint32_t>> heads; // (first queued trial, campaign)
    std::size_t count = 0;
  };
  void wait(const ClusterView& view, JobId job);
  void stop_waiting(const ClusterView& view, JobId job);
  // The packing pass: the queue in id order, a job that is not a trial in strict order, each
  // campaign packed at its first queued trial; it ends at the first that starts nothing.
  void schedule_packing(const ClusterView& view);
  // Starts the longest queued trials of `campaign` on the free GPU slots; false if none started.
  bool pack_campaign(const ClusterView& view, std::uint32_t campaign);
  // Starts the queued chunks of the dataset of `first` as one trial; false if it does not fit.
  bool start_dataset(const ClusterView& view, JobId first, std::set<JobId>& taken);
  // Prior runtime of a trial on its GPUs, as the coordinator estimates it.
  double gpu_time(const EvalChunk& chunk) const;
  // What packing orders a campaign's trials by, longest first: the whole trial's work, its metric
  // included wherever it runs (on CPUs, long CPU work then starts early and overlaps the rest).
  static double priority(const EvalChunk& chunk);
  StartDecision decision(JobId job, Allocation allocation) const;

  Techniques techniques_;
  Waiting waiting_; // packing only
};

} // namespace acmesim
