#include "sim/run/GpuHolders.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace acmesim {

GpuHolders::GpuHolders(const Topology& topology, const JobTable& jobs, const Clock& clock, const RunEvents& events)
    : jobs_(jobs)
    , clock_(clock)
    , events_(events)
    , cluster_(topology)
    , allocations_(jobs.count())
    , on_node_(topology.node_count())
    , phases_(jobs.count())
{
}

template <typename Entry>
Entry& GpuHolders::grown(std::vector<Entry>& table, JobId job)
{
  table.resize(std::max<std::size_t>(job + 1, jobs_.count()));
  return table[job];
}

bool GpuHolders::holds(JobId job) const
{
  const JobPhase p = phase(job);
  return p != JobPhase::Queued && p != JobPhase::Ended;
}

Holding GpuHolders::holding(JobId holder, JobPhase phase) const
{
  const bool holds_gpus = phase != JobPhase::Queued && phase != JobPhase::Ended;
  return Holding{ledger_state(phase), jobs_.job(holder).gpus, holds_gpus ? allocation(holder).gpus_held() : 0};
}

void GpuHolders::take(JobId holder, const Allocation& allocation)
{
  cluster_.take(allocation); // throws if the GPUs are not free (or a node is out of service)
  enter(holder, JobPhase::Starting, holder);
  holders_.insert(holder);
  allocation_of(holder) = allocation;
  for (const auto& part : allocation.parts)
    on_node_[part.node].push_back(holder);
  const Holding after = holding(holder, JobPhase::Starting);
  events_.publish(GpusTaken{clock_.now(), holder, allocation.parts, Holding{after.state, after.asked, 0}, after});
}

void GpuHolders::add_node(JobId holder, Allocation::Part part)
{
  cluster_.take(Allocation{{part}});
  const JobPhase current = phase(holder);
  const Holding before = holding(holder, current);
  auto& parts = allocation_of(holder).parts;
  parts.insert(std::upper_bound(parts.begin(), parts.end(), part,
                                [](const Allocation::Part& a, const Allocation::Part& b) { return a.node < b.node; }),
               part);
  on_node_[part.node].push_back(holder);
  events_.publish(GpusTaken{clock_.now(), holder, std::span(&part, 1), before, holding(holder, current)});
}

void GpuHolders::lose_node(JobId holder, NodeId node)
{
  const JobPhase current = phase(holder);
  const Holding before = holding(holder, current);
  auto& parts = allocation_of(holder).parts;
  const auto part = std::find_if(parts.begin(), parts.end(), [&](const Allocation::Part& p) { return p.node == node; });
  if (part == parts.end())
    throw std::logic_error("job " + std::to_string(holder) + " holds nothing on node " + std::to_string(node));
  const Allocation lost{{*part}};
  parts.erase(part);
  remember_earlier(holder, node);
  auto& holders = on_node_[node];
  holders.erase(std::find(holders.begin(), holders.end(), holder));
  cluster_.give_back(lost);
  events_.publish(GpusReturned{clock_.now(), holder, node, before, holding(holder, current)});
}

void GpuHolders::remember_earlier(JobId holder, NodeId node)
{
  std::vector<NodeId>& nodes = earlier_nodes_[holder];
  const auto at = std::lower_bound(nodes.begin(), nodes.end(), node);
  if (at == nodes.end() || *at != node)
    nodes.insert(at, node);
}

void GpuHolders::forget_on_nodes(JobId holder)
{
  for (const auto& part : allocation(holder).parts) {
    auto& holders = on_node_[part.node];
    holders.erase(std::find(holders.begin(), holders.end(), holder));
  }
}

void GpuHolders::release(JobId holder, JobPhase to, JobId shown)
{
  const JobPhase from = phase(holder);
  const Holding before = holding(holder, from);
  const Holding emptied{before.state, before.asked, 0};
  forget_on_nodes(holder);
  holders_.erase(holder);
  cluster_.give_back(allocation(holder));
  if (to == JobPhase::Queued) {
    for (const auto& part : allocation(holder).parts)
      remember_earlier(holder, part.node);
    allocation_of(holder).parts.clear();
  }
  events_.publish(GpusReturned{clock_.now(), holder, std::nullopt, before, emptied});
  PhaseState& s = state(holder);
  const double since = s.since;
  s = PhaseState{to, clock_.now()};
  timers_.disarm(holder);
  events_.publish(PhaseChanged{clock_.now(), holder, shown, from, to, since, emptied, holding(holder, to)});
}

void GpuHolders::enter(JobId holder, JobPhase phase, JobId shown)
{
  PhaseState& s = state(holder);
  const PhaseState left = s;
  const Holding before = holding(holder, left.phase);
  s = PhaseState{phase, clock_.now()};
  timers_.disarm(holder);
  events_.publish(PhaseChanged{clock_.now(), holder, shown, left.phase, phase, left.since, before, holding(holder, phase)});
}

void GpuHolders::restart_phase_clock(JobId holder, JobId shown)
{
  PhaseState& s = state(holder);
  const double since = s.since;
  s.since = clock_.now();
  const Holding unchanged = holding(holder, s.phase);
  events_.publish(PhaseChanged{clock_.now(), holder, shown, s.phase, s.phase, since, unchanged, unchanged});
}

void GpuHolders::record_allocation(JobId trial, JobId leader)
{
  Allocation& entry = allocation_of(trial); // may grow the table: the leader's entry is read after
  entry = allocation(leader);
}

} // namespace acmesim
