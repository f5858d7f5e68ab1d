#pragma once
// Prior-based packing of evaluation trials (Acme's trial coordinator, NSDI'24 §6.2): with known
// runtimes, trials go longest first onto the least-loaded GPU slot (LPT, Graham 1969).
#include <cstddef>
#include <vector>

namespace acmesim {

// Assigns items of the given durations to `slots` slots: in order of decreasing duration (ties
// by index), each to the slot with the least load so far (ties: lowest slot). Returns, per
// slot, the item indices in the order they were assigned. slots >= 1.
std::vector<std::vector<std::size_t>> longest_first(const std::vector<double>& durations, std::size_t slots);

// Largest slot load of an assignment.
double packed_makespan(const std::vector<std::vector<std::size_t>>& assignment, const std::vector<double>& durations);

} // namespace acmesim
