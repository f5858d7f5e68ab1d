#include "sim/run/TrainingSpeeds.hpp"

#include "models/checkpoint/CheckpointMath.hpp"
#include "models/cluster/ClusterSpec.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace acmesim {

namespace {

// The pod as the reference describes it: each value the reference gives replaces the pod's own.
PodSpec reference_pod(const PodSpec& pod, const NetworkSpec& network)
{
  PodSpec ref = pod;
  const auto it = network.reference.find(pod.name);
  if (it == network.reference.end())
    return ref;
  const ReferenceFabric& given = it->second;
  if (given.compute_nics > 0)
    ref.compute_nics = given.compute_nics;
  if (given.nic_bandwidth_Gbps > 0)
    ref.nic_bandwidth_Gbps = given.nic_bandwidth_Gbps;
  if (given.nvlink_bandwidth_GBps > 0)
    ref.nvlink_bandwidth_GBps = given.nvlink_bandwidth_GBps;
  return ref;
}

double nvlink_Bps(const PodSpec& pod) { return pod.nvlink_bandwidth_GBps * 1e9; }

// What a ring of the pod's nodes gets per domain with the fabric to itself: the NICs of its
// `lanes` nodes together at the calibrated network efficiency (Collectives' network_pace).
double ring_peak_Bps(const PodSpec& pod, const CollectiveCalibration& calibration, int lanes)
{
  return lanes * network_pace(calibration, compute_cable_Bps(pod)).busbw_Bps;
}

std::vector<NodeId> nodes_of(const Allocation& allocation)
{
  std::vector<NodeId> nodes;
  nodes.reserve(allocation.parts.size());
  for (const auto& part : allocation.parts)
    nodes.push_back(part.node);
  return nodes;
}

// The GPUs the step model counts as one NVLink domain of the job: a node's where NVLink stops at
// the node (the layout of CommProfile.hpp: TP within a node), else the job's GPUs spread over the
// domains it spans.
int domain_gpus(const PodSpec& pod, const Job& job, const RingLayout& layout)
{
  if (pod.nvlink_domain_nodes == 1)
    return pod.gpus_per_node;
  const int domains = std::max(1, layout.domains);
  return std::min(nvlink_domain_gpus(pod), (job.gpus + domains - 1) / domains);
}

} // namespace

TrainingSpeeds::TrainingSpeeds(RunCore core, SpeedSetup setup) : core_(core), setup_(setup)
{
  if (on() && (!setup_.rings || !setup_.training))
    throw std::logic_error("the network model needs a ring service and the training model");
}

TrainingSpeeds::Ring TrainingSpeeds::ring_of(JobId id) const
{
  const Job& job = core_.jobs.job(id);
  const Allocation& allocation = core_.holders.allocation(id);
  const PodSpec& pod =
      core_.topology.spec().pods[static_cast<std::size_t>(core_.topology.pod_of(allocation.parts.front().node))];
  const CheckpointSpec& model = *setup_.training;
  const CommSpec& comm = setup_.network->comm_of(job.type);
  // Collectives are timed as the collective model times them, on the reference fabric as here.
  const CollectiveCalibration& calibration = setup_.network->collectives;
  const PodSpec ref = reference_pod(pod, *setup_.network);
  Ring ring;
  ring.layout = ring_layout(core_.topology, nodes_of(allocation));
  const CollectivePace ref_pace = collective_pace(calibration, nvlink_Bps(ref));
  const double ref_peak = ring_peak_Bps(ref, calibration, ring.layout.lanes);
  // The training model's step (its MFU, end to end) is the step on the reference fabric; compute
  // is what that leaves, never faster than max_compute_mfu allows (docs/network.md).
  const TrainingStep step{model_params(model, job.gpus), model.tokens_per_step, 0, job.gpus,
                          domain_gpus(pod, job, ring.layout)};
  const CommProfile profile = comm_profile_for_step(comm, step, step_time_s(model, job.gpus), ref_pace, ref_peak,
                                                    flops_time_s(model, job.gpus, comm.max_compute_mfu));
  ring.traffic.burst = infiniband_burst(profile, collective_pace(calibration, nvlink_Bps(pod)),
                                        ring_peak_Bps(pod, calibration, ring.layout.lanes));
  ring.traffic.mean_Bps = ring.traffic.burst.bytes() / ring.traffic.burst.step_s(ring.traffic.burst.peak_Bps);
  ring.reference_step_s = infiniband_burst(profile, ref_pace, ref_peak).step_s(ref_peak);
  return ring;
}

TrainingSpeed TrainingSpeeds::start(JobId id)
{
  if (!on())
    return {};
  if (const auto it = rings_.find(id); it != rings_.end()) {
    if (!it->second.paused)
      throw std::logic_error("job " + std::to_string(id) + " starts training while its ring sends");
    it->second.paused = false;
    setup_.rings->resume(id);
    return alone(it->second);
  }
  const Ring ring = ring_of(id);
  if (ring.traffic.burst.bytes() <= 0 || ring.layout.hops.empty())
    return {alone(ring).slowdown, 0}; // one NVLink domain: no ring, no bus bandwidth
  setup_.rings->open(id, ring.layout, ring.traffic);
  rings_.emplace(id, ring);
  return alone(ring);
}

void TrainingSpeeds::pause(JobId id)
{
  const auto it = rings_.find(id);
  if (it == rings_.end() || it->second.paused)
    return;
  it->second.paused = true;
  setup_.rings->pause(id);
}

void TrainingSpeeds::stop(JobId id)
{
  if (rings_.erase(id) > 0)
    setup_.rings->close(id);
}

std::vector<std::pair<JobId, TrainingSpeed>> TrainingSpeeds::speeds() const
{
  std::vector<std::pair<JobId, TrainingSpeed>> out;
  if (rings_.empty())
    return out;
  const std::map<JobId, double> rates = setup_.rings->sending_rates();
  out.reserve(rates.size());
  for (const auto& [id, rate] : rates)
    out.emplace_back(id, at_rate(rings_.at(id), rate));
  return out;
}

std::optional<JobCommunication> TrainingSpeeds::communication(JobId id, const TrainingSpeed& speed) const
{
  const auto it = rings_.find(id);
  if (it == rings_.end())
    return std::nullopt;
  const Burst& burst = it->second.traffic.burst;
  // A paused ring sends nothing now; what it sends once it goes on is what it got last.
  JobCommunication c;
  c.step_s = burst.step_s(speed.ring_Bps);
  c.sending_s = burst.bytes() / speed.ring_Bps;
  c.bytes = burst.bytes();
  c.rate_Bps = speed.ring_Bps;
  c.alone_Bps = burst.peak_Bps;
  c.slowdown = speed.slowdown;
  c.paused = it->second.paused;
  c.links = setup_.rings->links(id);
  return c;
}

TrainingSpeed TrainingSpeeds::at_rate(const Ring& ring, double rate_Bps)
{
  return {ring.traffic.burst.step_s(rate_Bps) / ring.reference_step_s, rate_Bps};
}

TrainingSpeed TrainingSpeeds::alone(const Ring& ring) { return at_rate(ring, ring.traffic.burst.peak_Bps); }

} // namespace acmesim
