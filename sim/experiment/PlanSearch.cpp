#include "sim/experiment/PlanSearch.hpp"

#include <algorithm>
#include <stdexcept>

namespace acmesim {

PlanSearch::PlanSearch(const PlanSpec& spec) : spec_(spec)
{
  for (std::size_t i = 0; i < spec.variables.size(); ++i)
    if (spec.variables[i].bisect)
      bisected_ = i;
  // Every combination of the other variables' values is a line.
  std::vector<std::size_t> sizes;
  for (std::size_t i = 0; i < spec.variables.size(); ++i)
    sizes.push_back(bisected_ == i ? 1 : spec.variables[i].values.size());
  std::vector<std::size_t> indices(sizes.size(), 0);
  while (true) {
    Line line;
    line.grid_indices = indices;
    line.high = bisected_ ? spec.variables[*bisected_].values.size() - 1 : 0;
    line.low = 0;
    lines_.push_back(line);
    std::size_t i = sizes.size();
    while (i > 0 && ++indices[i - 1] == sizes[i - 1])
      indices[--i] = 0;
    if (i == 0)
      break;
  }
}

std::size_t PlanSearch::candidate(const Line& line, std::size_t value) const
{
  std::vector<std::size_t> indices = line.grid_indices;
  if (bisected_)
    indices[*bisected_] = value;
  return spec_.candidate_of(indices);
}

std::vector<std::size_t> PlanSearch::next_round()
{
  std::vector<std::size_t> round;
  for (Line& line : lines_) {
    if (line.asked)
      throw std::logic_error("plan search: a candidate of the last round was not told");
    if (line.done)
      continue;
    // First the last value (all of a grid-only line's one candidate); then the middle of what is left.
    line.asked = line.top_checked ? line.low + (line.high - line.low) / 2 : line.high;
    round.push_back(candidate(line, *line.asked));
  }
  std::sort(round.begin(), round.end());
  if (!round.empty())
    ++rounds_;
  return round;
}

void PlanSearch::tell(std::size_t candidate_index, bool meets_targets)
{
  for (Line& line : lines_) {
    if (!line.asked || candidate(line, *line.asked) != candidate_index)
      continue;
    const std::size_t value = *line.asked;
    line.asked.reset();
    if (!line.top_checked) {
      line.top_checked = true;
      // Met nowhere along the line; or met at its last value, which is then the only one left
      // when the line has one value.
      line.done = !meets_targets || line.low == line.high;
      return;
    }
    if (meets_targets)
      line.high = value;
    else
      line.low = value + 1;
    line.done = line.low == line.high;
    return;
  }
  throw std::logic_error("plan search: told of a candidate that was not asked for");
}

} // namespace acmesim
