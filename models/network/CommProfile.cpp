#include "models/network/CommProfile.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace acmesim {

namespace {

// Bytes each rank sends in a ring all-reduce of `bytes` among `ranks` (nccl-tests PERFORMANCE.md).
double ring_allreduce_bytes(double bytes, int ranks) { return ranks > 1 ? 2.0 * (ranks - 1) / ranks * bytes : 0; }

// The largest degree <= `wanted` that divides `of`.
int dividing_degree(int wanted, int of)
{
  int d = std::max(1, std::min(wanted, of));
  while (of % d != 0)
    --d;
  return d;
}

} // namespace

// The DP traffic is hierarchical: node stages over NVLink and the ring across nodes, one after
// the other, all behind the DP window; the pipeline and expert traffic is on the critical path.
double CommProfile::step_s(const CollectivePace& pace, double ib_Bps) const
{
  return infiniband_burst(*this, pace, ib_Bps).step_s(ib_Bps);
}

CollectivePace collective_pace(const CollectiveCalibration& calibration, double nvlink_Bps)
{
  return {nvlink_pace(calibration, nvlink_Bps), calibration.network.step_latency_s};
}

double dp_window_share(const CommSpec& spec)
{
  // ZeRO's traffic splits between the passes as compute does (a gather forward; a gather and a
  // scatter backward, the backward pass twice the forward's FLOPs), so its window stretches by 3/2.
  return spec.data_parallel == DataParallelKind::Zero ? std::min(1.0, 1.5 * spec.dp_overlap) : spec.dp_overlap;
}

CommProfile comm_profile(const CommSpec& spec, const TrainingStep& step)
{
  if (step.gpus < 1 || step.gpus_per_node < 1 || !(step.params > 0) || !(step.tokens_per_step > 0) ||
      !(step.compute_s > 0))
    throw std::invalid_argument("comm_profile: a training step needs GPUs, parameters, tokens and compute time");
  CommProfile p;
  const int per_node = std::min(step.gpus, step.gpus_per_node);
  p.nodes = (step.gpus + step.gpus_per_node - 1) / step.gpus_per_node;
  // A TP group stays inside one node: its degree divides both the job's GPUs and a node's.
  p.tensor_parallel = dividing_degree(spec.tensor_parallel, std::gcd(step.gpus, per_node));
  p.pipeline_parallel = dividing_degree(std::min(spec.pipeline_parallel, p.nodes), step.gpus / p.tensor_parallel);
  p.data_parallel = step.gpus / (p.tensor_parallel * p.pipeline_parallel);
  p.expert_parallel = dividing_degree(spec.expert_parallel, p.data_parallel);
  p.compute_s = step.compute_s;
  p.dp_hidden_s = dp_window_share(spec) * step.compute_s;

  // params = 12 * layers * hidden^2 with hidden = ratio * layers.
  const double hidden = std::cbrt(spec.hidden_per_layer * step.params / 12);
  const double layers_per_stage = hidden / spec.hidden_per_layer / p.pipeline_parallel;
  const double tokens_per_replica = step.tokens_per_step / p.data_parallel;
  const double activations = tokens_per_replica * hidden * spec.activation_bytes;
  const double micro_batches = std::ceil(tokens_per_replica / spec.micro_batch_tokens);
  p.tp_bytes = 4 * layers_per_stage * ring_allreduce_bytes(activations, p.tensor_parallel);
  p.tp_steps = 4 * layers_per_stage * micro_batches * 2 * (p.tensor_parallel - 1);

  // Each GPU holds the gradients of its TP and PP shard. A DP group has `local` ranks on a node
  // and spans `dp_nodes` nodes: the node stages move 2(local-1)/local of a rank's gradients, and
  // the ring across nodes moves 2(n-1)/n of the node's distinct gradients (one copy of each shard);
  // ZeRO-3 moves 3/2 of that.
  const double rank_gradients = step.params * spec.gradient_bytes_per_param / (p.tensor_parallel * p.pipeline_parallel);
  const int local = std::max(1, std::min(p.data_parallel, per_node / p.tensor_parallel));
  const int dp_nodes = (p.data_parallel + local - 1) / local;
  const double sharded = spec.data_parallel == DataParallelKind::Zero ? 1.5 : 1.0;
  p.dp_local_bytes = sharded * ring_allreduce_bytes(rank_gradients, local);
  p.ib_bytes = sharded * ring_allreduce_bytes(rank_gradients * p.tensor_parallel, dp_nodes);
  // A bucket's all-reduce takes 2(k-1) steps among k; ZeRO-3's reduce-scatter and two all-gathers 3(k-1).
  const double buckets = std::ceil(rank_gradients / (spec.dp_bucket_MiB * (1 << 20)));
  const double steps_per_peer = sharded * 2;
  p.dp_local_steps = buckets * steps_per_peer * (local - 1);
  p.ib_steps = buckets * steps_per_peer * (dp_nodes - 1);

  // Pipeline: each of the node's `local` replicas sends its activations to the next stage and
  // their gradients to the one before (a middle stage's traffic, Megatron's scatter-gather
  // splitting it among the TP ranks).
  if (p.pipeline_parallel > 1) {
    p.pp_bytes = 2 * local * activations;
    p.ib_critical_steps += 2 * micro_batches; // one send forward, one back, per micro-batch
  }

  // Experts: an EP group of `e` replicas, `local_ep` of them on this node, sends each replica's
  // tokens x top-k to the group's experts in 4 all-to-alls a MoE layer (dispatch and combine,
  // forward and backward); the (e - local_ep) / e of it bound elsewhere leaves on InfiniBand, the
  // rest of what leaves its GPU stays on NVLink, spread over the node's GPUs.
  if (p.expert_parallel > 1) {
    const int e = p.expert_parallel;
    const int local_ep = std::min(e, local);
    const double node_all_to_all = 4 * layers_per_stage * spec.experts_per_token * local * activations;
    p.ep_bytes = node_all_to_all * (e - local_ep) / e;
    p.tp_bytes += node_all_to_all * (local_ep - 1) / e / per_node;
    if (e > local_ep) // each all-to-all takes a step per other replica of the group (Collectives)
      p.ib_critical_steps += 4 * layers_per_stage * micro_batches * (e - 1);
  }
  return p;
}

