#pragma once
/// @file in_place_moves.hpp
/// What the in-place routes share (issue 28, items 1 and 4): the minimal-move layout of a
/// caller's operand, what it moves and how the time model sees it (for pricing the route,
/// in_place_pricing.hpp), and the messages that carry one surplus tile between a caller's
/// array and an overflow buffer (in_place_gemm.hpp, in_place_potrf.hpp).
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "core/rebalancing/kept_lines.hpp"
#include "core/time_models/time_model.hpp"
#include "layout/cartesian_distribution.hpp"
#include "layout/local_storage.hpp"
#include "mpi/message_tags.hpp"
#include "mpi/mpi_error.hpp"
#include "mpi/mpi_type.hpp"

namespace hetscal::runtime {

/// The caller's tiles and grid, its tile rows and columns changing grid row or column only
/// where the speeds' planned counts require it (core/rebalancing/kept_lines.hpp): the weight
/// of a grid row (column) is the sum of its ranks' speeds. Every tile the result leaves with
/// its caller owner can stay in the caller's array.
/// @param speeds one per rank of the caller grid's communicator.
/// @param kept which lines a grid line keeps (Leading for a product, Spread for a factorization).
std::unique_ptr<layout::CartesianDistribution> minimal_move_layout(const layout::CartesianDistribution& caller,
                                                                   const std::vector<double>& speeds,
                                                                   core::KeptLines kept);

/// A matrix's elements per rank of the context, where the caller holds them, where the
/// in-place layout plans them, and the elements both place on the rank (what stays where it
/// is): what core::redistribution_time prices the surplus's moves from.
struct SurplusElements {
  std::vector<double> held, planned, kept;
};

/// The elements of `caller` and of `in_place` (the caller's tiles and grid, lines reassigned:
/// minimal_move_layout) per rank. Global, O(tile lines + ranks): both are Cartesian on one grid.
/// @param ranks the ranks of the grid's communicator.
SurplusElements surplus_elements(const layout::CartesianDistribution& caller,
                                 const layout::CartesianDistribution& in_place, int ranks);

/// The in-place layout as the time model's candidate (a Cartesian grid whose tile lines go
/// to the grid lines `in_place` gives them, the tile its largest), so that the model prices
/// the steps of a computation on it as on any planned layout. Global.
core::Candidate in_place_candidate(const layout::CartesianDistribution& in_place);

/// Posts one surplus tile's message between a caller's array and an overflow (both strided:
/// nothing is copied) into `requests`: sent from `data` when `send`, else received into it.
template <typename T>
void post_tile(bool send, T* data, std::int64_t rows, std::int64_t cols, std::int64_t ld, int peer, MPI_Comm comm,
               std::vector<MPI_Request>& requests) {
  MPI_Datatype type;
  mpi::check_mpi(MPI_Type_vector(static_cast<int>(cols), static_cast<int>(rows), static_cast<int>(ld),
                                 mpi::mpi_type<T>(), &type),
                 "MPI_Type_vector");
  mpi::check_mpi(MPI_Type_commit(&type), "MPI_Type_commit");
  requests.emplace_back(MPI_REQUEST_NULL);
  const int code = send ? MPI_Isend(data, 1, type, peer, mpi::tag::kSurplusTile, comm, &requests.back())
                        : MPI_Irecv(data, 1, type, peer, mpi::tag::kSurplusTile, comm, &requests.back());
  (void)MPI_Type_free(&type);  // freed once the message completes
  mpi::check_mpi(code, send ? "MPI_Isend" : "MPI_Irecv");
}

/// The surplus tiles a rank exchanges with each other rank, as few messages: each one a struct
/// of the tiles' strided vectors, in list order, of at most kMessageBytes (or one tile, when one
/// alone is larger). A message per tile cost more than the tiles themselves in peak memory:
/// Open MPI (4.1, shared memory) takes a fragment of about 4 KiB from a free list that never
/// shrinks for each message posted beyond its eager limit, and the moves post every message
/// at once, so that 2 ranks, N = 6,000, NB = 128, speeds 3:1 (517 tiles each way) grew both
/// ranks by about 2.5 MiB per direction (issue 28). Both ends list their common tiles in the
/// same order, so their messages hold the same tiles.
class SurplusMessages {
 public:
  /// Bytes of a message, at most (besides a single tile larger than that).
  static constexpr std::int64_t kMessageBytes = std::int64_t{64} << 20;

