#pragma once
/// @file lu_interchanges.hpp
/// Internal to kernels::lu: a step's row interchanges applied to tile columns other than the
/// panel's, as PxLASWP applies them. The step's nb swaps, applied in order, are first
/// composed into one permutation of the rows they touch (row r receives the row that ends up
/// there), so that every row piece moves once, straight from its owner to the owner of its
/// destination: one message per pair of ranks and call. A message holds, tile column by tile
/// column, the pieces of that column one rank sends the other as one column-major block (a
/// row per piece, in move order), an order both compute alike; packing and unpacking then
/// read and write A column by column, as xLASWP does.
/// On a Cartesian grid's local array whose grid row holds every row the step touches (a 1×Q
/// grid always), the rank has no piece to exchange: it swaps in place, column by column, as
/// xLASWP does; so does a rank whose tiles (an in-place storage, a pattern) hold, in each of its
/// tile columns, every row the step touches.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "kernels/distributed_matrix.hpp"
#include "kernels/factorization_tiles.hpp"
#include "kernels/flop_counter.hpp"
#include "kernels/lu_panel.hpp"
#include "kernels/scalar_buffer.hpp"
#include "mpi/mpi_error.hpp"
#include "mpi/mpi_type.hpp"

namespace hetscal::kernels::detail {

template <typename T>
class RowInterchanges {
 public:
  /// The elements of T each of the two message buffers (sent, received) holds on this rank:
  /// none where every swap is local. Local.
  static std::int64_t buffer_size(const FactorizationTiles& tiles, const DistributedMatrix<T>& a);

  /// Sizes the buffers for the largest call (without communicating).
  void allocate(const FactorizationTiles& tiles, const DistributedMatrix<T>& a);

  /// Applies step k's interchanges (`pivots`: its pivot_count(k) global pivot rows) to tile
  /// columns [first, last) (clipped to A's), which must not hold k. Collective over the ranks
  /// owning the rows moved; every rank calls it alike.
  void apply(const FactorizationTiles& tiles, const DistributedMatrix<T>& a, std::int64_t k,
             const std::int64_t* pivots, std::int64_t first, std::int64_t last, int tag,
             MPI_Comm comm);

 private:
  /// A row that receives another's content.
  struct Move {
    std::int64_t to = 0, from = 0;            ///< global rows
    std::int64_t to_tile = 0, from_tile = 0;  ///< their tile rows
  };
  /// One row piece of a tile column on its way between A and a message buffer.
  struct Piece {
    T* element;           ///< its first element in A
    std::int64_t stride;  ///< between its elements in A
    T* packed;            ///< its first element in the buffer
    std::int64_t step;    ///< between its elements in the buffer
  };
  void compose(const FactorizationTiles& tiles, std::int64_t k, const std::int64_t* pivots);
  /// Counts the elements this rank sends to and receives from every rank.
  void count(const FactorizationTiles& tiles, std::int64_t first, std::int64_t last);
  /// Copies every piece this rank sends (Copy::FromA) or receives (Copy::IntoA) between A and the
  /// buffers, from cursor_, the position of each partner's next block.
  void copy_pieces(const FactorizationTiles& tiles, const DistributedMatrix<T>& a,
                   std::int64_t first, std::int64_t last, Copy copy);
  /// Where row `row`'s piece of tile column j is in A, with the stride between its elements.
  T* row_piece(const FactorizationTiles& tiles, const DistributedMatrix<T>& a, std::int64_t row,
               std::int64_t j, std::int64_t* stride) const;
  void exchange(const FactorizationTiles& tiles, int tag, MPI_Comm comm);
  /// Swaps in place when this rank's local array holds every row the step touches; returns
  /// false, having changed nothing, otherwise.
  bool swap_locally(const FactorizationTiles& tiles, const DistributedMatrix<T>& a, std::int64_t k,
                    const std::int64_t* pivots, std::int64_t first, std::int64_t last);
  /// The same for A stored as tiles (an in-place storage, a pattern): swaps in place, tile
  /// column by tile column, when in each of this rank's tile columns in [first, last) it owns
  /// every row the step touches (a 1×Q grid always), so that no piece is packed; returns false,
  /// having changed nothing, otherwise. A rank that exchanges with another finds one of the
  /// other's rows in a column of its own, and so does the other: both exchange.
  bool swap_tiles_locally(const FactorizationTiles& tiles, const DistributedMatrix<T>& a, std::int64_t k,
                          const std::int64_t* pivots, std::int64_t first, std::int64_t last) const;