namespace {

// What a step's communication takes at `pace` whatever the InfiniBand rate: NVLink's collectives
// and the latencies of the steps across nodes.
struct FixedTimes {
  double critical_s = 0; // TP on NVLink, and the latencies of the pipeline and expert steps
  double dp_s = 0;       // the DP node stages on NVLink, and the latencies of the ring's steps
};

FixedTimes fixed_times(const CommProfile& p, const CollectivePace& pace)
{
  return {pace.nvlink.time_s(p.tp_steps, p.tp_bytes) + p.ib_critical_steps * pace.network_step_s,
          pace.nvlink.time_s(p.dp_local_steps, p.dp_local_bytes) + p.ib_steps * pace.network_step_s};
}

// step(c) = c + critical + max(0, D - share * c), D the DP node stages and ring together: each
// branch is linear in c, with slope 1 while the window hides D and 1 - share once it does not.
// compute_within_step for a profile already built (its compute is not read).
double compute_within(const CommSpec& spec, const CommProfile& shape, double step_s, const CollectivePace& pace,
                      double ib_Bps)
{
  const FixedTimes fixed = fixed_times(shape, pace);
  const double critical_s = fixed.critical_s + shape.ib_critical_bytes() / ib_Bps;
  const double dp_s = fixed.dp_s + shape.ib_bytes / ib_Bps;
  const double share = dp_window_share(spec);
  const double rest = step_s - critical_s;
  if (rest <= 0)
    return 0;
  if (share * rest >= dp_s)
    return rest;
  if (share >= 1)
    return 0;
  return std::max(0.0, (rest - dp_s) / (1 - share));
}

} // namespace

double compute_within_step(const CommSpec& spec, TrainingStep step, double step_s, const CollectivePace& pace,
                           double ib_Bps)
{
  step.compute_s = step_s;
  return compute_within(spec, comm_profile(spec, step), step_s, pace, ib_Bps);
}

CommProfile comm_profile_for_step(const CommSpec& spec, TrainingStep step, double step_s, const CollectivePace& pace,
                                  double ib_Bps, double least_compute_s)
{
  // The bytes do not depend on compute: build the profile once, then set its compute.
  step.compute_s = step_s;
  CommProfile p = comm_profile(spec, step);
  p.compute_s = std::max(compute_within(spec, p, step_s, pace, ib_Bps), least_compute_s);
  p.dp_hidden_s = dp_window_share(spec) * p.compute_s;
  return p;
}

Burst infiniband_burst(const CommProfile& profile, const CollectivePace& pace, double peak_Bps)
{
  Burst burst;
  const FixedTimes fixed = fixed_times(profile, pace);
  burst.critical_bytes = profile.ib_critical_bytes();
  burst.hidden_bytes = profile.ib_bytes;
  burst.window_s = std::max(0.0, profile.dp_hidden_s - fixed.dp_s);
  burst.base_s = profile.compute_s + fixed.critical_s + std::max(0.0, fixed.dp_s - profile.dp_hidden_s);
  burst.peak_Bps = peak_Bps;
  return burst;
}

} // namespace acmesim
