#pragma once
// How one training step of a GPU job splits between compute and the communication that compute
// does not hide, and how that step stretches when the job gets less bandwidth than on its
// reference fabric. Engine-free: the simulation measures the bandwidth a job gets on the platform
// and asks this model for its speed. Sources and assumptions: docs/network.md and
// ../shared/reference/models.md §4.
//
// Layout (Megatron-LM / InternEvo style, Narayanan et al. SC'21): tensor parallelism inside a
// node over NVLink, pipeline and data parallelism across nodes over InfiniBand.
//  - Tensor parallel (TP) all-reduces of activations: 4 per layer per micro-step (2 forward,
//    2 backward), each of tokens x hidden x activation bytes, on the step's critical path.
//  - Data parallel (DP) gradient all-reduce: ring over the DP group, 2(n-1)/n of the gradient
//    bytes per rank (nccl-tests doc/PERFORMANCE.md), which backward compute can partly hide.

#include "models/network/BurstSharing.hpp"

namespace acmesim {

// The knobs of the profile; defaults are assumptions unless a source is named.
struct CommSpec {
  int tensor_parallel = 8;           // TP degree, capped at the GPUs of a node (the NVLink domain)
  int pipeline_parallel = 1;         // PP degree across nodes (assumption: InternEvo V2 uses ZeRO-style DP)
  double gradient_bytes_per_param = 2; // bf16 gradients
  double activation_bytes = 2;       // bf16 activations
  // hidden size / layers: hidden = (ratio * params / 12)^(1/3) from params = 12 * layers * hidden^2
  // (assumption: 128 as in 7B LLaMA/InternLM, 4096 / 32, and GPT-3 175B, 12288 / 96).
  double hidden_per_layer = 128;
  // Share of the step's compute behind which the DP all-reduce can run (assumption: the
  // backward pass, about 2/3 of forward + backward, with gradient bucketing).
  double dp_overlap = 2.0 / 3.0;
};

// What the profile needs to know of the job and its model.
struct TrainingStep {
  double params = 0;          // model parameters
  double tokens_per_step = 0; // global batch, tokens
  double compute_s = 0;       // seconds of computation per step (6 * params * tokens / FLOP/s)
  int gpus = 0;
  int gpus_per_node = 8;
};

// A job's layout and its traffic per step.
struct CommProfile {
  int tensor_parallel = 1;
  int pipeline_parallel = 1;
  int data_parallel = 1;
  int nodes = 1;
  double compute_s = 0;
  double tp_bytes = 0;      // sent by each GPU per step over NVLink for its TP all-reduces
  double dp_local_bytes = 0; // sent by each GPU per step over NVLink in the DP all-reduce's node stages
  double ib_bytes = 0;      // sent by each node per step over InfiniBand in the DP all-reduce's ring
  double dp_hidden_s = 0;   // compute time behind which the DP all-reduce can run

  // Seconds of one step when each GPU gets `nvlink_Bps` over NVLink and each node `ib_Bps` over
  // InfiniBand (infiniband_burst's step). A job on one node has no InfiniBand term.
  double step_s(double nvlink_Bps, double ib_Bps) const;
};

CommProfile comm_profile(const CommSpec& spec, const TrainingStep& step);

// The job's InfiniBand traffic per step as a burst on its nodes' links, with NVLink at
// `nvlink_Bps` per GPU and `peak_Bps` the most a node's ring flow can get (its NICs alone): the
// gradient ring is hidden behind what is left of the backward window once the NVLink node stages
// have run; a window they overrun adds the overrun to the critical path. The step at any InfiniBand
// rate, whatever limits it (the NICs, an oversubscribed uplink, other jobs' bursts, a checkpoint
// upload), is this burst's step_s: one rule. A job on one node has no bytes on InfiniBand.
Burst infiniband_burst(const CommProfile& profile, double nvlink_Bps, double peak_Bps);

} // namespace acmesim
