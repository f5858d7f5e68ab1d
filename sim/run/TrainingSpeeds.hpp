#pragma once
// How fast each training job runs, relative to its recorded (reference) speed (docs/network.md):
// its communication profile on its pod's NVLink and NICs against the reference fabric, and under
// contention what its ring of flows gets on the platform. Owns each training job's network state
// and its ring while it trains. With the network model off every job runs at speed 1 and nothing
// goes on the platform. Engine-free.
#include "models/checkpoint/CheckpointSpec.hpp"
#include "models/network/NetworkSpec.hpp"
#include "sim/run/RingService.hpp"
#include "sim/run/RunCore.hpp"

#include <map>
#include <utility>
#include <vector>

namespace acmesim {

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
  // or sends again if it was paused. Returns its slowdown with the fabric to itself; contention
  // shows in slowdowns() once the engine reports that sharing changed.
  double start(JobId id);
  // The job stops training for a while on the same GPUs (a checkpoint): its ring stays, idle.
  void pause(JobId id);
  // The job leaves its GPUs (a failure, its end): its ring, sending or paused, leaves the platform.
  void stop(JobId id);
  // The slowdown of each job whose ring sends, by id, from what its ring gets now.
  std::vector<std::pair<JobId, double>> slowdowns() const;

private:
  JobSpeed speed_of(JobId id) const;

  struct Ring {
    JobSpeed speed;
    bool paused = false;
  };

  RunCore core_;
  SpeedSetup setup_;
  std::map<JobId, Ring> rings_; // jobs with a ring open, by id (slowdowns reads in this order)
};

} // namespace acmesim
