#pragma once
// How one training step of a GPU job splits between compute and the communication of each kind of
// parallelism, and how that step stretches when the job gets less bandwidth than on its reference
// fabric. Engine-free: the simulation measures the bandwidth a job gets on the platform and asks
// this model for its speed. Sources and assumptions: docs/network.md ("What a training step costs")
// and ../shared/reference/models.md §4.
//
// Layout (Megatron-LM / InternEvo style, Narayanan et al. SC'21): tensor parallelism inside a
// node over NVLink, pipeline and data parallelism across nodes over InfiniBand, experts over the
// data-parallel replicas.
//  - Tensor parallel (TP) all-reduces of activations: 4 per layer per micro-step (2 forward,
//    2 backward), each of tokens x hidden x activation bytes, on the step's critical path.
//  - Data parallel (DP): a ring all-reduce of the gradients, 2(n-1)/n of the bytes per rank
//    (nccl-tests doc/PERFORMANCE.md), or ZeRO-3's reduce-scatter of gradients and two all-gathers
//    of parameters, 3(n-1)/n (Rajbhandari et al. SC'20: 1.5 times data parallelism's volume);
//    compute hides it until it outgrows its window.
//  - Pipeline parallel (PP): each stage sends its activations forward and their gradients back,
//    on the critical path (a stage waits for its input).
//  - Expert parallel (EP, mixture of experts): per MoE layer an all-to-all to dispatch the tokens to
//    their experts and one to combine them, forward and backward, on the critical path.
// Each collective is timed as the collective model times it (models/network/Collectives: a step's
// latency per ring step, bus bytes at the calibrated bus bandwidth), once per call: TP all-reduces
// per micro-batch, DP rings per gradient bucket.

#include "models/network/BurstSharing.hpp"
#include "models/network/Collectives.hpp"

namespace acmesim {

// How data-parallel replicas keep their gradients in step: an all-reduce, or ZeRO-3 / FSDP's
// sharded parameters (reduce-scatter of gradients, all-gather of parameters before each pass).
enum class DataParallelKind : std::uint8_t { AllReduce, Zero };
constexpr auto enum_names(DataParallelKind) { return names_in_order<DataParallelKind>("allreduce", "zero"); }

// The knobs of the profile; defaults are assumptions unless a source is named.
struct CommSpec {
  int tensor_parallel = 8;           // TP degree, capped at the GPUs of a node (the NVLink domain)
  int pipeline_parallel = 1;         // PP degree across nodes (assumption: 1, data parallel only)
  double gradient_bytes_per_param = 2; // bf16 gradients
  double activation_bytes = 2;       // bf16 activations
  // hidden size / layers: hidden = (ratio * params / 12)^(1/3) from params = 12 * layers * hidden^2
  // (assumption: 128 as in 7B LLaMA/InternLM, 4096 / 32, and GPT-3 175B, 12288 / 96).
  double hidden_per_layer = 128;
  // Share of the step's compute behind which the DP all-reduce can run (assumption: the
  // backward pass, about 2/3 of forward + backward, with gradient bucketing). ZeRO also gathers
  // the parameters before the forward pass, which hides behind the forward compute: its window is
  // 3/2 of this share of compute, all of it at the default (dp_window_share).
  double dp_overlap = 2.0 / 3.0;
  // All-reduce by default: InternEvo V1, the 3D-parallel layout Acme's pretraining ran (Acme §4.1).
  DataParallelKind data_parallel = DataParallelKind::AllReduce;
  // Expert-parallel degree over the DP replicas; 1: a dense model (Acme's InternLM models).
  int expert_parallel = 1;
  // Experts each token goes to (top-k routing): 2 as in GShard and Mixtral (assumption).
  int experts_per_token = 2;
  // The most of the GPUs' peak a step's compute alone reaches (assumption, docs/network.md "Compute
  // is compute's"): FlashAttention-2 trains GPT models at up to 72% MFU end to end on A100s
  // (Dao 2023, arXiv 2307.08691), so compute alone is at least that fast.
  double max_compute_mfu = 0.72;
  // Tokens of one micro-batch of a replica: each TP all-reduce, pipeline send and expert all-to-all
  // carries one micro-batch's activations, so a step makes that many more calls, each paying its
  // latency. Assumption: InternEvo's 7B example configuration (configs/7B_sft.py) packs micro-batches
  // of 2 sequences of 2,048 tokens.
  double micro_batch_tokens = 4096;
  // MiB of a GPU's gradients reduced per call of the DP traffic (a bucket): InternEvo's hybrid ZeRO
  // reduces 512 MiB buckets (configs/7B_sft.py, reduce_bucket_size).
  double dp_bucket_MiB = 512;
};

// What a step's collectives run at on one fabric: a GPU's NVLink as the collective model paces it
// (nvlink_pace) and the latency of a ring step across nodes; the bandwidth across nodes is the rate
// the ring gets, given apart.
struct CollectivePace {
  TierPace nvlink;
  double network_step_s = 0;
};

// The pace of a fabric of `nvlink_Bps` per GPU (nominal) under `calibration`.
CollectivePace collective_pace(const CollectiveCalibration& calibration, double nvlink_Bps);

// What the profile needs to know of the job and its model.
struct TrainingStep {
  double params = 0;          // model parameters
  double tokens_per_step = 0; // global batch, tokens
  double compute_s = 0;       // seconds of computation alone per step (compute_within_step)
  int gpus = 0;
  int gpus_per_node = 8;
};

// A job's layout and its traffic per step.
struct CommProfile {
  int tensor_parallel = 1;
  int pipeline_parallel = 1;
  int data_parallel = 1;
  int expert_parallel = 1;
  int nodes = 1;
  double compute_s = 0;
  // Sent by each GPU per step over NVLink on the critical path: its TP all-reduces and the part of
  // its expert all-to-alls that stays on its node.
  double tp_bytes = 0;
  double dp_local_bytes = 0;  // sent by each GPU per step over NVLink in the DP traffic's node stages
  double ib_bytes = 0;        // sent by each node per step over InfiniBand in the DP traffic's ring
  double pp_bytes = 0;        // sent by each node per step over InfiniBand to its pipeline neighbours
  double ep_bytes = 0;        // sent by each node per step over InfiniBand in its expert all-to-alls
  double dp_hidden_s = 0;     // compute time behind which the DP traffic can run
  // Ring steps a step takes, each paying its tier's latency (collectives one after another):
  double tp_steps = 0;          // the TP all-reduces', on NVLink, critical
  double dp_local_steps = 0;    // the DP node stages', on NVLink
  double ib_steps = 0;          // the DP ring's across nodes
  double ib_critical_steps = 0; // the pipeline sends' and expert all-to-alls' across nodes

