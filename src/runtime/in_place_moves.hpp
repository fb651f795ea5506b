#pragma once
/// @file in_place_moves.hpp
/// What the in-place routes share (issue 28, items 1 and 4): the minimal-move layout of a
/// caller's operand, what it moves and how the time model sees it (for pricing the route,
/// in_place_pricing.hpp), and the messages that carry one surplus tile between a caller's
/// array and an overflow buffer (in_place_gemm.hpp, in_place_potrf.hpp).
#include <mpi.h>

#include <memory>
#include <vector>

#include "core/rebalancing/kept_lines.hpp"
#include "core/time_models/time_model.hpp"
#include "layout/cartesian_distribution.hpp"
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

}  // namespace hetscal::runtime
