#pragma once
// What the run asks of the engine for the traffic of training jobs: while a job on several NVLink
// domains trains, a ring of flows over its nodes (models/cluster/RingLayout: node i to node i+1,
// the last to the first, where each node is a domain of its own). The job's
// traffic in bursts (its gradient ring once a step) sets what the ring gets while it sends, shared
// link by link with the other rings' bursts and the storage flows (models/network/FabricSharing),
// and its mean demand is what storage flows beside it find taken. The engine tells the run when
// sharing changed (Run::network_changed), and the run then reads what each ring gets. The SimGrid
// implementation is PlatformRings; the run stays engine-free.
#include "models/cluster/RingLayout.hpp"
#include "models/network/BurstSharing.hpp"
#include "models/workload/Job.hpp"
#include "sim/policy_api/JobShape.hpp"
#include "sim/policy_api/SchedulerApi.hpp"

#include <map>

namespace acmesim {

// A ring's traffic: each domain's burst per step, all its lanes together (its peak: what they get
// with the fabric to themselves), and the mean rate that burst makes on its uncontended fabric.
struct RingTraffic {
  Burst burst;
  double mean_Bps = 0;
};

class RingService {
public:
  virtual ~RingService() = default;
  // `layout` has at least one hop.
  virtual void open(JobId job, const RingLayout& layout, const RingTraffic& traffic) = 0;
  virtual void close(JobId job) = 0;
  // The job stops sending for a while (a checkpoint) and sends again on the same nodes: its ring
  // stays in place, carrying nothing, so that a pause costs no new flows.
  virtual void pause(JobId job) = 0;
  virtual void resume(JobId job) = 0;
  // What the flows of each ring that sends get while it sends (the least of its flows), by job.
  virtual std::map<JobId, double> sending_rates() = 0;
  // The link directions the job's ring crosses, with its flows on each (none without a ring).
  virtual std::vector<CommLink> links(JobId job) const = 0;
};

} // namespace acmesim
