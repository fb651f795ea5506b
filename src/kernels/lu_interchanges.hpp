#pragma once
/// @file lu_interchanges.hpp
/// Internal to kernels::lu: a step's row interchanges applied to tile columns other than the
/// panel's, as PxLASWP applies them. The step's nb swaps, applied in order, are first
/// composed into one permutation of the rows they touch (row r receives the row that ends up
/// there), so that every row piece moves once, straight from its owner to the owner of its
/// destination: one message per pair of ranks and call, every piece a rank sends another
/// packed in an order both compute alike (move by move, tile column by tile column).
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/distributed_matrix.hpp"
#include "kernels/lu_panel.hpp"
#include "kernels/lu_tiles.hpp"
#include "mpi/mpi_error.hpp"
#include "mpi/mpi_type.hpp"

namespace hetscal::kernels::detail {

inline constexpr int kLuRightSwapTag = 13;
inline constexpr int kLuLeftSwapTag = 14;

template <typename T>
class RowInterchanges {
 public:
  /// Sizes the buffers for the largest call (without communicating).
  void allocate(const LuTiles& tiles);

  /// Applies step k's interchanges (`pivots`: its pivot_count(k) global pivot rows) to tile
  /// columns [first, last), which must not hold k. Collective over the ranks owning the
  /// rows moved; every rank calls it alike.
  void apply(const LuTiles& tiles, const DistributedMatrix<T>& a, std::int64_t k,
             const std::int64_t* pivots, std::int64_t first, std::int64_t last, int tag,
             MPI_Comm comm);

 private:
  /// A row that receives another's content.
  struct Move {
    std::int64_t to = 0, from = 0;
  };
  void compose(const LuTiles& tiles, std::int64_t k, const std::int64_t* pivots);
  /// Calls piece(move, j, from_owner, to_owner) for every piece this rank sends or receives,
  /// in the order both sides pack them.
  template <typename Piece>
  void for_each_piece(const LuTiles& tiles, std::int64_t first, std::int64_t last,
                      Piece&& piece) const;
  /// Where row `row`'s piece of tile column j is in A, with the stride between its elements.
  T* row_piece(const LuTiles& tiles, const DistributedMatrix<T>& a, std::int64_t row,
               std::int64_t j, std::int64_t* stride) const;
  void exchange(const LuTiles& tiles, int tag, MPI_Comm comm);

