#pragma once
// Comms that ended or were cancelled, each kept referenced until the clock has moved past the date
// it was retired: SimGrid still touches an activity after its completion signal and while handling
// a cancellation in the same round, and frees an unreferenced one under our feet.
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <deque>
#include <utility>

namespace acmesim {

class RetiredComms {
public:
  // Retired in date order, so the old ones are at the front: a job's thousands of flows ending in
  // one round cost one look each, not one look at all the others.
  void add(simgrid::s4u::CommPtr comm)
  {
    const double now = simgrid::s4u::Engine::get_clock();
    while (!comms_.empty() && comms_.front().first < now)
      comms_.pop_front();
    comms_.emplace_back(now, std::move(comm));
  }

private:
  std::deque<std::pair<double, simgrid::s4u::CommPtr>> comms_;
};

} // namespace acmesim
