#pragma once
/// @file factorization_checks.hpp
/// Internal to kernels::lu and kernels::qr: the argument checks of a factorisation whose
/// panels are gathered on one rank (factorization_panel.hpp), made on each rank before any
/// message (agreed_call.hpp makes every rank learn of a refusal).
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/common/error.hpp"
#include "kernels/distributed_matrix.hpp"
#include "kernels/summa_support.hpp"
#include "kernels/view_checks.hpp"
#include "mpi/mpi_error.hpp"
#include "mpi/mpi_type.hpp"

namespace hetscal::kernels::detail {

/// Throws unless the tiles are square where the steps meet: tile k has as many rows as
/// columns for every step k, except that the shorter may be the last tile of its dimension
/// (M or N ends there, so no row block or trailing update needs the missing part).
/// @param kernel names the kernel in the message ("lu").
inline void check_square_tiles(const layout::TileSplit& rows, const layout::TileSplit& cols,
                               const std::string& kernel) {
  const std::int64_t steps = std::min(rows.count(), cols.count());
  for (std::int64_t k = 0; k < steps; ++k) {
    const std::int64_t m = rows.size(k), n = cols.size(k);
    if (m == n || (m < n && k + 1 == rows.count()) || (n < m && k + 1 == cols.count())) continue;
    throw InvalidArgument(kernel + ": A's tiles are not square: tile row " + std::to_string(k) +
                          " has " + std::to_string(m) + " rows, tile column " + std::to_string(k) +
                          " " + std::to_string(n) +
                          " columns (row and column splits must have the same first tile and "
                          "block)");
  }
}

/// Checks A's view and tiles, the speeds and the panel's message size on this rank; returns
/// its rank in `comm`.
/// @param rank_speeds empty, or one per rank of `comm`.
/// @param kernel names the kernel in the messages ("lu").
/// @throws InvalidArgument naming the problem.
template <typename T>
int check_factorization_arguments(const DistributedMatrix<T>& a, MPI_Comm comm,
                                  const std::vector<double>& rank_speeds,
                                  const std::string& kernel) {
  int size = 0, rank = 0;
  mpi::check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  mpi::check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check_view(a, kernel + ": A", size, rank);
  check_square_tiles(a.distribution->rows(), a.distribution->cols(), kernel);
  if (!rank_speeds.empty() && rank_speeds.size() != static_cast<std::size_t>(size))
    throw InvalidArgument(kernel + ": options.rank_speeds has " +
                          std::to_string(rank_speeds.size()) + " speeds for " +
                          std::to_string(size) + " ranks");
  // A step's panel holds at most one tile column of A.
  const layout::Distribution& d = *a.distribution;
  mpi::mpi_count(d.rows().extent() * largest_tile(d.cols()), (kernel + ": panel").c_str());
  return rank;
}

}  // namespace hetscal::kernels::detail
