#pragma once
// The arithmetic of checkpointing, free of any engine: sizes, throughput and the optimal
// interval formulas. The simulation turns these into timers and storage flows.
#include "models/checkpoint/CheckpointSpec.hpp"

namespace acmesim {

// Parameters of the model a job of `gpus` GPUs trains (from spec.model_sizes).
double model_params(const CheckpointSpec& spec, int gpus);
// Bytes of one full checkpoint of that model (params * bytes_per_param).
double checkpoint_bytes(const CheckpointSpec& spec, int gpus);
// Seconds of a step's FLOPs, 6 * N * tokens, on `gpus` GPUs at `mfu` of their peak.
double flops_time_s(const CheckpointSpec& spec, int gpus, double mfu);
// Seconds per training step (given, or flops_time_s at spec.mfu).
double step_time_s(const CheckpointSpec& spec, int gpus);
// Training tokens per second of useful training.
double tokens_per_second(const CheckpointSpec& spec, int gpus);

// Optimal intervals (seconds of training between checkpoints) for a checkpoint that blocks
// training for `delta_s` on a job whose mean time between failures is `mtbf_s`.
// +infinity when mtbf_s is infinite (a job that never fails needs no checkpoint).
double young_interval(double delta_s, double mtbf_s);
// Daly (2006), eq. 37: sqrt(2 d M) * (1 + sqrt(d / (2M)) / 3 + d / (18 M)) - d for d < 2M, else M.
double daly_interval(double delta_s, double mtbf_s);

// The interval the spec's policy gives a job of `gpus` GPUs with blocking cost `delta_s` and
// MTBF `mtbf_s`; never below one step.
double checkpoint_interval(const CheckpointSpec& spec, int gpus, double delta_s, double mtbf_s);

} // namespace acmesim
