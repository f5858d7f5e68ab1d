#pragma once
// Pods scheduled as separate clusters (scheduler.pods: separate): each pod has its own instance
// of the scenario's scheduler, built for a topology of that pod alone, and sees only the jobs
// bound to it (Job::pod), the events of those jobs and of its nodes, and its own queue. Acme ran
// Seren and Kalos this way: two clusters, two schedulers, each job on the cluster it was
// submitted to.
//
// The instances need nothing for it: node ids are translated between the pod's topology
// (0 .. nodes - 1) and the cluster's (first_node_of_pod + i) at this boundary, in events,
// allocations and the cluster state they read.
#include "sim/policy_api/SchedulerApi.hpp"

#include <functional>
#include <memory>
#include <vector>

namespace acmesim {

class PodPartitionedScheduler final : public Scheduler {
public:
  // Builds the scheduler of one pod (its index in the cluster, its own topology).
  using Factory = std::function<std::unique_ptr<Scheduler>(int pod, const Topology& pod_topology)>;

  PodPartitionedScheduler(const Topology& topology, const Factory& make);
  ~PodPartitionedScheduler() override;

  // Every event's job must be bound to a pod (the workload loader binds them).
  Decisions decide(const ClusterView& view, const std::vector<SchedulerEvent>& events) override;

  // The topology of pod `pod` alone, as its scheduler sees it.
  const Topology& pod_topology(int pod) const;

private:
  struct Part;
  std::vector<std::unique_ptr<Part>> parts_;
  const Topology& topology_;
};

// A cluster spec holding only pod `pod` of `spec` (with its storage), for the pod's own topology.
ClusterSpec single_pod_spec(const ClusterSpec& spec, int pod);

} // namespace acmesim
