#pragma once
/// @file rank_groups.hpp
/// Internal to the factorisations: the messages of one call listed by peer.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace hetscal::kernels::detail {

/// Pairs (rank, index) of one call's messages collected in any order, then visited grouped by
/// rank, ranks increasing and indices increasing within a rank: the order in which the
/// kernels post their messages and lay out their blocks. Listing a step's messages so costs
/// O(pairs · log pairs) instead of a pass over every column for every rank, O(P · columns),
/// which at hundreds of ranks was most of a simulation's real time. Sized once (reserve); a
/// call that would exceed the reserve is a bug, refused rather than reallocated mid-run.
class RankGroups {
 public:
  struct Pair {
    int rank;
    std::int64_t index;
    bool operator<(const Pair& o) const { return rank != o.rank ? rank < o.rank : index < o.index; }
  };
  using Iterator = std::vector<Pair>::const_iterator;

  void reserve(std::size_t pairs) { pairs_.reserve(pairs); }
  void clear() {
    pairs_.clear();
    sorted_ = true;
  }
  /// @throws std::logic_error when the reserve is full
  void add(int rank, std::int64_t index) {
    if (pairs_.size() == pairs_.capacity())
      throw std::logic_error("RankGroups: more pairs than reserved");
    pairs_.push_back({rank, index});
    sorted_ = false;
  }
  bool empty() const { return pairs_.empty(); }
  /// Calls group(rank, first, last) for each rank with pairs, ranks increasing; [first, last)
  /// are its pairs, indices increasing.
  template <typename Group>
  void for_each(Group&& group) {
    if (!sorted_) std::sort(pairs_.begin(), pairs_.end());
    sorted_ = true;
    for (Iterator at = pairs_.begin(); at != pairs_.end();) {
      Iterator end = at;
      while (end != pairs_.end() && end->rank == at->rank) ++end;
      group(at->rank, at, end);
      at = end;
    }
  }

 private:
  std::vector<Pair> pairs_;
  bool sorted_ = true;
};

/// The ranks met in one round of a listing, each answered "first" once: a rank that several
/// owner lists name (a tile line's class and its tiles with owners of their own) is counted
/// once per round, at O(1) per meeting and without clearing P flags per round.
class RanksMet {
 public:
  explicit RanksMet(int ranks = 0) : rounds_(static_cast<std::size_t>(ranks), 0) {}
  /// Makes room for `ranks` ranks (nothing when there is).
  void resize(int ranks) { rounds_.resize(static_cast<std::size_t>(ranks), 0); }
  /// Starts a round: no rank was met in it yet.
  void next_round() { ++round_; }
  /// True at `rank`'s first meeting in this round. @pre next_round() started one.
  bool first_meeting(int rank) {
    ++meetings_;
    std::uint64_t& last = rounds_[static_cast<std::size_t>(rank)];
    if (last == round_) return false;
    last = round_;
    return true;
  }
  /// Meetings since construction, first or not: the work of the listings that met the ranks.
  std::int64_t meetings() const { return meetings_; }

 private:
  std::vector<std::uint64_t> rounds_;  ///< per rank: the last round it was met in
  std::uint64_t round_ = 0;
  std::int64_t meetings_ = 0;
};

}  // namespace hetscal::kernels::detail
