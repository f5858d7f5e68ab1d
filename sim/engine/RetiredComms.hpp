#pragma once
// Comms that ended or were cancelled, each kept referenced until the clock has moved past the date
// it was retired: SimGrid still touches an activity after its completion signal and while handling
// a cancellation in the same round, and frees an unreferenced one under our feet.
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <utility>
#include <vector>

namespace acmesim {

class RetiredComms {
public:
  void add(simgrid::s4u::CommPtr comm)
  {
    const double now = simgrid::s4u::Engine::get_clock();
    std::erase_if(comms_, [now](const auto& retired) { return retired.first < now; });
    comms_.emplace_back(now, std::move(comm));
  }

private:
  std::vector<std::pair<double, simgrid::s4u::CommPtr>> comms_;
};

} // namespace acmesim
