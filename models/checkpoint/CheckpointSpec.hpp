#pragma once
// How pretraining jobs checkpoint and restart: the model a job trains (from its GPU count), its
// throughput, when it checkpoints (fixed interval, Young's or Daly's optimum), how (synchronous
// write or asynchronous snapshot + upload) and what a restart costs. Sources and assumptions:
// docs/checkpointing.md and ../shared/reference/models.md §2.
#include "models/cluster/ClusterSpec.hpp"
#include "models/common/EnumNames.hpp"
#include "models/workload/Job.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace acmesim {

enum class CheckpointMode : std::uint8_t {
  Sync,  // training blocks while the checkpoint is written to storage
  Async, // training blocks for a snapshot to host memory; the upload overlaps training
};

constexpr auto enum_names(CheckpointMode) { return names_in_order<CheckpointMode>("sync", "async"); }

enum class IntervalPolicy : std::uint8_t {
  Fixed, // every interval_s seconds of training (or interval_steps steps)
  Young, // sqrt(2 * delta * M)                       (Young 1974)
  Daly,  // Daly's higher-order optimum                (Daly 2006)
};
constexpr auto enum_names(IntervalPolicy) { return names_in_order<IntervalPolicy>("fixed", "young", "daly"); }

// Jobs with at most `max_gpus` GPUs train a model of `params_billion` parameters.
struct ModelSizeRule {
  int max_gpus = 0;
  double params_billion = 0;
};

struct CheckpointSpec {
  bool enabled = false;
  std::vector<JobType> job_types{JobType::Pretrain}; // which jobs train with checkpoints

  // Model size by GPU count: the first rule whose max_gpus >= the job's GPUs; jobs larger
  // than every rule take the last one. Default (assumption, docs/checkpointing.md): Acme trained
  // 7B to 123B InternLM models; small jobs get the small model, the largest jobs the largest.
  std::vector<ModelSizeRule> model_sizes{{64, 7}, {256, 20}, {1024, 123}};
  double bytes_per_param = 14; // full training state: bf16 weights + fp32 master + Adam moments

  // Throughput: step time = 6 * params * tokens_per_step / (gpus * peak_flops * mfu), unless
  // step_time_s > 0 is given. The peak is the cluster's GPUs' at `precision` (GpuSpec) unless the
  // scenario gives it; the loader resolves it (sim/config/HardwareDefaults).
  Precision precision = Precision::Bf16;
  double peak_tflops_per_gpu = GpuSpec{}.peak(Precision::Bf16); // A100 dense BF16: 312
  double mfu = 0.4;
  double tokens_per_step = 4e6;
  double step_time_s = 0;

  CheckpointMode mode = CheckpointMode::Sync;
  IntervalPolicy interval_policy = IntervalPolicy::Fixed;
  double interval_s = 1800; // Fixed (used when interval_steps == 0): Acme's 30 minutes
  int interval_steps = 0;   // Fixed, in training steps (> 0 overrides interval_s)
  // Async: seconds to copy a node's shard of the checkpoint to host memory is
  // shard bytes / snapshot_GBps (GPU -> host over PCIe).
  double snapshot_GBps = 25;

  // Paid on every start after an interruption. The first start pays nothing extra: a job's
  // duration (from the trace or the generator) already includes its first initialisation.
  double init_s = 300; // process launch, framework and data-loader initialisation

  // Whether jobs of `type` train with checkpoints under this spec.
  bool covers(JobType type) const
  {
    return enabled && std::find(job_types.begin(), job_types.end(), type) != job_types.end();
  }
};

} // namespace acmesim
