#include "sim/policies/PodPartition.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>

namespace acmesim {

ClusterSpec single_pod_spec(const ClusterSpec& spec, int pod)
{
  ClusterSpec one;
  one.name = spec.pods.at(static_cast<std::size_t>(pod)).name;
  one.pods = {spec.pods[static_cast<std::size_t>(pod)]};
  one.storage = spec.storage;
  return one;
}

struct PodPartitionedScheduler::Part {
  Part(const Topology& cluster, int pod_index)
      : pod(pod_index), first(cluster.first_node_of_pod(pod_index)),
        first_leaf(cluster.leaves_of_pod(pod_index).front()), topology(single_pod_spec(cluster.spec(), pod_index))
  {
  }

  NodeId to_local(NodeId node) const { return node - first; }
  Allocation to_cluster(Allocation allocation) const
  {
    for (auto& part : allocation.parts)
      part.node += first;
    return allocation;
  }

  int pod;
  NodeId first;
  LeafId first_leaf;
  Topology topology;
  std::unique_ptr<Scheduler> scheduler;
  std::set<JobId> queue; // the cluster's queue, restricted to this pod's jobs
  double wake_at = std::numeric_limits<double>::infinity(); // its scheduler's latest request
};

namespace {

// What one pod's scheduler sees: the cluster's view, restricted to the pod and in its node ids.
class PodView final : public ClusterView {
public:
  PodView(const ClusterView& cluster, const Topology& pod_topology, NodeId first, LeafId first_leaf,
          const std::set<JobId>& queue)
      : cluster_(cluster), topology_(pod_topology), first_(first), first_leaf_(first_leaf), queue_(queue)
  {
  }

  double now() const override { return cluster_.now(); }
  const Topology& topology() const override { return topology_; }
  const Job& job(JobId id) const override { return cluster_.job(id); }
  std::size_t job_count() const override { return cluster_.job_count(); }
  const std::set<JobId>& queue() const override { return queue_; }
  bool preemptible(JobId id) const override { return cluster_.preemptible(id); }
  const EvalChunk& eval_chunk(JobId id) const override { return cluster_.eval_chunk(id); }

  RunningJob running(JobId id) const override { return in_pod(cluster_.running(id)); }
  // The cluster's running jobs on this pod's nodes (a job is bound to one pod).
  std::vector<RunningJob> running_jobs() const override
  {
    std::vector<RunningJob> mine;
    for (RunningJob& r : cluster_.running_jobs())
      if (!r.allocation.parts.empty() && r.allocation.parts.front().node >= first_ &&
          r.allocation.parts.front().node < first_ + topology_.node_count())
        mine.push_back(in_pod(std::move(r)));
    return mine;
  }
  const RuntimeEstimates& estimates() const override { return cluster_.estimates(); }

  std::optional<JobCommunication> communication(JobId id) const override
  {
    auto c = cluster_.communication(id);
    if (c)
      for (CommLink& link : c->links)
        link.leaf -= first_leaf_;
    return c;
  }

  // Built on first use in a call: queue schedulers read it only to rebuild their mirror (after
  // node events and requeues), so the copy is rare.
  const ClusterState& cluster() const override
  {
    if (state_)
      return *state_;
    const ClusterState& whole = cluster_.cluster();
    state_.emplace(topology_);
    for (NodeId node = 0; node < topology_.node_count(); ++node) {
      if (const int held = whole.held_gpus(first_ + node); held > 0)
        state_->take(Allocation{{{node, held}}});
      if (!whole.in_service(first_ + node))
        state_->set_in_service(node, false);
    }
    return *state_;
  }

private:
  RunningJob in_pod(RunningJob r) const
  {
    for (auto& part : r.allocation.parts)
      part.node -= first_;
    return r;
  }

  const ClusterView& cluster_;
  const Topology& topology_;
  NodeId first_;
  LeafId first_leaf_;
  const std::set<JobId>& queue_;
  mutable std::optional<ClusterState> state_;
};

} // namespace

PodPartitionedScheduler::PodPartitionedScheduler(const Topology& topology, const Factory& make) : topology_(topology)
{
  for (int pod = 0; pod < static_cast<int>(topology.pod_count()); ++pod) {
    auto part = std::make_unique<Part>(topology, pod);
    part->scheduler = make(pod, part->topology);
    parts_.push_back(std::move(part));
  }
}

PodPartitionedScheduler::~PodPartitionedScheduler() = default;

const Topology& PodPartitionedScheduler::pod_topology(int pod) const
{
  return parts_.at(static_cast<std::size_t>(pod))->topology;
}

Decisions PodPartitionedScheduler::decide(const ClusterView& view, const std::vector<SchedulerEvent>& events)
{
  std::vector<std::vector<SchedulerEvent>> routed(parts_.size());
  for (SchedulerEvent event : events) {
    int pod = ANY_POD;
    if (event.kind == EventKind::NodeDown || event.kind == EventKind::NodeUp) {
      pod = topology_.pod_of(event.node);
      event.node = parts_[static_cast<std::size_t>(pod)]->to_local(event.node);
    } else {
      pod = view.job(event.job).pod;
      if (pod < 0 || pod >= static_cast<int>(parts_.size()))
        throw std::logic_error("job " + view.job(event.job).name + " is bound to no pod, and pods are scheduled separately");
      if (event.kind == EventKind::JobSubmitted || event.kind == EventKind::JobRequeued)
        parts_[static_cast<std::size_t>(pod)]->queue.insert(event.job);
    }
    routed[static_cast<std::size_t>(pod)].push_back(event);
  }
  std::size_t queued = 0;
  for (const auto& part : parts_)
    queued += part->queue.size();
  if (queued != view.queue().size())
    throw std::logic_error("the pods' queues hold " + std::to_string(queued) + " jobs, the cluster's " +
                           std::to_string(view.queue().size()));

  Decisions merged;
  for (std::size_t p = 0; p < parts_.size(); ++p) {
    Part& part = *parts_[p];
    // A scheduler is called when something happened in its pod or when it asked to be.
    if (!routed[p].empty() || part.wake_at <= view.now()) {
      const PodView pod_view(view, part.topology, part.first, part.first_leaf, part.queue);
      Decisions d = part.scheduler->decide(pod_view, routed[p]);
      part.wake_at = d.wake_at;
      for (JobId job : d.preempts) {
        part.queue.insert(job); // a preempted job queues again at once
        merged.preempts.push_back(job);
      }
      for (StartDecision& start : d.starts) {
        part.queue.erase(start.job);
        for (JobId then : start.then)
          part.queue.erase(then);
        start.allocation = part.to_cluster(std::move(start.allocation));
        merged.starts.push_back(std::move(start));
      }
    }
    merged.wake_at = std::min(merged.wake_at, part.wake_at);
  }
  return merged;
}

} // namespace acmesim
