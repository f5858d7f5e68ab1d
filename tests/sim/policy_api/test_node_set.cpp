// NodeSet against std::set under random inserts and erases, on a pod whose ids do not start at 0
// and whose size is not a multiple of 64.
#include "sim/policy_api/NodeSet.hpp"

#include <catch2/catch.hpp>

#include <random>
#include <set>
#include <vector>

using namespace acmesim;

TEST_CASE("NodeSet: membership, size and ascending iteration agree with std::set")
{
  constexpr NodeId FIRST = 286;
  constexpr std::size_t NODES = 302;
  NodeSet nodes(FIRST, NODES);
  std::set<NodeId> expected;
  CHECK(nodes.empty());
  CHECK(nodes.begin() == nodes.end());

  std::mt19937 rng(7);
  std::uniform_int_distribution<NodeId> pick(FIRST, FIRST + NODES - 1);
  for (int step = 0; step < 20000; ++step) {
    const NodeId node = pick(rng);
    // Mostly inserts early, mostly erases late, so the set fills up and drains again.
    if ((rng() % 100) < (step < 10000 ? 70U : 25U)) {
      nodes.insert(node);
      expected.insert(node);
    } else {
      nodes.erase(node);
      expected.erase(node);
    }
    REQUIRE(nodes.size() == expected.size());
    REQUIRE(nodes.count(node) == expected.count(node));
    if (step % 97 == 0 || expected.size() < 3)
      REQUIRE(std::vector<NodeId>(nodes.begin(), nodes.end()) == std::vector<NodeId>(expected.begin(), expected.end()));
    REQUIRE(nodes.empty() == expected.empty());
    if (!expected.empty())
      REQUIRE(*nodes.begin() == *expected.begin());
  }
  // The last node of the pod, in the last partial word.
  nodes.insert(FIRST + NODES - 1);
  CHECK(nodes.count(FIRST + NODES - 1) == 1);
  CHECK(*std::prev(std::vector<NodeId>(nodes.begin(), nodes.end()).end()) == FIRST + NODES - 1);
}
