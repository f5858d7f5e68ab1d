#pragma once
// How the training rings on a fabric share its links when each job's traffic comes in bursts:
// BurstSharing on every link that carries a ring, with the traffic that is not a ring (storage
// transfers, model loads) as senders that never stop, at the rates they have. A ring sends on all
// its flows at once, so its flows on one link are one sender; a flow gets the least of what its
// links give it. On each link a ring's peak is the least its other links would give it with no
// other ring on them (their capacity, less their steady flows): a narrow link holds it back and
// leaves the rest of a shared link to others, while what rival rings take elsewhere does not lower
// it, since a rival's bursts come and go on all the links two rings share at once.
//
// Solved incrementally, as the engine asks after each change of sharing: only the links whose
// rings or steady flows changed are solved again. Engine-free: the engine says which links each
// ring's flows cross, their capacity and what else runs on them (sim/engine/PlatformRings);
// docs/network.md, "Bursts on a link".
#include "models/network/BurstSharing.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

namespace acmesim {

// One ring's use of a link.
struct RingLink {
  std::size_t link = 0; // index given by FabricShares::add_link
  int flows = 1;        // flows of the ring on it
};

class FabricShares {
public:
  using RingKey = std::uint64_t;

  explicit FabricShares(PhaseAlignment alignment) : alignment_(alignment) {}

  // A link direction, with what one flow alone gets of it; returns its index.
  std::size_t add_link(double capacity_Bps);
  std::size_t link_count() const { return links_.size(); }
  // The other flows on the link (storage transfers), which send all the time, at these rates.
  void set_steady(std::size_t link, std::span<const double> steady_Bps);

  // A ring starts sending: its burst per flow (the bytes one flow carries a step; peak: what a
  // flow gets with the fabric to itself) and the links its flows cross.
  void add_ring(RingKey key, const Burst& burst, std::vector<RingLink> uses);
  void remove_ring(RingKey key);

  // What the ring's flows get while they send, with everything solved that changed.
  double rate_Bps(RingKey key);
  // Every ring's rate, by key.
  template <class F> void for_each_rate(F f)
  {
    solve();
    for (const RingKey key : order_)
      f(key, rings_.at(key).rate_Bps);
  }

private:
  struct Link {
    double capacity_Bps = 0;
    std::vector<double> steady;
    struct User {
      RingKey ring;
      std::size_t use; // index into the ring's uses
    };
    std::vector<User> users; // rings on it, in the order they came
    bool dirty = false;
  };
  struct Ring {
    Burst burst;
    std::vector<RingLink> uses;
    std::vector<double> alone; // per use: what it gets there with no other ring
    // The two least of `alone` and the peak, and the use of the least: a ring's peak on a link is
    // the least over its other links.
    double least = 0, second = 0;
    std::size_t least_use = 0;
    std::vector<double> got;   // per use: what it got there at the last solve
    double rate_Bps = 0;
    bool touched = false; // solved on some link in the solve under way
  };

  void mark(std::size_t link);
  double alone_on(const Ring& ring, const RingLink& use) const;
  static void find_least(Ring& ring);
  // Solves one link; the rings on it go into `touched`.
  void solve_link(std::size_t link, std::vector<RingKey>& touched);
  void solve();

  PhaseAlignment alignment_;
  std::vector<Link> links_;
  std::unordered_map<RingKey, Ring> rings_;
  std::vector<RingKey> order_; // rings in the order they came (for_each_rate's order)
  std::vector<std::size_t> dirty_;
  std::vector<Burst> senders_; // scratch
};

// One ring over given links, for a one-off solve.
struct RingOnLinks {
  Burst burst;
  std::vector<RingLink> links;
};
// One link direction, for a one-off solve.
struct SharedLink {
  double capacity_Bps = 0;
  std::vector<double> steady_Bps;
};

// A ring's flows on a link, as another flow's max-min share there sees them: each of its flows asks
// at most `flow_Bps` (its mean), and loads the link with `weight` x its rate summed over them (1
// per flow routed over it).
struct RingDemand {
  double weight = 0;
  double flow_Bps = 0;
};
// What the rings hold of a link on average when `other_flows` that take all they can get (storage
// transfers, weight 1) share it: the weighted max-min level x at which each ring's flows get
// min(flow_Bps, x) and the others x, filling `capacity_Bps`; the rings hold the sum of their
// weighted rates, the other flows the rest. The engine keeps the rings out of its own bandwidth
// sharing and lowers the link's bandwidth by this much while other flows cross it
// (sim/engine/PlatformRings).
double rings_hold_Bps(std::span<const RingDemand> rings, std::size_t other_flows, double capacity_Bps);

// The rate each ring's flows get while they send, in the order given (FabricShares, solved once).
std::vector<double> ring_rates(std::span<const SharedLink> links, std::span<const RingOnLinks> rings,
                               PhaseAlignment alignment);

} // namespace acmesim