  double ib_critical_bytes() const { return pp_bytes + ep_bytes; }

  // Seconds of one step at `pace` when each node gets `ib_Bps` over InfiniBand (infiniband_burst's
  // step). A job on one node has no InfiniBand term.
  double step_s(const CollectivePace& pace, double ib_Bps) const;
};

CommProfile comm_profile(const CommSpec& spec, const TrainingStep& step);

// The share of a step's compute behind which its DP traffic runs.
double dp_window_share(const CommSpec& spec);

// The seconds of compute in a step that lasts `step_s` at `pace` with `ib_Bps` per node on
// InfiniBand, for the job `step` describes (its compute_s is not read). MFU as published is end to
// end (tokens a second over the peak's, the stalls of communication included; models.md §4), so the
// step it gives is the step on the reference fabric, and compute is that step less the
// communication that compute does not hide there. 0 when even no compute at all leaves the traffic
// too long for `step_s`.
double compute_within_step(const CommSpec& spec, TrainingStep step, double step_s, const CollectivePace& pace,
                           double ib_Bps);

// The profile of the job `step` describes when its step lasts `step_s` on the reference fabric
// (`pace`, `ib_Bps`): its compute is compute_within_step's, never less than
// `least_compute_s` (its FLOPs at max_compute_mfu), so that a fabric too slow for the step makes
// the reference step longer instead.
CommProfile comm_profile_for_step(const CommSpec& spec, TrainingStep step, double step_s, const CollectivePace& pace,
                                  double ib_Bps, double least_compute_s);

// The job's InfiniBand traffic per step as a burst on its nodes' links, at `pace` and with
// `peak_Bps` the most a node's ring flow can get (its NICs alone): the pipeline and expert traffic
// is critical, its steps' latencies too; the DP ring is hidden behind what is left of its window
// once the NVLink node stages and the ring's step latencies have run, and a window they overrun
// adds the overrun to the critical path. The step at any InfiniBand rate, whatever limits it (the
// NICs, an oversubscribed uplink, other jobs' bursts, a checkpoint upload), is this burst's step_s:
// one rule. A job on one node has no bytes on InfiniBand.
Burst infiniband_burst(const CommProfile& profile, const CollectivePace& pace, double peak_Bps);

} // namespace acmesim
