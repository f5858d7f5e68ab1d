#pragma once
// One failure of one component instance, as the simulation applies it, and the sources that
// produce them in time order: the seeded model or a recorded list.
#include "models/failure/FailureSpec.hpp"

#include <cstdint>
#include <limits>

namespace acmesim {

struct FailureEvent {
  double time_s = 0;
  Component component = Component::Node;
  // NodeId for node, gpu, nvlink and nic; LeafId for leaf_switch; 0 for storage.
  std::uint32_t target = 0;
  FailureCategory category = FailureCategory::NodeFailure;
  double repair_s = 0;       // time to bring the component back once someone repairs it
  bool replacement = false;  // repaired by replacing a part (cures a lemon) rather than a reboot
  // A failure that only happens because the node is a lemon (its rate above multiplier 1). The
  // simulation drops it once the node's defect is cured, so policies that cure lemons see fewer
  // failures while every policy sees the same draws. Always false in recorded lists.
  bool excess = false;
};

// Events in non-decreasing time; ties in the order the source defines (documented by each).
class FailureSource {
public:
  virtual ~FailureSource() = default;
  // +infinity once exhausted.
  virtual double next_time() const = 0;
  // Precondition: next_time() is finite.
  virtual FailureEvent pop() = 0;
};

} // namespace acmesim
