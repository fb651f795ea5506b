#include "mpi/pricing_split.hpp"

#include <climits>
#include <limits>

#include "mpi/mpi_error.hpp"

namespace hetscal::mpi {
namespace {

/// MPI_DOUBLE_INT's layout.
struct SecondsAndIndex {
  double seconds;
  int index;
};

core::CandidatePick minloc(MPI_Comm comm, const core::CandidatePick& mine) {
  // An index MPI's int cannot hold takes part as a failure (throwing here would leave the
  // other ranks waiting in the reduction).
  SecondsAndIndex local{mine.total_s, static_cast<int>(mine.index)};
  if (mine.index > static_cast<std::size_t>(INT_MAX)) local = {-std::numeric_limits<double>::infinity(), INT_MAX};
  SecondsAndIndex overall{};
  check_mpi(MPI_Allreduce(&local, &overall, 1, MPI_DOUBLE_INT, MPI_MINLOC, comm), "MPI_Allreduce (plan MINLOC)");
  return {overall.seconds, static_cast<std::size_t>(overall.index)};
}

}  // namespace

core::PricingSlice pricing_slice_over(MPI_Comm comm) {
  int rank = 0, size = 1;
  check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  core::PricingSlice slice;
  slice.index = static_cast<std::size_t>(rank);
  slice.count = static_cast<std::size_t>(size);
  if (size > 1) slice.agree = [comm](const core::CandidatePick& mine) { return minloc(comm, mine); };
  return slice;
}

}  // namespace hetscal::mpi
