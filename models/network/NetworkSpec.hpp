#pragma once
// The `network:` section of a scenario, typed: whether training jobs' communication travels on the
// platform (flows) or is ignored (off: jobs run for their recorded duration wherever they are),
// the communication profile of their steps (per job type if wished), and the fabric their recorded
// durations were measured on (docs/network.md).
#include "models/network/CommProfile.hpp"
#include "models/workload/Job.hpp"

#include <map>
#include <string>

namespace acmesim {

enum class NetworkModel : std::uint8_t { Off, Flows };
constexpr auto enum_names(NetworkModel) { return names_in_order<NetworkModel>("off", "flows"); }

// What a pod's jobs were timed on: a replayed job's duration is its duration on this fabric with an
// uncontended compact placement. Zero: the pod's own value (synthetic jobs, traces of this cluster).
struct ReferenceFabric {
  int compute_nics = 0;
  double nic_bandwidth_Gbps = 0;
  double nvlink_bandwidth_GBps = 0;
};

struct NetworkSpec {
  NetworkModel model = NetworkModel::Flows;
  // How the bursts of the rings on a link fall against each other (BurstSharing.hpp). Random by
  // default: jobs start and restart independently, and nothing in Acme's scheduler aligns them.
  PhaseAlignment phases = PhaseAlignment::Random;
  // The window NIC figures are read over (summary.json's nic_utilisation): Acme's DCGM and
  // Prometheus sampled every 15 s (the Acme repository's README).
  double nic_sample_s = 15;
  CommSpec comm;                                   // every job type without its own profile
  std::map<JobType, CommSpec> job_types;           // profiles of job types that differ
  std::map<std::string, ReferenceFabric> reference; // by pod name; pods not named: their own fabric
  // What collectives cost (models/network/Collectives): the fit of the published A100 + HDR points,
  // or of a file of a cluster's own measurements (`collectives`, as written and as resolved). Steps
  // are timed with it, and a ring across nodes reaches its network efficiency of each link.
  CollectiveCalibration collectives = a100_hdr_calibration();
  std::string collectives_as_written;
  std::string collectives_file;

  bool on() const { return model != NetworkModel::Off; }
  const CommSpec& comm_of(JobType type) const
  {
    const auto it = job_types.find(type);
    return it == job_types.end() ? comm : it->second;
  }
};

} // namespace acmesim
