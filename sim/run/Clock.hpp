#pragma once
// The simulated time of the run: set by the run loop, read by every component. It never goes back.
#include <stdexcept>
#include <string>

namespace acmesim {

class Clock {
public:
  double now() const { return now_; }
  void advance_to(double t)
  {
    if (t < now_)
      throw std::logic_error("time went back from " + std::to_string(now_) + " to " + std::to_string(t));
    now_ = t;
  }

private:
  double now_ = 0;
};

} // namespace acmesim
