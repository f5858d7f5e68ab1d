#pragma once
// How fast each training job runs, relative to its recorded (reference) speed (docs/network.md):
// its step at the InfiniBand rate its ring gets while it sends (its own NICs, or what the fabric
// and the other rings' bursts leave it) over its step on the reference fabric. One rule, whatever
// limits the rate. Owns each training job's network state and its ring while it trains. With the
// network model off every job runs at speed 1 and nothing goes on the platform. Engine-free.
#include "models/checkpoint/CheckpointSpec.hpp"
#include "models/network/NetworkSpec.hpp"
#include "sim/run/RingService.hpp"
#include "sim/run/RunCore.hpp"

#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace acmesim {

// How fast a job trains: its slowdown against the reference fabric, and what its ring gets per
// node on InfiniBand while it sends (0: no ring, a job on one node).
struct TrainingSpeed {
  double slowdown = 1;
  double ring_Bps = 0;
};

struct SpeedSetup {
  const NetworkSpec* network = nullptr;     // nullptr or off: every job at its reference speed
  const CheckpointSpec* training = nullptr; // the training model: model sizes, FLOP rate, batch
  RingService* rings = nullptr;             // required when the model is on
};

class TrainingSpeeds {
public:
  TrainingSpeeds(RunCore core, SpeedSetup setup);

  bool on() const { return setup_.network && setup_.network->on(); }
  // The job starts training on the GPUs it holds: its ring (several nodes) goes on the platform,
  // or sends again if it was paused. Returns its speed with the fabric to itself; contention
  // shows in speeds() once the engine reports that sharing changed.
  TrainingSpeed start(JobId id);
  // The job stops training for a while on the same GPUs (a checkpoint): its ring stays, idle.
  void pause(JobId id);
  // The job leaves its GPUs (a failure, its end): its ring, sending or paused, leaves the platform.
  void stop(JobId id);
  // The speed of each job whose ring sends, by id, from what its ring gets now.
  std::vector<std::pair<JobId, TrainingSpeed>> speeds() const;
  // What the job's ring sends a step at `speed` (the job's own, as last set), for the scheduler's
  // view; nothing without a ring.
  std::optional<JobCommunication> communication(JobId id, const TrainingSpeed& speed) const;

private:
  // The job's traffic on its own fabric, and its step on the reference fabric.
  struct Ring {
    RingLayout layout;
    RingTraffic traffic;
    double reference_step_s = 0;
    bool paused = false;
  };
  Ring ring_of(JobId id) const;
  // Its step at `rate_Bps` over its step on the reference fabric; alone: at its peak.
  static TrainingSpeed at_rate(const Ring& ring, double rate_Bps);
  static TrainingSpeed alone(const Ring& ring);

  RunCore core_;
  SpeedSetup setup_;
  std::map<JobId, Ring> rings_; // jobs with a ring open, by id (slowdowns reads in this order)
};

} // namespace acmesim
