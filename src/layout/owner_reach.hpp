#pragma once
/// @file owner_reach.hpp
/// How far each rank's tiles reach along each tile line of a distribution: the last tile
/// column of tile row i a rank owns, the last tile row of tile column j. The factorisations
/// decide from it who receives which panel row and U tile (kernels/factorization_tiles.hpp,
/// kernels/cholesky_tiles.hpp).
///
/// A table per line and rank would take lines × P entries: 2 GB per rank at 16,384 ranks and
/// 15,625 tile lines (issue 32). The reach is read instead from the distribution's owner
/// classes (OwnerClasses): per rank its cells, per class its lines, per column class its
/// owners. Only the tiles of cells without one owner (a GCR&M pattern's diagonal cells, a
/// distribution of no known structure) are listed per tile, per line and rank. The memory is
/// O(lines + cells + P + such tiles).
#include <cstdint>
#include <utility>
#include <vector>

#include "layout/distribution.hpp"

namespace hetscal::layout {

class OwnerReach {
 public:
  /// A rank and how far its tiles reach along a line.
  struct Holder {
    int rank;
    std::int64_t reach;
  };

  /// @param transposed read tile (i, j) as d's tile (j, i): a Cholesky's upper triangle seen
  ///        as the lower one.
  explicit OwnerReach(const Distribution& d, bool transposed = false);

  /// Largest j <= bound with owner(i, j) = rank, or -1. Costs the rank's cells in tile row i's
  /// class, each a binary search over a class's lines when bound cuts it.
  std::int64_t row_reach(int rank, std::int64_t i, std::int64_t bound) const;
  /// Largest j with owner(i, j) = rank, or -1.
  std::int64_t row_reach(int rank, std::int64_t i) const { return row_reach(rank, i, cols_ - 1); }
  /// Largest i with owner(i, j) = rank, or -1. Costs a binary search over the rank's cells.
  std::int64_t column_reach(int rank, std::int64_t j) const;
  /// The ranks owning a tile of column j, each with its column_reach, by decreasing reach
  /// (equal reaches by increasing rank).
  std::pair<const Holder*, const Holder*> column_holders(std::int64_t j) const;

  /// Calls f(rank) for every rank owning a tile of row i, some of them more than once. Costs
  /// the ranks of row i's class and those of the row's tiles with owners of their own, not P.
  template <typename F>
  void for_each_row_owner(std::int64_t i, F&& f) const {
    const auto ranks = class_ranks_.of(row_class_[static_cast<std::size_t>(i)]);
    for (const int* rank = ranks.first; rank != ranks.second; ++rank) f(*rank);
    const auto own = row_own_tiles_.of(i);
    for (const OwnTile* tile = own.first; tile != own.second; ++tile) f(tile->rank);
  }

  /// Bytes of this object's tables.
  std::int64_t bytes() const;

 private:
  /// A cell of the owner table, by its row and column class.
  struct Cell {
    int row_class, col_class;
  };
  /// How far a rank's tiles reach down the columns of one class.
  struct ClassReach {
    int col_class;
    std::int64_t reach;
  };
  /// A tile with an owner of its own, seen from one of its lines: its owner and its index
  /// along that line.
  struct OwnTile {
    int rank;
    std::int64_t line;
  };
  /// Entries grouped by an index (a rank, a class or a line): those of index x are
  /// entries[start[x], start[x + 1]).
  template <typename Entry>
  struct Grouped {
    std::vector<std::size_t> start;  ///< per index and one past; empty when there are none
    std::vector<Entry> entries;

    std::pair<const Entry*, const Entry*> of(std::int64_t x) const {
      if (start.empty()) return {nullptr, nullptr};
      const auto at = static_cast<std::size_t>(x);
      return {entries.data() + start[at], entries.data() + start[at + 1]};
    }
    std::int64_t bytes() const;
    /// Sorts each index's entries by `earlier`.
    template <typename Earlier>
    void sort_each(Earlier&& earlier);
  };

  static bool by_rank_then_line(const OwnTile& a, const OwnTile& b) {
    return a.rank != b.rank ? a.rank < b.rank : a.line < b.line;
  }
  std::int64_t largest_col_of_class(int col_class, std::int64_t bound) const;
  static std::int64_t own_tile_reach(const Grouped<OwnTile>& lines, std::int64_t line, int rank,
                                     std::int64_t bound);
  void index_cells(const OwnerClasses& classes, int ranks);
  void list_class_ranks(const OwnerClasses& classes);
  void list_own_tiles(const Distribution& d, const OwnerClasses& classes, bool transposed);
  void list_column_holders();

  std::int64_t rows_, cols_;
  std::vector<int> row_class_, col_class_;       ///< per line
  std::vector<std::int64_t> last_row_of_class_;  ///< per row class, -1 when it has none
  Grouped<std::int64_t> class_cols_;             ///< per column class: its columns, increasing
  std::vector<char> col_class_per_tile_;  ///< per column class: a cell of it has no one owner
  Grouped<Cell> rank_cells_;              ///< per rank: its cells, by row then column class
  Grouped<int> class_ranks_;              ///< per row class: the ranks of its cells, increasing
  Grouped<ClassReach> rank_columns_;      ///< per rank: its column classes, increasing
  Grouped<Holder> class_holders_;         ///< per column class: its owners, deepest first
  Grouped<Holder> column_holders_;        ///< per column of a class with per-tile cells
  Grouped<OwnTile> row_own_tiles_, column_own_tiles_;  ///< per line: by rank, then index
};

}  // namespace hetscal::layout
