// ECMP's choice of path (models/cluster/EcmpHash): reproducible, spread evenly, independent per field.
#include "models/cluster/EcmpHash.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

using namespace acmesim;

TEST_CASE("ecmp: a flow always hashes to the same path, within the paths there are")
{
  const EcmpFlow flow{42, 3, 17, 1};
  const std::size_t path = ecmp_path(flow, 20);
  CHECK(path < 20);
  CHECK(ecmp_path(flow, 20) == path);
  CHECK(ecmp_path(flow, 1) == 0);
  CHECK_THROWS_AS(ecmp_path(flow, 0), std::invalid_argument);
}

TEST_CASE("ecmp: 20,000 flows spread over 20 paths within 10% of 1,000 each, whichever field tells them apart")
{
  // Counts of a uniform choice have a standard deviation of sqrt(1000 x 0.95) = 31: 10% is three
  // times that, so a fair hash passes and one that ignores a field (all on one path) fails.
  const auto spread = [](auto flow_of) {
    std::vector<int> count(20, 0);
    for (std::uint32_t i = 0; i < 20000; ++i)
      ++count[ecmp_path(flow_of(i), 20)];
    for (const int c : count)
      CHECK(c == Approx(1000).epsilon(0.1));
  };
  spread([](std::uint32_t i) { return EcmpFlow{7, i, 0, 0}; });
  spread([](std::uint32_t i) { return EcmpFlow{7, 0, i, 0}; });
  spread([](std::uint32_t i) { return EcmpFlow{7, 0, 1, i}; });
  spread([](std::uint32_t i) { return EcmpFlow{i, 0, 1, 0}; });
}

TEST_CASE("ecmp: two flows on two paths collide for about half of the seeds, as independent choices do")
{
  int collisions = 0;
  for (std::uint64_t seed = 0; seed < 4000; ++seed)
    collisions += ecmp_path(EcmpFlow{seed, 0, 2, 0}, 2) == ecmp_path(EcmpFlow{seed, 1, 3, 0}, 2) ? 1 : 0;
  // Binomial(4000, 0.5): standard deviation 32, so 2,000 +- 150 is more than four of them.
  CHECK(collisions == Approx(2000).margin(150));
}
