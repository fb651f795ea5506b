#pragma once
/// @file tile_blocks.hpp
/// Internal to the LU's and QR's updates on a storage of tiles (an in-place take-over's, a
/// pattern's): a step's work on this rank's trailing tiles grouped into blocks of memory, so
/// that it stays a few large GEMMs instead of one per tile (issue 28, item 2). A block is a run
/// of this rank's tiles down one tile column that follow one another in memory with one leading
/// dimension, and whose panel rows follow one another in the step's stack; it extends over the
/// next tile columns while each is one such run of the same tile rows, right after it in
/// memory, and the update's other operand for it (the LU's U tiles, the QR's W columns) is
/// right after the block's too. Where a rank keeps or receives whole tile columns (a 1xQ grid,
/// the overflow of an in-place take-over), a step is one GEMM per run of adjacent columns.
///
/// Adjacency is decided on addresses: an element of the block is addressed as the first
/// tile's first element plus its row and column times the leading dimension, which is the
/// element of the tile it falls in exactly when that tile starts where the arithmetic says.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/distributed_matrix.hpp"
#include "kernels/factorization_tiles.hpp"

namespace hetscal::kernels::detail {

/// Where a block meets the update's other operand: its first column's first element and the
/// distance between its columns. P is T or const T.
template <typename P>
struct BlockPartner {
  P* at = nullptr;
  std::int64_t ld = 1;
};

/// One block of trailing tiles.
template <typename T>
struct TileBlock {
  T* a;                   ///< its first element in A
  std::int64_t ld;        ///< A's leading dimension there
  const T* panel;         ///< the panel's rows of its first tile row, in the step's stack
  std::int64_t panel_ld;  ///< the stack's leading dimension there
  std::int64_t rows, cols;
  bool first_of_column;  ///< the first block of its tile columns (the QR's W is set, not added)
};

/// Whether `next` starts `distance` elements after `start` (on addresses: the two may lie in
/// different buffers, as long as the arithmetic lands on the element).
template <typename T, typename U>
bool follows(const T* start, std::int64_t distance, const U* next) {
  return reinterpret_cast<std::uintptr_t>(start) + static_cast<std::uintptr_t>(distance) * sizeof(T) ==
         reinterpret_cast<std::uintptr_t>(next);
}

/// Calls block(const TileBlock<T>&, partner) for every block of this rank's tiles (i, j), i >= from_row,
/// j in [first, last). Allocates nothing (it runs inside a kernel, after its allocations were
/// agreed).
/// @param panel_tile `BlockPartner<const T>(std::int64_t i)`: the panel's rows of tile row i
///        in the step's stack, and the stack's leading dimension there.
/// @param partner `BlockPartner<P>(std::int64_t j)`: the other operand's first element for
///        tile column j, or `at` null when none (then j is skipped); the block's is its first
///        column's.
template <typename T, typename PanelTile, typename Partner, typename Block>
void for_each_tile_block(const FactorizationTiles& tiles, const DistributedMatrix<T>& a, std::int64_t from_row,
                         std::int64_t first, std::int64_t last, PanelTile&& panel_tile, Partner&& partner,
                         Block&& block) {
  using Rows = std::vector<std::int64_t>::const_iterator;
  const auto from = [&](std::int64_t j) {
    const std::vector<std::int64_t>& mine = tiles.my_rows_in_column(j);
    return std::lower_bound(mine.begin(), mine.end(), from_row);
  };
  // The run down column j from tile row *i: its end, its rows and its first element.
  const auto run = [&](std::int64_t j, Rows i, Rows end, std::int64_t* rows, T** start, std::int64_t* ld) {
    const layout::TileLocation where = a.storage->tile_location({*i, j});
    *start = a.at(where);
    *ld = where.ld;
    const BlockPartner<const T> panel = panel_tile(*i);
    *rows = tiles.rows().size(*i);
    for (++i; i != end; ++i) {
      const layout::TileLocation next = a.storage->tile_location({*i, j});
      const BlockPartner<const T> next_panel = panel_tile(*i);
      // A block's rows must fit its leading dimensions (a one-column tile stored right after
      // another follows it in memory, but as a block its ld would be too short for BLAS).
      const std::int64_t grown = *rows + tiles.rows().size(*i);
      if (next.ld != *ld || grown > *ld || !follows(*start, *rows, a.at(next)) || next_panel.ld != panel.ld ||
          grown > panel.ld || !follows(panel.at, *rows, next_panel.at))
        break;
      *rows = grown;
    }
    return i;
  };
  std::int64_t j = first;
  while (j < last) {
    const std::vector<std::int64_t>& mine = tiles.my_rows_in_column(j);
    const Rows begin = from(j);
    if (begin == mine.end()) {  // no tile of column j here (its partner may be undefined)
      ++j;
      continue;
    }
    const auto other = partner(j);
    if (other.at == nullptr) {
      ++j;
      continue;
    }
    std::int64_t rows = 0, ld = 1;
    T* start = nullptr;
    Rows end = run(j, begin, mine.end(), &rows, &start, &ld);
    std::int64_t cols = tiles.cols().size(j), next = j + 1;
    // One run down the whole column: extend over the next columns that continue it.
    while (end == mine.end() && next < last) {
      const std::vector<std::int64_t>& theirs = tiles.my_rows_in_column(next);
      const Rows their_begin = from(next);
      if (their_begin == theirs.end() || *their_begin != *begin) break;
      const auto their_other = partner(next);
      if (their_other.at == nullptr || their_other.ld != other.ld || !follows(other.at, other.ld * cols, their_other.at))
        break;
      std::int64_t their_rows = 0, their_ld = 1;
      T* their_start = nullptr;
      if (run(next, their_begin, theirs.end(), &their_rows, &their_start, &their_ld) != theirs.end() ||
          their_rows != rows || their_ld != ld || !follows(start, ld * cols, their_start))
        break;
      cols += tiles.cols().size(next);
      ++next;
    }
    const BlockPartner<const T> panel = panel_tile(*begin);
    block(TileBlock<T>{start, ld, panel.at, panel.ld, rows, cols, true}, other);
    // The column's other runs (then it was not extended).
    while (end != mine.end()) {
      const Rows at = end;
      end = run(j, at, mine.end(), &rows, &start, &ld);
      const BlockPartner<const T> run_panel = panel_tile(*at);
      block(TileBlock<T>{start, ld, run_panel.at, run_panel.ld, rows, tiles.cols().size(j), false}, other);
    }
    j = next;
  }
}

}  // namespace hetscal::kernels::detail
