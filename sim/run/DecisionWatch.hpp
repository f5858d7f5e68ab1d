#pragma once
// A bound on the wall time of one scheduler call (scheduler.decision_limit_s; off by default). A
// policy stuck in a loop never returns, so nothing after the call could notice: the bound is an
// interval timer armed around each call, and its signal (SIGALRM) ends the process at once (exit
// 1), printing a message made before the call that names the policy, the limit and the simulated
// time. The results directory keeps the INCOMPLETE the run began with. One per process.
#include <string>

namespace acmesim {

class DecisionWatch {
public:
  // `limit_s` 0: no bound, and arm() does nothing.
  DecisionWatch(double limit_s, std::string policy);
  DecisionWatch(const DecisionWatch&) = delete;
  DecisionWatch& operator=(const DecisionWatch&) = delete;

  // Around one call at simulated time `now`: the timer runs while the returned guard lives.
  class Armed {
  public:
    explicit Armed(bool armed) : armed_(armed) {}
    ~Armed();
    Armed(const Armed&) = delete;
    Armed& operator=(const Armed&) = delete;

  private:
    bool armed_; // disarms the timer when it goes, also while an exception unwinds
  };
  [[nodiscard]] Armed arm(double now) const;

private:
  double limit_s_;
  std::string policy_;
};

} // namespace acmesim
