#pragma once
// What the run asks of the engine for the traffic of training jobs: while a job on several nodes
// trains, a ring of flows over its nodes (node i to node i+1, the last to the first), each capped
// at what the job asks of the fabric, sharing the platform with every other flow. The engine tells
// the run when sharing changed (Run::network_changed), and the run then reads what each ring gets.
// The SimGrid implementation is PlatformRings; the run stays engine-free.
#include "models/workload/Job.hpp"
#include "sim/policy_api/JobShape.hpp"

namespace acmesim {

class RingService {
public:
  virtual ~RingService() = default;
  // Opens the job's ring over the nodes of `allocation`, each flow carrying at most `bound_Bps`.
  virtual void open(JobId job, const Allocation& allocation, double bound_Bps) = 0;
  virtual void close(JobId job) = 0;
  // The job stops sending for a while (a checkpoint) and sends again on the same nodes: its ring
  // stays in place, carrying nothing, so that a pause costs no new flows.
  virtual void pause(JobId job) = 0;
  virtual void resume(JobId job) = 0;
  // The least bytes per second any flow of the job's ring gets now.
  virtual double rate_Bps(JobId job) const = 0;
  // The share of a node's compute cable that one flow gets with nothing else on it (the engine's
  // bandwidth factors); the bandwidth a ring would get alone is this share of the cable.
  virtual double lone_flow_share() const = 0;
};

} // namespace acmesim
