#pragma once
// How one job checkpoints, planned when it first starts: the size of its checkpoints, the time a
// snapshot to host memory blocks it, and the training time between checkpoints, which Young's
// and Daly's policies derive from what a checkpoint blocks and how often the job fails.
#include "models/checkpoint/CheckpointSpec.hpp"

namespace acmesim {

struct CheckpointPlan {
  double bytes = 0;      // one full checkpoint of the job's model
  double snapshot_s = 0; // copying a node's shard to host memory (asynchronous checkpoints)
  double interval_s = 0; // seconds of training between checkpoints
};

// The plan of a job of `gpus` GPUs on `nodes` nodes whose uncontended storage path moves
// `write_Bps` bytes per second, expected to be interrupted `failures_per_s` times per second
// (0: never). A synchronous checkpoint blocks for the whole write, an asynchronous one for the
// snapshot only.
CheckpointPlan plan_checkpoints(const CheckpointSpec& spec, int gpus, int nodes, double write_Bps,
                                double failures_per_s);

} // namespace acmesim
