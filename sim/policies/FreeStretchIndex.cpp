#include "sim/policies/FreeStretchIndex.hpp"

#include <algorithm>
#include <stdexcept>

namespace acmesim {

namespace {

// Enough that a question skips most of a long index in few steps, few enough that a change
// moves little.
constexpr std::size_t kBlockSize = 64;

constexpr ByStart before{};

double length(const FreeStretch& s)
{
  return s.to - s.from;
}

// A job of `duration_s` fits in a stretch when it ends by the stretch's end, reckoned as the
// timeline reckons a window, from + duration_s. That sum's rounding can let in a stretch whose
// length rounds below the duration, and keep out one whose length does not.
bool fits(const FreeStretch& s, double duration_s)
{
  return s.to >= s.from + duration_s;
}

// So a block is passed over by its longest stretch only with room for that rounding (times up to
// about 10^9 s round by well under a microsecond).
constexpr double kRoundingRoom_s = 1e-6;

} // namespace

std::vector<FreeStretchIndex::Block>::iterator FreeStretchIndex::block_for(const FreeStretch& stretch)
{
  const auto block = std::partition_point(blocks_.begin(), blocks_.end(), [&](const Block& b) {
    return before(b.stretches.back(), stretch);
  });
  return block == blocks_.end() && !blocks_.empty() ? block - 1 : block;
}

void FreeStretchIndex::assign(std::vector<FreeStretch> stretches)
{
  std::sort(stretches.begin(), stretches.end(), before);
  blocks_.clear();
  for (auto from = stretches.begin(); from != stretches.end();) {
    const auto to = from + std::min<std::ptrdiff_t>(kBlockSize, stretches.end() - from);
    blocks_.push_back(Block{{from, to}});
    blocks_.back().find_longest();
    from = to;
  }
}

void FreeStretchIndex::insert(const FreeStretch& stretch)
{
  if (blocks_.empty()) {
    blocks_.push_back(Block{{stretch}});
    blocks_.back().find_longest();
    return;
  }
  const auto block = block_for(stretch);
  auto& stretches = block->stretches;
  stretches.insert(std::upper_bound(stretches.begin(), stretches.end(), stretch, before), stretch);
  block->counted(length(stretch));
  if (stretches.size() < 2 * kBlockSize)
    return;
  Block upper{{stretches.begin() + static_cast<std::ptrdiff_t>(kBlockSize), stretches.end()}};
  stretches.resize(kBlockSize);
  block->find_longest();
  upper.find_longest();
  blocks_.insert(block + 1, std::move(upper));
}

void FreeStretchIndex::erase(const FreeStretch& stretch)
{
  const auto block = block_for(stretch);
  if (block == blocks_.end())
    throw std::logic_error("FreeStretchIndex::erase: the index is empty");
  auto& stretches = block->stretches;
  const auto it = std::lower_bound(stretches.begin(), stretches.end(), stretch, before);
  if (it == stretches.end() || it->from != stretch.from || it->node != stretch.node)
    throw std::logic_error("FreeStretchIndex::erase: no such stretch");
  const double gone = length(*it);
  stretches.erase(it);
  if (stretches.empty())
    blocks_.erase(block);
  else if (gone == block->longest && --block->at_longest == 0)
    block->find_longest();
}

std::optional<FreeStretchIndex::Starts> FreeStretchIndex::earliest_after(double now, double duration_s) const
{
  std::optional<Starts> found;
  auto block = std::partition_point(blocks_.begin(), blocks_.end(),
                                    [now](const Block& b) { return b.stretches.back().from <= now; });
  for (; block != blocks_.end(); ++block) {
    if (found && block->stretches.front().from != found->at)
      return found;
    if (block->longest + kRoundingRoom_s < duration_s)
      continue; // none long enough
    for (const auto& s : block->stretches) {
      if (found && s.from != found->at)
        return found;
      if (s.from <= now || !fits(s, duration_s))
        continue;
      if (!found)
        found = Starts{s.from, {}};
      found->nodes.push_back(s.node);
    }
  }
  return found;
}

void FreeStretchIndex::Block::counted(double length)
{
  if (length > longest) {
    longest = length;
    at_longest = 0;
  }
  at_longest += length == longest ? 1 : 0;
}

void FreeStretchIndex::Block::find_longest()
{
  longest = 0;
  at_longest = 0;
  for (const auto& s : stretches)
    counted(length(s));
}

std::size_t FreeStretchIndex::size() const
{
  std::size_t size = 0;
  for (const auto& block : blocks_)
    size += block.stretches.size();
  return size;
}

} // namespace acmesim
