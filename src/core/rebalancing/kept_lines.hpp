#pragma once
/// @file kept_lines.hpp
/// The minimal-move assignment of a matrix's tile lines (tile rows or tile columns) to the
/// rows (columns) of a process grid, for a take-over that computes in the caller's arrays
/// (issue 28, item 1; the idea of Beaumont2000's redistribution applied to the caller's own
/// layout): each line stays where the caller keeps it unless its group already holds its
/// planned count, and only the lines beyond a group's count move, to the groups short of
/// theirs. A line that moves costs one move of each of its tiles, so keeping every line a
/// group may keep moves the fewest: sum over groups of max(0, held − planned).
#include <cstdint>
#include <vector>

namespace hetscal::core {

/// Planned line counts per group: `lines` shared in proportion to `weights` (largest
/// remainders, ties to the lower group), summing to `lines`.
/// @pre weights non-empty, every weight finite and > 0.
std::vector<std::int64_t> planned_line_counts(std::int64_t lines, const std::vector<double>& weights);

/// Which lines a group keeps when it holds more than its count, and where the others go:
/// every choice moves the fewest lines, they differ in what a computation finds where.
enum class KeptLines {
  /// A group keeps its first lines and the lines that move fill the groups short of their
  /// count in line order, the lowest such group first: the kept lines stay side by side in
  /// the caller's array (a product's update does not care where its tiles are).
  Leading,
  /// A group keeps lines spread evenly over those it holds, and the lines that move are dealt
  /// to the groups short of their count in proportion to their shortfalls: every trailing
  /// part of the matrix then holds each group's planned share, as a factorization's steps
  /// need (on a 1x2 grid planned 3:1, a Cholesky whose slow rank kept its first lines would
  /// hold 3/8 of the first step's trailing update, half again its share, and idle in the last
  /// steps).
  Spread,
};

/// The group of each line after the fewest moves that give each group its planned count.
/// @param held held[L]: the group holding line L now, in [0, planned.size()).
/// @param planned per group, summing to held.size().
/// @param kept which lines a group keeps and where the others go (KeptLines).
/// @return per line its group.
/// @throws InvalidArgument when the counts do not sum to the lines or a group is outside.
std::vector<int> keep_most_lines(const std::vector<int>& held, const std::vector<std::int64_t>& planned,
                                 KeptLines kept = KeptLines::Leading);

}  // namespace hetscal::core
