// A plan file, and the search over the candidates it declares.
#include "sim/experiment/PlanSearch.hpp"
#include "sim/experiment/PlanSpec.hpp"
#include "tests/fuzz/FuzzInput.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  return acmesim::fuzz::accept_input_errors([&] {
    const acmesim::PlanSpec plan =
        acmesim::parse_plan(acmesim::fuzz::text_of(data, size), "fuzz.yaml", "/nonexistent", "fuzz");
    // Every candidate answers "met" from the middle on: the search must end within its bound.
    acmesim::PlanSearch search(plan);
    std::size_t rounds = 0;
    for (auto round = search.next_round(); !round.empty() && rounds < 64; round = search.next_round(), ++rounds)
      for (const std::size_t c : round)
        search.tell(c, c >= plan.candidate_count() / 2);
    if (rounds == 64)
      __builtin_trap();
  });
}
