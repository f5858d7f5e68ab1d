#include "sim/run/TrainingSpeeds.hpp"

#include "models/checkpoint/CheckpointMath.hpp"
#include "models/cluster/ClusterSpec.hpp"

#include <stdexcept>

namespace acmesim {

namespace {

constexpr double BITS_PER_BYTE = 8;

// The pod's fabric as the reference names it, each value not given being the pod's own.
struct Fabric {
  double nvlink_Bps;
  double cable_Bps; // all compute NICs of a node
};

Fabric own_fabric(const PodSpec& pod) { return {pod.nvlink_bandwidth_GBps * 1e9, compute_cable_Bps(pod)}; }

Fabric reference_fabric(const PodSpec& pod, const NetworkSpec& network)
{
  const auto it = network.reference.find(pod.name);
  if (it == network.reference.end())
    return own_fabric(pod);
  const ReferenceFabric& ref = it->second;
  const int nics = ref.compute_nics > 0 ? ref.compute_nics : pod.compute_nics;
  const double nic_Gbps = ref.nic_bandwidth_Gbps > 0 ? ref.nic_bandwidth_Gbps : pod.nic_bandwidth_Gbps;
  const double nvlink_GBps = ref.nvlink_bandwidth_GBps > 0 ? ref.nvlink_bandwidth_GBps : pod.nvlink_bandwidth_GBps;
  return {nvlink_GBps * 1e9, nics * nic_Gbps * 1e9 / BITS_PER_BYTE};
}

} // namespace

TrainingSpeeds::TrainingSpeeds(RunCore core, SpeedSetup setup) : core_(core), setup_(setup)
{
  if (on() && (!setup_.rings || !setup_.training))
    throw std::logic_error("the network model needs a ring service and the training model");
}

JobSpeed TrainingSpeeds::speed_of(JobId id) const
{
  const Job& job = core_.jobs.job(id);
  const Allocation& allocation = core_.holders.allocation(id);
  const PodSpec& pod =
      core_.topology.spec().pods[static_cast<std::size_t>(core_.topology.pod_of(allocation.parts.front().node))];
  const CheckpointSpec& model = *setup_.training;
  const TrainingStep step{model_params(model, job.gpus), model.tokens_per_step, step_time_s(model, job.gpus), job.gpus,
                          pod.gpus_per_node};
  const CommProfile profile = comm_profile(setup_.network->comm_of(job.type), step);
  // A ring alone gets the lone-flow share of each node's cable, on the reference fabric as here.
  const double share = setup_.rings->lone_flow_share();
  const Fabric own = own_fabric(pod);
  const Fabric ref = reference_fabric(pod, *setup_.network);
  return job_speed(profile, own.nvlink_Bps, own.cable_Bps * share, ref.nvlink_Bps, ref.cable_Bps * share);
}

double TrainingSpeeds::start(JobId id)
{
  if (!on())
    return 1;
  const JobSpeed speed = speed_of(id);
  if (speed.demand_Bps > 0) {
    setup_.rings->open(id, core_.holders.allocation(id), speed.demand_Bps);
    training_[id] = Training{speed, speed.fabric_slowdown};
  }
  return speed.fabric_slowdown;
}

void TrainingSpeeds::stop(JobId id)
{
  if (training_.erase(id) > 0)
    setup_.rings->close(id);
}

std::vector<std::pair<JobId, double>> TrainingSpeeds::refresh()
{
  std::vector<std::pair<JobId, double>> changed;
  for (auto& [id, t] : training_) {
    const double slowdown = contended_slowdown(t.speed, setup_.rings->rate_Bps(id));
    if (slowdown != t.slowdown) {
      t.slowdown = slowdown;
      changed.emplace_back(id, slowdown);
    }
  }
  return changed;
}

} // namespace acmesim
