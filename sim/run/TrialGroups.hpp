#pragma once
// Evaluation trials. A start decision runs one trial, or a group of trials one after another on
// the same GPUs (the model stays loaded between them). Each trial goes through model load (first
// trial of a group only), preprocessing, inference and its metric, which either holds the GPUs
// or, with metric_on_cpu, runs on CPUs while the next trial starts. With local_model the model
// comes over PCIe from the node's host memory, filled from storage once per campaign and node by
// the first trial that needs it (Acme NSDI'24 §6.2). Campaigns are submitted at given times or,
// in whole-cluster runs, triggered by checkpoints of large pretraining jobs.
#include "models/checkpoint/CheckpointSpec.hpp"
#include "models/evaluation/EvalSpec.hpp"
#include "sim/run/CpuWork.hpp"
#include "sim/run/JobQueue.hpp"
#include "sim/run/RunCore.hpp"
#include "sim/run/TransferTable.hpp"

#include <unordered_map>
#include <utility>
#include <vector>

namespace acmesim {

struct CampaignRun {
  double submit_s = 0;
  std::int64_t trigger_job = -1; // the pretraining job whose checkpoint it evaluates; -1: scheduled
  int checkpoint = 0;            // which of that job's checkpoints
};

class TrialGroups {
public:
  TrialGroups(RunCore core, JobQueue& queue, TransferTable& transfers, CpuWork& cpu_work, const EvalSpec* evaluation,
              const CheckpointSpec* checkpoint);

  // The leader of `start` holds its GPUs (Starting): its trials begin.
  void begin(const StartDecision& start);
  // The timer of the leader's phase is due.
  void on_timer(JobId leader);
  // The group's model arrived from storage.
  void model_loaded(JobId leader);
  // A node's copy of a campaign's model is in its host memory.
  void node_model_ready(std::uint64_t key);

  // A pretraining job committed its `checkpoints`-th checkpoint: it may trigger a campaign.
  void checkpoint_committed(JobId job, int checkpoints);
  bool has_pending_triggers() const { return !pending_triggers_.empty(); }
  // Submits, now, the campaigns of the checkpoints committed since the last call.
  void launch_triggered_campaigns();
  // Every campaign of the run, in the order they were submitted (index = EvalChunk::campaign).
  const std::vector<CampaignRun>& campaigns() const { return campaigns_; }

private:
  struct Group {
    JobId on_gpu = 0;        // the trial now on the GPUs
    std::vector<JobId> rest; // trials still to run, in order
    bool local_model = false;
    bool metric_on_cpu = false;
  };
  struct NodeModel {
    bool ready = false;
    std::vector<JobId> waiting; // group leaders
  };
  void start_trial(JobId leader, Group& group, bool load);
  void load_model(JobId leader, const Group& group);
  void model_on_gpus(JobId leader, const Group& group);
  void trial_off_gpus(JobId leader, Group& group);

  RunCore core_;
  const EvalSpec* evaluation_;
  const CheckpointSpec* checkpoint_;
  JobQueue& queue_;
  TransferTable& transfers_;
  CpuWork& cpu_work_;
  int smallest_node_gpus_;
  std::unordered_map<JobId, Group> groups_;                // by leader
  std::unordered_map<std::uint64_t, NodeModel> node_models_; // key: campaign << 32 | node
  std::vector<CampaignRun> campaigns_;
  std::vector<std::pair<JobId, int>> pending_triggers_; // (job, checkpoints committed)
};

} // namespace acmesim
