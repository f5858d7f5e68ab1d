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
double CommProfile::step_s(double nvlink_Bps, double ib_Bps) const
{
  return infiniband_burst(*this, nvlink_Bps, ib_Bps).step_s(ib_Bps);
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
  p.tp_bytes = 4 * layers_per_stage * ring_allreduce_bytes(activations, p.tensor_parallel);

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

  // Pipeline: each of the node's `local` replicas sends its activations to the next stage and
  // their gradients to the one before (a middle stage's traffic, Megatron's scatter-gather
  // splitting it among the TP ranks).
  if (p.pipeline_parallel > 1)
    p.pp_bytes = 2 * local * activations;

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
  }
  return p;
}

// step(c) = c + critical + max(0, D - share * c), D the DP node stages and ring together: each
// branch is linear in c, with slope 1 while the window hides D and 1 - share once it does not.
namespace {

// compute_within_step for a profile already built (its compute is not read).
double compute_within(const CommSpec& spec, const CommProfile& shape, double step_s, double nvlink_Bps, double ib_Bps)
{
  const double critical_s = shape.tp_bytes / nvlink_Bps + shape.ib_critical_bytes() / ib_Bps;
  const double dp_s = shape.dp_local_bytes / nvlink_Bps + shape.ib_bytes / ib_Bps;
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

double compute_within_step(const CommSpec& spec, TrainingStep step, double step_s, double nvlink_Bps, double ib_Bps)
{
  step.compute_s = step_s;
  return compute_within(spec, comm_profile(spec, step), step_s, nvlink_Bps, ib_Bps);
}

CommProfile comm_profile_for_step(const CommSpec& spec, TrainingStep step, double step_s, double nvlink_Bps,
                                  double ib_Bps, double least_compute_s)
{
  // The bytes do not depend on compute: build the profile once, then set its compute.
  step.compute_s = step_s;
  CommProfile p = comm_profile(spec, step);
  p.compute_s = std::max(compute_within(spec, p, step_s, nvlink_Bps, ib_Bps), least_compute_s);
  p.dp_hidden_s = dp_window_share(spec) * p.compute_s;
  return p;
}

Burst infiniband_burst(const CommProfile& profile, double nvlink_Bps, double peak_Bps)
{
  Burst burst;
  const double tp_s = profile.tp_bytes > 0 ? profile.tp_bytes / nvlink_Bps : 0;
  const double local_s = profile.dp_local_bytes > 0 ? profile.dp_local_bytes / nvlink_Bps : 0;
  burst.critical_bytes = profile.ib_critical_bytes();
  burst.hidden_bytes = profile.ib_bytes;
  burst.window_s = std::max(0.0, profile.dp_hidden_s - local_s);
  burst.base_s = profile.compute_s + tp_s + std::max(0.0, local_s - profile.dp_hidden_s);
  burst.peak_Bps = peak_Bps;
  return burst;
}

} // namespace acmesim