  std::optional<LocalArrayIndex> array_;  ///< empty: A is stored as tiles
  std::vector<layout::LocalRow> local_rows_, local_pivots_;

  std::vector<std::int64_t> rows_, source_;
  std::vector<Move> moves_;
  WrittenFirstBuffer<T> send_, receive_;
  /// Per rank: elements sent to / received from it, where they start, a packing cursor.
  std::vector<std::int64_t> send_count_, receive_count_, send_offset_, receive_offset_, cursor_;
  std::vector<std::int64_t> block_count_, slot_;  ///< per rank, within one tile column
  std::vector<int> partners_;                     ///< per move, within one tile column
  std::vector<Piece> pieces_;
  std::vector<MPI_Request> requests_;
};

template <typename T>
std::int64_t RowInterchanges<T>::buffer_size(const FactorizationTiles& tiles, const DistributedMatrix<T>& a) {
  // A local array holding every row of A (a 1×Q grid) always swaps in place (swap_locally);
  // so do tiles when each of this rank's tile columns holds every tile row (swap_tiles_locally).
  const auto* array = dynamic_cast<const layout::CartesianLocalLayout*>(a.storage);
  if (array != nullptr && array->local_rows() == tiles.rows().extent()) return 0;
  std::int64_t widest = 0, my_width = 0;
  bool whole_columns = array == nullptr;
  for (std::int64_t k = 0; k < tiles.steps(); ++k) widest = std::max(widest, tiles.width(k));
  for (std::int64_t j = 0; j < tiles.cols().count(); ++j) {
    const std::size_t mine = tiles.my_rows_in_column(j).size();
    if (mine == 0) continue;
    my_width += tiles.cols().size(j);
    whole_columns = whole_columns && mine == static_cast<std::size_t>(tiles.rows().count());
  }
  // A step moves at most 2·nb rows; this rank holds at most my_width elements of each.
  return whole_columns ? 0 : 2 * widest * my_width;
}

template <typename T>
void RowInterchanges<T>::allocate(const FactorizationTiles& tiles, const DistributedMatrix<T>& a) {
  if (const auto* array = dynamic_cast<const layout::CartesianLocalLayout*>(a.storage))
    array_.emplace(*array, tiles);
  std::int64_t widest = 0;
  for (std::int64_t k = 0; k < tiles.steps(); ++k) widest = std::max(widest, tiles.width(k));
  const std::size_t elements = static_cast<std::size_t>(buffer_size(tiles, a));
  send_.resize(elements);
  receive_.resize(elements);
  rows_.reserve(static_cast<std::size_t>(2 * widest));
  source_.reserve(rows_.capacity());
  moves_.reserve(rows_.capacity());
  local_rows_.reserve(static_cast<std::size_t>(widest));
  local_pivots_.reserve(static_cast<std::size_t>(widest));
  const std::size_t ranks = static_cast<std::size_t>(tiles.num_ranks());
  for (auto* v : {&send_count_, &receive_count_, &send_offset_, &receive_offset_, &cursor_,
                  &block_count_, &slot_})
    v->resize(ranks);
  partners_.reserve(rows_.capacity());
  pieces_.reserve(rows_.capacity());
  requests_.reserve(2 * ranks);
}

template <typename T>
void RowInterchanges<T>::compose(const FactorizationTiles& tiles, std::int64_t k,
                                 const std::int64_t* pivots) {
  const std::int64_t origin = tiles.rows().offset(k), count = tiles.pivot_count(k);
  rows_.clear();
  for (std::int64_t p = 0; p < count; ++p) {
    rows_.push_back(origin + p);
    rows_.push_back(pivots[p]);
  }
  std::sort(rows_.begin(), rows_.end());
  rows_.erase(std::unique(rows_.begin(), rows_.end()), rows_.end());
  source_.assign(rows_.begin(), rows_.end());
  const auto index = [&](std::int64_t row) {
    return static_cast<std::size_t>(std::lower_bound(rows_.begin(), rows_.end(), row) -
                                    rows_.begin());
  };
  for (std::int64_t p = 0; p < count; ++p)
    std::swap(source_[index(origin + p)], source_[index(pivots[p])]);
  moves_.clear();
  for (std::size_t r = 0; r < rows_.size(); ++r)
    if (source_[r] != rows_[r])
      moves_.push_back(
          {rows_[r], source_[r], tiles.rows().tile_of(rows_[r]), tiles.rows().tile_of(source_[r])});
}

template <typename T>
void RowInterchanges<T>::count(const FactorizationTiles& tiles, std::int64_t first,
                               std::int64_t last) {
  std::fill(send_count_.begin(), send_count_.end(), 0);
  std::fill(receive_count_.begin(), receive_count_.end(), 0);
  // A move concerns this rank in the columns where it owns its source or its destination
  // tile: those of the two tile rows, not every column (O(P · columns) per step at scale).
  const auto columns_of = [&](std::int64_t tile_row) {
    const std::vector<std::int64_t>& mine = tiles.my_cols_in_row(tile_row);
    return std::make_pair(std::lower_bound(mine.begin(), mine.end(), first), mine.end());
  };
  for (const Move& move : moves_) {
    for (auto [j, end] = columns_of(move.from_tile); j != end && *j < last; ++j)
      send_count_[static_cast<std::size_t>(tiles.owner(move.to_tile, *j))] += tiles.cols().size(*j);
    for (auto [j, end] = columns_of(move.to_tile); j != end && *j < last; ++j)
      receive_count_[static_cast<std::size_t>(tiles.owner(move.from_tile, *j))] +=
          tiles.cols().size(*j);
  }
}

template <typename T>
void RowInterchanges<T>::copy_pieces(const FactorizationTiles& tiles, const DistributedMatrix<T>& a,
                                     std::int64_t first, std::int64_t last, Copy copy) {
  const bool pack = copy == Copy::FromA;
  const int me = tiles.my_rank();
  const auto at = [](int rank) { return static_cast<std::size_t>(rank); };
  for (std::int64_t j = first; j < last; ++j) {
    if (tiles.my_rows_in_column(j).empty()) continue;  // no piece of column j here: no block
    const std::int64_t width = tiles.cols().size(j);
    // Who this rank exchanges each move's piece with, and the block of each partner.
    std::fill(block_count_.begin(), block_count_.end(), 0);
    partners_.clear();
    for (const Move& move : moves_) {
      const int from = tiles.owner(move.from_tile, j), to = tiles.owner(move.to_tile, j);
      const int partner = pack ? (from == me ? to : -1) : (to == me ? from : -1);
      partners_.push_back(partner);
      if (partner >= 0) ++block_count_[at(partner)];
    }
    std::fill(slot_.begin(), slot_.end(), 0);
    pieces_.clear();
    for (std::size_t m = 0; m < moves_.size(); ++m) {
      const int partner = partners_[m];
      if (partner < 0) continue;
      std::int64_t stride = 0;
      T* element = row_piece(tiles, a, pack ? moves_[m].from : moves_[m].to, j, &stride);
      // A rank's own pieces wait in send_, the others' arrive in receive_.
      T* buffer = pack || partner == me ? send_.data() : receive_.data();
      pieces_.push_back({element, stride, buffer + cursor_[at(partner)] + slot_[at(partner)]++,
                         block_count_[at(partner)]});
    }
    for (std::size_t r = 0; r < block_count_.size(); ++r) cursor_[r] += block_count_[r] * width;
    for (std::int64_t c = 0; c < width; ++c) {
      for (const Piece& piece : pieces_) {
        T& element = piece.element[c * piece.stride];
        T& packed = piece.packed[c * piece.step];
        if (pack) {
          packed = element;
        } else {
          element = packed;
        }
      }
    }
  }
}

template <typename T>
T* RowInterchanges<T>::row_piece(const FactorizationTiles& tiles, const DistributedMatrix<T>& a,
                                 std::int64_t row, std::int64_t j, std::int64_t* stride) const {
  const std::int64_t tile_row = tiles.rows().tile_of(row);
  const layout::TileLocation where = a.storage->tile_location({tile_row, j});
  *stride = where.ld;
  return a.at(where) + (row - tiles.rows().offset(tile_row));
}

template <typename T>
void RowInterchanges<T>::apply(const FactorizationTiles& tiles, const DistributedMatrix<T>& a,
                               std::int64_t k, const std::int64_t* pivots, std::int64_t first,
                               std::int64_t last, int tag, MPI_Comm comm) {
  last = std::min(last, tiles.cols().count());
  if (first >= last) return;
  if (array_ ? swap_locally(tiles, a, k, pivots, first, last)
             : swap_tiles_locally(tiles, a, k, pivots, first, last))
    return;
  compose(tiles, k, pivots);
  count(tiles, first, last);
  std::int64_t sent = 0, received = 0;
  for (std::size_t r = 0; r < send_count_.size(); ++r) {
    send_offset_[r] = sent;
    sent += send_count_[r];
    receive_offset_[r] = received;
    received += receive_count_[r];
  }
  // Every piece this rank holds is packed (those it keeps too) before any is overwritten.
  // Nothing is packed or unpacked when no element is read (elements_are_copied): the
  // messages still travel at their full size.
  const bool copied = elements_are_copied();
  std::copy(send_offset_.begin(), send_offset_.end(), cursor_.begin());
  if (copied) copy_pieces(tiles, a, first, last, Copy::FromA);
  exchange(tiles, tag, comm);
  std::copy(receive_offset_.begin(), receive_offset_.end(), cursor_.begin());
  const std::size_t me = static_cast<std::size_t>(tiles.my_rank());
  cursor_[me] = send_offset_[me];  // the pieces a rank keeps are read from send_
  if (copied) copy_pieces(tiles, a, first, last, Copy::IntoA);
}

template <typename T>
bool RowInterchanges<T>::swap_locally(const FactorizationTiles& tiles,
                                      const DistributedMatrix<T>& a, std::int64_t k,
                                      const std::int64_t* pivots, std::int64_t first,
                                      std::int64_t last) {
  local_rows_.clear();
  local_pivots_.clear();
  const std::int64_t origin = tiles.rows().offset(k);
  for (std::int64_t p = 0; p < tiles.pivot_count(k); ++p) {
    const std::optional<layout::LocalRow> row = array_->local_row(origin + p),
                                          pivot = array_->local_row(pivots[p]);
    if (!row || !pivot) return false;
    local_rows_.push_back(*row);
    local_pivots_.push_back(*pivot);
  }
  if (!elements_are_copied()) return true;
  const layout::CartesianLocalLayout& array = array_->array();
  const layout::LocalCol to = array_->local_col_from(last);
  for (layout::LocalCol c = array_->local_col_from(first); c < to; c = c + 1) {
    for (std::size_t p = 0; p < local_rows_.size(); ++p)
      std::swap(a.data[array.offset(local_rows_[p], c)], a.data[array.offset(local_pivots_[p], c)]);
  }
  return true;
}

template <typename T>
bool RowInterchanges<T>::swap_tiles_locally(const FactorizationTiles& tiles, const DistributedMatrix<T>& a,
                                            std::int64_t k, const std::int64_t* pivots, std::int64_t first,
                                            std::int64_t last) const {
  const std::int64_t origin = tiles.rows().offset(k), count = tiles.pivot_count(k);
  const int me = tiles.my_rank();
  const auto mine = [&](std::int64_t row, std::int64_t j) { return tiles.owner(tiles.rows().tile_of(row), j) == me; };
  for (std::int64_t j = first; j < last; ++j) {
    if (tiles.my_rows_in_column(j).empty()) continue;
    for (std::int64_t p = 0; p < count; ++p)
      if (!mine(origin + p, j) || !mine(pivots[p], j)) return false;
  }
  if (!elements_are_copied()) return true;
  for (std::int64_t j = first; j < last; ++j) {
    if (tiles.my_rows_in_column(j).empty()) continue;
    for (std::int64_t p = 0; p < count; ++p) {
      if (pivots[p] == origin + p) continue;
      std::int64_t row_stride = 0, pivot_stride = 0;
      T* row = row_piece(tiles, a, origin + p, j, &row_stride);
      T* pivot = row_piece(tiles, a, pivots[p], j, &pivot_stride);
      for (std::int64_t c = 0; c < tiles.cols().size(j); ++c) std::swap(row[c * row_stride], pivot[c * pivot_stride]);
    }
  }
  return true;
}

template <typename T>
void RowInterchanges<T>::exchange(const FactorizationTiles& tiles, int tag, MPI_Comm comm) {
  for (int rank = 0; rank < tiles.num_ranks(); ++rank) {
    const std::size_t r = static_cast<std::size_t>(rank);
    if (rank == tiles.my_rank()) continue;
    if (receive_count_[r] > 0) {
      requests_.emplace_back(MPI_REQUEST_NULL);
      mpi::check_mpi(MPI_Irecv(receive_.data() + receive_offset_[r], static_cast<int>(receive_count_[r]),
                               mpi::mpi_type<T>(), rank, tag, comm, &requests_.back()), "MPI_Irecv");
    }
    if (send_count_[r] > 0) {
      requests_.emplace_back(MPI_REQUEST_NULL);
      mpi::check_mpi(MPI_Isend(send_.data() + send_offset_[r], static_cast<int>(send_count_[r]),
                               mpi::mpi_type<T>(), rank, tag, comm, &requests_.back()), "MPI_Isend");
    }
  }
  wait_all(requests_);
}

}  // namespace hetscal::kernels::detail
