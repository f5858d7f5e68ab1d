#include "models/common/Random.hpp"

#include <cmath>

namespace acmesim {

std::uint64_t derive_stream_seed(std::uint64_t scenario_seed, std::string_view stream_name)
{
  std::uint64_t h = 1469598103934665603ULL; // FNV-1a offset basis
  for (unsigned char c : stream_name) {
    h ^= c;
    h *= 1099511628211ULL; // FNV-1a prime
  }
  return splitmix64(scenario_seed ^ h);
}

std::uint64_t splitmix64(std::uint64_t z)
{
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double exponential(RandomEngine& rng, double mean)
{
  // 1 - u is in (0, 1], so the log is finite.
  return -mean * std::log(1.0 - uniform01(rng));
}

} // namespace acmesim
