#pragma once
/// @file agree_on_speeds.hpp
/// Speeds every rank of a communicator agrees on. Each rank reads or measures its speeds on
/// its own; if two ranks planned with different speeds they would build different plans and
/// deadlock, so the speeds used are settled by one collective and any disagreement is
/// reported by the same error on every rank.
#include <mpi.h>

#include <vector>

#include "core/common/speeds.hpp"

namespace hetscal::mpi {

/// Gathers every rank's own measured speed: result[r] is rank r's `my_speed`.
/// Collective over `comm`.
/// @param comm the communicator whose ranks the speeds describe.
/// @param my_speed this rank's measured relative speed.
/// @return the same Speeds on every rank, one per rank of `comm`.
/// @throws InvalidArgument on every rank if any rank's value is not finite and > 0.
core::Speeds agree_on_speeds(MPI_Comm comm, double my_speed);

/// Settles a per-rank speed list that each rank read from its configuration: rank 0's list
/// is broadcast and every rank checks that it read the same list. Collective over `comm`.
/// @param comm the communicator whose ranks the speeds describe.
/// @param configured this rank's list (one speed per rank of `comm`).
/// @return rank 0's list as Speeds, identical on every rank.
/// @throws InvalidArgument on every rank, with the same message, if some rank's list differs
///         from rank 0's (naming the lowest such rank), if the list does not have one entry
///         per rank, or if a value is not finite and > 0.
core::Speeds agree_on_speeds(MPI_Comm comm, const std::vector<double>& configured);

}  // namespace hetscal::mpi
