#pragma once
// A set of the nodes of one pod, as a bitset over the pod's contiguous node ids: ClusterState
// moves a node between these sets each time a job starts or ends on it, which a std::set paid
// for with an allocation and a rebalance each way. Iterates by ascending id.
#include "models/cluster/Topology.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

namespace acmesim {

class NodeSet {
public:
  NodeSet() = default;
  // Holds nodes first .. first + nodes - 1.
  NodeSet(NodeId first, std::size_t nodes) : first_(first), words_((nodes + 63) / 64, 0) {}

  class const_iterator {
  public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = NodeId;
    using difference_type = std::ptrdiff_t;
    using pointer = const NodeId*;
    using reference = NodeId;

    const_iterator() = default;
    NodeId operator*() const { return set_->first_ + static_cast<NodeId>(word_ * 64 + std::countr_zero(bits_)); }
    const_iterator& operator++()
    {
      bits_ &= bits_ - 1;
      settle();
      return *this;
    }
    const_iterator operator++(int)
    {
      const_iterator before = *this;
      ++*this;
      return before;
    }
    bool operator==(const const_iterator& other) const { return word_ == other.word_ && bits_ == other.bits_; }

  private:
    friend class NodeSet;
    const_iterator(const NodeSet* set, std::size_t word) : set_(set), word_(word)
    {
      if (word_ < set_->words_.size())
        bits_ = set_->words_[word_];
      settle();
    }
    // Moves to the next set bit, or to the end (word_ == word count, no bits).
    void settle()
    {
      while (bits_ == 0 && word_ < set_->words_.size())
        if (++word_ < set_->words_.size())
          bits_ = set_->words_[word_];
    }

    const NodeSet* set_ = nullptr;
    std::size_t word_ = 0;
    std::uint64_t bits_ = 0;
  };

  const_iterator begin() const { return {this, lowest_word_}; }
  const_iterator end() const { return {this, words_.size()}; }
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  std::size_t count(NodeId node) const { return (words_[word_of(node)] >> bit_of(node)) & 1U; }

  void insert(NodeId node)
  {
    std::uint64_t& word = words_[word_of(node)];
    const std::uint64_t bit = std::uint64_t{1} << bit_of(node);
    if ((word & bit) != 0)
      return;
    word |= bit;
    ++size_;
    lowest_word_ = std::min(lowest_word_, word_of(node));
  }

  void erase(NodeId node)
  {
    std::uint64_t& word = words_[word_of(node)];
    const std::uint64_t bit = std::uint64_t{1} << bit_of(node);
    if ((word & bit) == 0)
      return;
    word &= ~bit;
    --size_;
    // Keeps begin() from scanning the empty words in front of the first node.
    while (lowest_word_ < words_.size() && words_[lowest_word_] == 0)
      ++lowest_word_;
  }

private:
  std::size_t word_of(NodeId node) const { return (node - first_) / 64; }
  unsigned bit_of(NodeId node) const { return (node - first_) % 64; }

  NodeId first_ = 0;
  std::vector<std::uint64_t> words_;
  std::size_t size_ = 0;
  std::size_t lowest_word_ = 0; // no node in the words before it (all of them when the set is empty)
};

} // namespace acmesim
