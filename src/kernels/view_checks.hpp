#pragma once
/// @file view_checks.hpp
/// The checks every distributed kernel makes on a DistributedMatrix argument before any
/// message, so that a malformed view is refused on every rank alike.
#include <string>

#include "core/common/error.hpp"
#include "kernels/distributed_matrix.hpp"

namespace hetscal::kernels {

/// Checks that `x` has a distribution and a storage, is distributed over `comm_size` ranks,
/// that its storage is this rank's and has the distribution's tiles.
/// @param who the kernel and the argument, for the message ("gemm: A").
/// @throws InvalidArgument naming `who` and the problem.
template <typename T>
void check_view(const DistributedMatrix<T>& x, const std::string& who, int comm_size, int my_rank) {
  if (x.distribution == nullptr || x.storage == nullptr)
    throw InvalidArgument(who + " lacks a distribution or a local storage");
  if (x.distribution->num_ranks() != comm_size)
    throw InvalidArgument(who + " is distributed over " +
                          std::to_string(x.distribution->num_ranks()) +
                          " ranks but the communicator has " + std::to_string(comm_size));
  if (x.storage->rank() != my_rank)
    throw InvalidArgument(who + "'s storage is rank " + std::to_string(x.storage->rank()) +
                          "'s, called on rank " + std::to_string(my_rank));
  if (x.storage->rows() != x.distribution->rows() || x.storage->cols() != x.distribution->cols())
    throw InvalidArgument(who + "'s storage does not match its distribution's tiles");
}

}  // namespace hetscal::kernels
