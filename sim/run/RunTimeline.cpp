#include "sim/run/RunTimeline.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

namespace acmesim {

RunTimeline::RunTimeline(const Topology& topology) : open_(topology.node_count())
{
  free_lanes_.reserve(topology.node_count());
  for (NodeId node = 0; node < topology.node_count(); ++node) {
    const int gpus = topology.gpus_of(node);
    if (gpus < 1 || gpus > 64)
      throw std::logic_error("the timeline draws 1 to 64 GPU lanes per node, not " + std::to_string(gpus));
    free_lanes_.push_back(gpus == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << gpus) - 1);
  }
}

RunTimeline::Holder& RunTimeline::holder(JobId id)
{
  const auto it = holders_.find(id);
  if (it == holders_.end())
    throw std::logic_error("timeline: job " + std::to_string(id) + " holds no GPUs");
  return it->second;
}

void RunTimeline::take(double now, JobId id, std::span<const Allocation::Part> parts)
{
  Holder& h = holders_[id];
  for (const auto& part : parts) {
    std::uint64_t& free = free_lanes_.at(part.node);
    if (std::popcount(free) < part.gpus)
      throw std::logic_error("timeline: node " + std::to_string(part.node) + " has fewer free GPUs than job " +
                             std::to_string(id) + " takes");
    // Lowest free lanes first: the same allocations always draw the same picture.
    std::uint64_t lanes = 0;
    for (int i = 0; i < part.gpus; ++i) {
      const std::uint64_t lowest = free & (~free + 1);
      lanes |= lowest;
      free &= ~lowest;
    }
    h.nodes.push_back({part.node, lanes, now});
  }
}

void RunTimeline::emit(const Holder& h, const HeldNode& held, double now, HoldEnd how)
{
  const double start = std::max(h.start_s, held.since_s);
  // A job that loses a node as it fails holds it for no time while recovering: nothing to draw.
  if (h.kind == HoldKind::Recovering && !(now > start))
    return;
  pieces_.push_back({start, now, h.shown, held.node, held.lanes, h.kind, how, h.attempt});
}

void RunTimeline::give_back(double now, JobId id, NodeId node)
{
  Holder& h = holder(id);
  const auto it = std::find_if(h.nodes.begin(), h.nodes.end(), [&](const HeldNode& n) { return n.node == node; });
  if (it == h.nodes.end())
    throw std::logic_error("timeline: job " + std::to_string(id) + " holds no GPUs on node " + std::to_string(node));
  if (h.open)
    emit(h, *it, now, HoldEnd::NodeLost);
  free_lanes_[node] |= it->lanes;
  h.nodes.erase(it);
}

void RunTimeline::give_back_all(JobId id)
{
  Holder& h = holder(id);
  if (h.open)
    throw std::logic_error("timeline: job " + std::to_string(id) + " gives its GPUs back while still running");
  for (const auto& held : h.nodes)
    free_lanes_[held.node] |= held.lanes;
  holders_.erase(id);
}

void RunTimeline::attempt_started(double now, JobId id, JobId shown)
{
  Holder& h = holder(id);
  if (h.open)
    throw std::logic_error("timeline: job " + std::to_string(shown) + " starts while job " + std::to_string(id) +
                           " still runs on its GPUs");
  h.open = true;
  h.shown = shown;
  h.kind = HoldKind::Attempt;
  h.start_s = now;
  h.attempt = ++attempts_[shown];
}

void RunTimeline::stretch_ended(double now, JobId id, HoldEnd how)
{
  Holder& h = holder(id);
  if (!h.open)
    throw std::logic_error("timeline: job " + std::to_string(id) + " ends a stretch it never started");
  for (const auto& held : h.nodes)
    emit(h, held, now, how);
  h.open = false;
}

void RunTimeline::attempt_interrupted(double now, JobId id)
{
  stretch_ended(now, id, HoldEnd::Interrupted);
  Holder& h = holder(id);
  h.open = true;
  h.kind = HoldKind::Recovering;
  h.start_s = now;
}

void RunTimeline::on(const GpusReturned& c)
{
  if (c.node)
    give_back(c.now, c.holder, *c.node);
  else
    give_back_all(c.holder);
}

void RunTimeline::on(const SpeedChanged& c)
{
  const Holder& h = holder(c.job);
  if (!h.nodes.empty())
    speed_marks_.push_back(SpeedMark{c.now, c.job, h.nodes.front().node, c.from, c.to});
}

void RunTimeline::on(const AttemptEnded& c)
{
  if (c.how == HoldEnd::Interrupted)
    attempt_interrupted(c.now, c.holder);
  else
    stretch_ended(c.now, c.holder, c.how);
}

void RunTimeline::node_health(double now, NodeId node, NodeHealth health, const FailureEvent* cause)
{
  auto& open = open_.at(node);
  if (open) {
    open->end_s = now;
    closed_.push_back(*open);
    open.reset();
  }
  if (health == NodeHealth::InService)
    return;
  NodeInterval interval;
  interval.start_s = now;
  interval.end_s = now;
  interval.node = node;
  interval.health = health;
  if (cause)
    interval.cause = *cause;
  open = interval;
}

std::vector<NodeInterval> RunTimeline::node_intervals(double run_end_s) const
{
  std::vector<NodeInterval> all = closed_;
  for (const auto& open : open_)
    if (open) {
      all.push_back(*open);
      all.back().end_s = std::max(run_end_s, open->start_s);
      all.back().until_run_end = true;
    }
  return all;
}

} // namespace acmesim