  std::vector<std::int64_t> rows_, source_;
  std::vector<Move> moves_;
  std::vector<T> send_, receive_;
  /// Per rank: elements sent to / received from it, where they start, a packing cursor.
  std::vector<std::int64_t> send_count_, receive_count_, send_offset_, receive_offset_, cursor_;
  std::vector<MPI_Request> requests_;
};

template <typename T>
void RowInterchanges<T>::allocate(const LuTiles& tiles) {
  std::int64_t widest = 0, my_width = 0;
  for (std::int64_t k = 0; k < tiles.steps(); ++k) widest = std::max(widest, tiles.width(k));
  for (std::int64_t j = 0; j < tiles.cols().count(); ++j)
    if (!tiles.my_rows_in_column(j).empty()) my_width += tiles.cols().size(j);
  // A step moves at most 2·nb rows; this rank holds at most my_width elements of each.
  const std::size_t elements = static_cast<std::size_t>(2 * widest * my_width);
  mpi::mpi_count(2 * widest * tiles.cols().extent(), "lu: interchange message");
  send_.resize(elements);
  receive_.resize(elements);
  rows_.reserve(static_cast<std::size_t>(2 * widest));
  source_.reserve(rows_.capacity());
  moves_.reserve(rows_.capacity());
  const std::size_t ranks = static_cast<std::size_t>(tiles.num_ranks());
  for (auto* v : {&send_count_, &receive_count_, &send_offset_, &receive_offset_, &cursor_})
    v->resize(ranks);
  requests_.reserve(2 * ranks);
}

template <typename T>
void RowInterchanges<T>::compose(const LuTiles& tiles, std::int64_t k, const std::int64_t* pivots) {
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
  for (std::int64_t p = 0; p < count; ++p) std::swap(source_[index(origin + p)], source_[index(pivots[p])]);
  moves_.clear();
  for (std::size_t r = 0; r < rows_.size(); ++r)
    if (source_[r] != rows_[r]) moves_.push_back({rows_[r], source_[r]});
}

template <typename T>
template <typename Piece>
void RowInterchanges<T>::for_each_piece(const LuTiles& tiles, std::int64_t first,
                                        std::int64_t last, Piece&& piece) const {
  const int me = tiles.my_rank();
  for (const Move& move : moves_) {
    const std::int64_t to_row = tiles.rows().tile_of(move.to),
                       from_row = tiles.rows().tile_of(move.from);
    for (std::int64_t j = first; j < last; ++j) {
      const int from_owner = tiles.owner(from_row, j), to_owner = tiles.owner(to_row, j);
      if (from_owner == me || to_owner == me) piece(move, j, from_owner, to_owner);
    }
  }
}

template <typename T>
T* RowInterchanges<T>::row_piece(const LuTiles& tiles, const DistributedMatrix<T>& a,
                                 std::int64_t row, std::int64_t j, std::int64_t* stride) const {
  const std::int64_t tile_row = tiles.rows().tile_of(row);
  const layout::TileLocation where = a.storage->tile_location({tile_row, j});
  *stride = where.ld;
  return a.data + where.offset + (row - tiles.rows().offset(tile_row));
}

template <typename T>
void RowInterchanges<T>::apply(const LuTiles& tiles, const DistributedMatrix<T>& a,
                               std::int64_t k, const std::int64_t* pivots, std::int64_t first,
                               std::int64_t last, int tag, MPI_Comm comm) {
  if (first >= last) return;
  compose(tiles, k, pivots);
  const int me = tiles.my_rank();
  const auto at = [](int rank) { return static_cast<std::size_t>(rank); };
  // Sizes, then offsets: the pieces for (from) each rank form one contiguous group.
  std::fill(send_count_.begin(), send_count_.end(), 0);
  std::fill(receive_count_.begin(), receive_count_.end(), 0);
  for_each_piece(tiles, first, last, [&](const Move&, std::int64_t j, int from, int to) {
    if (from == me) send_count_[at(to)] += tiles.cols().size(j);
    if (to == me) receive_count_[at(from)] += tiles.cols().size(j);
  });
  std::int64_t sent = 0, received = 0;
  for (std::size_t r = 0; r < send_count_.size(); ++r) {
    send_offset_[r] = sent;
    sent += send_count_[r];
    receive_offset_[r] = received;
    received += receive_count_[r];
  }
  // Every piece this rank holds is packed (those it keeps too) before any is overwritten.
  std::copy(send_offset_.begin(), send_offset_.end(), cursor_.begin());
  for_each_piece(tiles, first, last, [&](const Move& move, std::int64_t j, int from, int to) {
    if (from != me) return;
    std::int64_t stride = 0;
    const T* row = row_piece(tiles, a, move.from, j, &stride);
    T* packed = send_.data() + cursor_[at(to)];
    for (std::int64_t c = 0; c < tiles.cols().size(j); ++c) packed[c] = row[c * stride];
    cursor_[at(to)] += tiles.cols().size(j);
  });
  exchange(tiles, tag, comm);
  std::copy(receive_offset_.begin(), receive_offset_.end(), cursor_.begin());
  cursor_[at(me)] = send_offset_[at(me)];  // the pieces a rank keeps are read from send_
  for_each_piece(tiles, first, last, [&](const Move& move, std::int64_t j, int from, int to) {
    if (to != me) return;
    std::int64_t stride = 0;
    T* row = row_piece(tiles, a, move.to, j, &stride);
    const T* packed = (from == me ? send_.data() : receive_.data()) + cursor_[at(from)];
    for (std::int64_t c = 0; c < tiles.cols().size(j); ++c) row[c * stride] = packed[c];
    cursor_[at(from)] += tiles.cols().size(j);
  });
}

template <typename T>
void RowInterchanges<T>::exchange(const LuTiles& tiles, int tag, MPI_Comm comm) {
  for (int rank = 0; rank < tiles.num_ranks(); ++rank) {
    const std::size_t r = static_cast<std::size_t>(rank);
    if (rank == tiles.my_rank()) continue;
    if (receive_count_[r] > 0) {
      requests_.emplace_back(MPI_REQUEST_NULL);
      MPI_Irecv(receive_.data() + receive_offset_[r], static_cast<int>(receive_count_[r]),
                mpi::mpi_type<T>(), rank, tag, comm, &requests_.back());
    }
    if (send_count_[r] > 0) {
      requests_.emplace_back(MPI_REQUEST_NULL);
      MPI_Isend(send_.data() + send_offset_[r], static_cast<int>(send_count_[r]),
                mpi::mpi_type<T>(), rank, tag, comm, &requests_.back());
    }
  }
  wait_all(requests_);
}

}  // namespace hetscal::kernels::detail
