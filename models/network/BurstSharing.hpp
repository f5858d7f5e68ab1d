#pragma once
// How training jobs whose traffic on one link comes in bursts share it. A job does not send at
// its mean rate: each step it sends its bytes in a burst, at the rate the link gives it while it
// sends, and is silent the rest of the step. Jobs whose bursts coincide slow each other; jobs
// whose bursts interleave do not. Engine-free, solved once per change of the jobs on a link
// rather than per step (docs/network.md, "Bursts on a link"); FabricSharing applies it to
// every link of a fabric.
//
// A job's step on the link follows the one rule of the step model (CommProfile.hpp):
//   step = base + critical bytes / rate + max(0, hidden bytes / rate - window)
// so the same rate gives the same step whatever sets it: the job's NICs (its peak), an
// oversubscribed link (the capacity) or the other jobs' bursts.
#include "models/common/EnumNames.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace acmesim {

// How the bursts of the jobs on a link fall against each other.
//  - random: each job's phase is independent and uniform over its step. Over the thousands of
//    steps of a run, steps that differ slightly make the offsets drift through every value, so
//    the time average is the expectation over independent phases.
//  - aligned: they all start together (jobs in lock-step): the worst case.
//  - interleaved: they are placed one after another while the link has room, as CASSINI
//    (Rajasekaran et al., NSDI'24) time-shifts them.
enum class PhaseAlignment : std::uint8_t { Random, Aligned, Interleaved };
constexpr auto enum_names(PhaseAlignment)
{
  return names_in_order<PhaseAlignment>("random", "aligned", "interleaved");
}

// One job's traffic on the link, per step.
struct Burst {
  double critical_bytes = 0; // on the step's critical path (tensor-, pipeline-, expert-parallel)
  double hidden_bytes = 0;   // behind `window_s` of compute (the data-parallel gradients)
  double window_s = 0;
  double base_s = 0;   // the rest of the step: compute, and communication on other links
  double peak_Bps = 0; // its rate with the link to itself: what the rest of its path allows

  double bytes() const { return critical_bytes + hidden_bytes; }
  double step_s(double rate_Bps) const;
  // The share of its step it sends, at `rate_Bps` while it sends.
  double duty(double rate_Bps) const;
};

// The mean rate each job gets while it sends, in the order given: the max-min fair share of
// `capacity_Bps` among the jobs sending at the same moment, averaged over its bursts.
//  - aligned: everyone sends together: the max-min share among all of them;
//  - random: phases independent. The link is a processor-sharing server and each job a source
//    that is silent for its step less its burst and then sends: the stationary state of that
//    closed network has product form, which weighs every set of jobs sending at once (two, three
//    or more), whence the share of time each job sends and so its rate (BurstSharing.cpp). Against
//    an event-by-event simulation: within 1.2% when the traffic is on the critical path, up to 16%
//    below when compute hides it and bursts are strictly periodic (tests/models/network,
//    docs/network.md). Never below lock-step nor above interleaved;
//  - interleaved: each job gets its rate alone while the link has room, that is while the sum
//    of duty x rate alone / capacity is at most 1; beyond, the link is never idle and each rate is
//    its alone rate over that sum (never below lock-step).
// A rate sets the job's step, and the step its share of the link: rates and steps are solved
// together.
std::vector<double> burst_rates(std::span<const Burst> bursts, double capacity_Bps, PhaseAlignment alignment);

// The max-min fair share of `peaks[who]` when all of `peaks` send together on `capacity_Bps`.
double max_min_share(std::span<const double> peaks, std::size_t who, double capacity_Bps);

} // namespace acmesim
