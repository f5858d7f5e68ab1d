#pragma once
// How the training rings on a fabric share its links when each job's traffic comes in bursts:
// BurstSharing on every link that carries a ring, with the traffic that is not a ring (storage
// transfers, model loads) as senders that never stop, at the rates they have. A ring sends on all
// its flows at once, so its flows on one link are one sender; a flow gets the least of what its
// links give it. Engine-free: the engine says which links each ring's flows cross, their capacity
// and what else runs on them (sim/engine/PlatformRings), docs/network.md, "Bursts on a link".
#include "models/network/BurstSharing.hpp"

#include <cstddef>
#include <span>
#include <vector>

namespace acmesim {

// One link direction as rings see it.
struct SharedLink {
  double capacity_Bps = 0;        // what one flow alone gets of it
  std::vector<double> steady_Bps; // the other flows on it, which send all the time, at these rates
};

// One ring: its burst per flow (the bytes one flow carries a step; peak: what a flow gets with
// the fabric to itself) and the links its flows cross.
struct RingOnLinks {
  Burst burst;
  struct Use {
    std::size_t link = 0; // index into the links
    int flows = 1;        // flows of the ring on it
  };
  std::vector<Use> links;
};

// The rate each ring's flows get while they send, in the order given: the least over its links
// of what each gives it. A ring that a narrow link holds back asks less of the others: on each
// link a ring's peak is the least that its other links would give it with no other ring on them
// (their capacity, less their steady flows). What other rings take elsewhere does not lower it:
// a rival's bursts come and go on all the links two rings share at once.
std::vector<double> ring_rates(std::span<const SharedLink> links, std::span<const RingOnLinks> rings,
                               PhaseAlignment alignment);

} // namespace acmesim
