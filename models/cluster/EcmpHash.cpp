#include "models/cluster/EcmpHash.hpp"

#include "models/common/Random.hpp"

#include <stdexcept>

namespace acmesim {

std::size_t ecmp_path(const EcmpFlow& flow, std::size_t paths)
{
  if (paths == 0)
    throw std::invalid_argument("ecmp_path: no path to choose from");
  // Each field goes through the mixer before the next joins, so flows that differ in one field
  // only (a node's NICs toward one peer) still land on independent paths.
  std::uint64_t h = splitmix64(flow.seed);
  h = splitmix64(h ^ flow.from);
  h = splitmix64(h ^ flow.to);
  h = splitmix64(h ^ flow.index);
  return static_cast<std::size_t>(h % paths);
}

} // namespace acmesim