  /// Room for listing `tiles` tiles: posting then allocates nothing of hetscal's (only MPI's
  /// datatypes), so a move back, after the first write into a caller's array, has no failure
  /// point of its own. Allocates.
  void reserve(std::size_t tiles) {
    by_peer_.reserve(tiles);
    displacements_.reserve(tiles);
    types_.reserve(tiles);
    lengths_.reserve(tiles);
  }

  /// Posts the messages of `tiles` (in the order both ends list them) into `requests`: sent
  /// from `data` when `send`, else received into it; at most one request per tile.
  /// @param where `layout::TileLocation(GlobalTile)`: the tile in `data`.
  /// @param peer `int(GlobalTile)`: the rank at the other end of the tile's move.
  /// @param size `std::pair<std::int64_t, std::int64_t>(GlobalTile)`: the tile's rows and columns.
  template <typename T, typename Where, typename Peer, typename Size>
  void post(bool send, T* data, const std::vector<layout::GlobalTile>& tiles, Where&& where, Peer&& peer,
            Size&& size, MPI_Comm comm, std::vector<MPI_Request>& requests) {
    // Grouped by peer, each group in list order: no pass over the list per rank.
    by_peer_.clear();
    for (std::size_t t = 0; t < tiles.size(); ++t) by_peer_.emplace_back(peer(tiles[t]), t);
    std::sort(by_peer_.begin(), by_peer_.end());
    std::size_t first = 0;
    std::int64_t bytes = 0;
    for (std::size_t e = 0; e < by_peer_.size(); ++e) {
      const auto [rows, cols] = size(tiles[by_peer_[e].second]);
      bytes += rows * cols * static_cast<std::int64_t>(sizeof(T));
      const bool last_of_peer = e + 1 == by_peer_.size() || by_peer_[e + 1].first != by_peer_[e].first;
      if (!last_of_peer) {
        const auto [next_rows, next_cols] = size(tiles[by_peer_[e + 1].second]);
        if (bytes + next_rows * next_cols * static_cast<std::int64_t>(sizeof(T)) <= kMessageBytes) continue;
      }
      post_message<T>(send, data, tiles, first, e + 1, where, size, comm, requests);
      first = e + 1;
      bytes = 0;
    }
  }

 private:
  /// Posts the message of by_peer_'s entries [first, last), all of one peer.
  template <typename T, typename Where, typename Size>
  void post_message(bool send, T* data, const std::vector<layout::GlobalTile>& tiles, std::size_t first,
                    std::size_t last, Where& where, Size& size, MPI_Comm comm, std::vector<MPI_Request>& requests) {
    displacements_.clear();
    types_.clear();
    lengths_.clear();
    MPI_Datatype message = MPI_DATATYPE_NULL;
    int code = MPI_SUCCESS;
    for (std::size_t e = first; e < last && code == MPI_SUCCESS; ++e) {
      const layout::GlobalTile t = tiles[by_peer_[e].second];
      const layout::TileLocation at = where(t);
      const auto [rows, cols] = size(t);
      types_.push_back(MPI_DATATYPE_NULL);
      code = MPI_Type_vector(static_cast<int>(cols), static_cast<int>(rows), static_cast<int>(at.ld), mpi::mpi_type<T>(),
                             &types_.back());
      displacements_.push_back(static_cast<MPI_Aint>(at.offset * static_cast<std::int64_t>(sizeof(T))));
      lengths_.push_back(1);
    }
    if (code == MPI_SUCCESS)
      code = MPI_Type_create_struct(static_cast<int>(types_.size()), lengths_.data(), displacements_.data(),
                                    types_.data(), &message);
    for (MPI_Datatype& type : types_)
      if (type != MPI_DATATYPE_NULL) (void)MPI_Type_free(&type);
    mpi::check_mpi(code, "MPI_Type_create_struct");
    mpi::check_mpi(MPI_Type_commit(&message), "MPI_Type_commit");
    requests.emplace_back(MPI_REQUEST_NULL);
    const int peer = by_peer_[first].first;
    code = send ? MPI_Isend(data, 1, message, peer, mpi::tag::kSurplusTile, comm, &requests.back())
                : MPI_Irecv(data, 1, message, peer, mpi::tag::kSurplusTile, comm, &requests.back());
    (void)MPI_Type_free(&message);  // freed once the message completes
    mpi::check_mpi(code, send ? "MPI_Isend" : "MPI_Irecv");
  }

  std::vector<std::pair<int, std::size_t>> by_peer_;  ///< (peer, index in the list)
  std::vector<MPI_Aint> displacements_;
  std::vector<MPI_Datatype> types_;
  std::vector<int> lengths_;
};

}  // namespace hetscal::runtime
