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

// The DP all-reduce is hierarchical: reduce-scatter inside the node, the ring across nodes,
// all-gather inside the node, one after the other, all behind the backward window.
double CommProfile::step_s(double nvlink_Bps, double ib_Bps) const
{
  return infiniband_burst(*this, nvlink_Bps, ib_Bps).step_s(ib_Bps);
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
  p.compute_s = step.compute_s;
  p.dp_hidden_s = spec.dp_overlap * step.compute_s;

  // params = 12 * layers * hidden^2 with hidden = ratio * layers.
  const double hidden = std::cbrt(spec.hidden_per_layer * step.params / 12);
  const double layers_per_stage = hidden / spec.hidden_per_layer / p.pipeline_parallel;
  const double tokens_per_replica = step.tokens_per_step / p.data_parallel;
  const double activations = tokens_per_replica * hidden * spec.activation_bytes;
  p.tp_bytes = 4 * layers_per_stage * ring_allreduce_bytes(activations, p.tensor_parallel);

  // Each GPU holds the gradients of its TP and PP shard. A DP group has `local` ranks on a node
  // and spans `dp_nodes` nodes: the node stages move 2(local-1)/local of a rank's gradients, and
  // the ring across nodes moves 2(n-1)/n of the node's distinct gradients (one copy of each shard).
  const double rank_gradients = step.params * spec.gradient_bytes_per_param / (p.tensor_parallel * p.pipeline_parallel);
  const int local = std::max(1, std::min(p.data_parallel, per_node / p.tensor_parallel));
  const int dp_nodes = (p.data_parallel + local - 1) / local;
  p.dp_local_bytes = ring_allreduce_bytes(rank_gradients, local);
  p.ib_bytes = ring_allreduce_bytes(rank_gradients * p.tensor_parallel, dp_nodes);
  return p;
}


Burst infiniband_burst(const CommProfile& profile, double nvlink_Bps, double peak_Bps)
{
  Burst burst;
  const double tp_s = profile.tp_bytes > 0 ? profile.tp_bytes / nvlink_Bps : 0;
  const double local_s = profile.dp_local_bytes > 0 ? profile.dp_local_bytes / nvlink_Bps : 0;
  burst.hidden_bytes = profile.ib_bytes;
  burst.window_s = std::max(0.0, profile.dp_hidden_s - local_s);
  burst.base_s = profile.compute_s + tp_s + std::max(0.0, local_s - profile.dp_hidden_s);
  burst.peak_Bps = peak_Bps;
  return burst;
}

} // namespace acmesim
