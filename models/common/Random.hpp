#pragma once
// Independent, named random streams derived from the one scenario seed.
//
// Each component asks for its own stream by name ("workload.arrivals", "placement.random"),
// so adding a component or drawing more numbers in one never shifts another's draws.
#include <cstdint>
#include <random>
#include <string_view>

namespace acmesim {

using RandomEngine = std::mt19937_64;

// splitmix64's finaliser (Steele, Lea and Flood, OOPSLA 2014): spreads nearby inputs over the
// whole 64-bit range, identically on every platform.
std::uint64_t splitmix64(std::uint64_t z);

// Mixes the scenario seed with a stable hash of the stream name (FNV-1a then splitmix64).
std::uint64_t derive_stream_seed(std::uint64_t scenario_seed, std::string_view stream_name);

inline RandomEngine make_stream(std::uint64_t scenario_seed, std::string_view stream_name)
{
  return RandomEngine(derive_stream_seed(scenario_seed, stream_name));
}

// Uniform double in [0, 1) from the engine, identical on every platform (unlike
// std::uniform_real_distribution, whose algorithm the standard leaves open).
inline double uniform01(RandomEngine& rng)
{
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

// Exponential variate with the given mean, built on uniform01 for portability.
double exponential(RandomEngine& rng, double mean);

} // namespace acmesim
