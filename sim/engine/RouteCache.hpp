#pragma once
// The links of the route between two hosts, once a flow took it, each mapped to what the caller
// keeps of it (an index, a pointer; links it does not follow are left out). Asking SimGrid for a
// route costs more than the flow itself, and the same node pairs come back at every checkpoint,
// restart and ring. Only the pairs that carried a flow are kept: a table of every pair would grow
// with the square of the cluster (8 GB at 65,536 GPUs). Routes stay where they are as the cache
// grows, so callers may point into it.
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

#include <boost/functional/hash.hpp>

#include <functional>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace acmesim {

template <class Hop> class RouteCache {
public:
  using Route = std::vector<Hop>;
  using HopOf = std::function<std::optional<Hop>(simgrid::s4u::Link*)>;

  explicit RouteCache(HopOf hop_of) : hop_of_(std::move(hop_of)) {}

  const Route& route(const simgrid::s4u::Host* from, const simgrid::s4u::Host* to)
  {
    const auto [it, added] = routes_.try_emplace(HostPair{from, to});
    if (added) {
      std::vector<simgrid::s4u::Link*> hops;
      from->route_to(to, hops, nullptr);
      for (simgrid::s4u::Link* link : hops)
        if (std::optional<Hop> hop = hop_of_(link))
          it->second.push_back(*hop);
    }
    return it->second;
  }

private:
  using HostPair = std::pair<const simgrid::s4u::Host*, const simgrid::s4u::Host*>;
  HopOf hop_of_;
  std::unordered_map<HostPair, Route, boost::hash<HostPair>> routes_;
};

} // namespace acmesim
