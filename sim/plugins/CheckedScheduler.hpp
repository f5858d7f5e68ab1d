#pragma once
// A scheduler written outside acmesim (a C++ or Python plugin), checked at its boundary: what it
// throws, and any decision the run could not apply, stop the run with a PluginError naming the
// plugin, the simulated time and the decision, not with an internal error of acmesim.
#include "sim/policy_api/SchedulerApi.hpp"

#include <memory>
#include <stdexcept>
#include <string>

namespace acmesim {

class PluginError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

class CheckedScheduler final : public Scheduler {
public:
  // `plugin`: how messages name it ("plugin libsjf.so (sjf)").
  CheckedScheduler(std::string plugin, std::unique_ptr<Scheduler> inner);

  Decisions decide(const ClusterView& view, const std::vector<SchedulerEvent>& events) override;

private:
  // What is wrong with the decisions ("" if nothing), for the view they were made on.
  std::string problem(const ClusterView& view, const Decisions& decisions) const;

  std::string plugin_;
  std::unique_ptr<Scheduler> inner_;
};

} // namespace acmesim
