#include "sim/engine/PlatformRings.hpp"

#include "sim/engine/FlowModel.hpp"
#include "sim/engine/RetiredComms.hpp"

#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace acmesim {

namespace sg4 = simgrid::s4u;
using simgrid::kernel::resource::Action;

namespace {

// Larger than any job sends: a ring flow ends only when it is cancelled.
constexpr std::uint64_t ENDLESS_BYTES = 1ULL << 62;

} // namespace

struct PlatformRings::Impl {
  const Platform* platform;
  std::function<void()> changed;
  FlowStart started;
  struct Flow {
    sg4::CommPtr comm;
    Action* action; // valid while the comm runs; its rate is what the flow gets
  };
  std::map<JobId, std::vector<Flow>> rings;
  RetiredComms retired;
  StartedActions actions;

  Flow start_flow(sg4::Host* from, sg4::Host* to, double bound_Bps) const
  {
    sg4::CommPtr comm = sg4::Comm::sendto_init(from, to);
    comm->set_payload_size(ENDLESS_BYTES);
    comm->start();
    Action& action = actions.of(*comm);
    action.set_bound(bound_Bps / FLOW_BANDWIDTH_FACTOR);
    if (started)
      started(StartedFlow{from, to, comm, &action});
    return {comm, &action};
  }
};

PlatformRings::PlatformRings(const Platform& platform, std::function<void()> changed) : impl_(std::make_unique<Impl>())
{
  impl_->platform = &platform;
  impl_->changed = std::move(changed);
}

PlatformRings::~PlatformRings() = default;

void PlatformRings::watch_flow_starts(FlowStart started) { impl_->started = std::move(started); }

void PlatformRings::open(JobId job, const Allocation& allocation, double bound_Bps)
{
  const auto& parts = allocation.parts;
  if (parts.size() < 2)
    throw std::logic_error("a ring needs two nodes");
  auto& flows = impl_->rings[job];
  if (!flows.empty())
    throw std::logic_error("job " + std::to_string(job) + " already has a ring");
  for (std::size_t i = 0; i < parts.size(); ++i) {
    sg4::Host* from = impl_->platform->node_hosts.at(parts[i].node);
    sg4::Host* to = impl_->platform->node_hosts.at(parts[(i + 1) % parts.size()].node);
    flows.push_back(impl_->start_flow(from, to, bound_Bps));
  }
  impl_->changed();
}

void PlatformRings::close(JobId job)
{
  const auto it = impl_->rings.find(job);
  if (it == impl_->rings.end())
    return;
  for (auto& flow : it->second) {
    flow.comm->cancel();
    impl_->retired.add(std::move(flow.comm));
  }
  impl_->rings.erase(it);
  impl_->changed();
}

// On the flows' actions, not their comms: SimGrid 3.32's Activity::resume leaves the comm marked
// suspended, so that its next suspend() does nothing.
void PlatformRings::pause(JobId job)
{
  for (auto& flow : impl_->rings.at(job))
    flow.action->suspend();
  impl_->changed();
}

void PlatformRings::resume(JobId job)
{
  for (auto& flow : impl_->rings.at(job))
    flow.action->resume();
  impl_->changed();
}

double PlatformRings::rate_Bps(JobId job) const
{
  const auto& flows = impl_->rings.at(job);
  double least = std::numeric_limits<double>::infinity();
  for (const auto& flow : flows) {
    if (flow.comm->get_state() != sg4::Activity::State::STARTED)
      throw std::logic_error("a ring flow of job " + std::to_string(job) + " stopped while its job trains");
    least = std::min(least, flow.action->get_rate());
  }
  return least;
}

double PlatformRings::lone_flow_share() const { return acmesim::lone_flow_share(); }

std::size_t PlatformRings::open_rings() const { return impl_->rings.size(); }

} // namespace acmesim
