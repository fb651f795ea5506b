#include "mpi/agree_on_speeds.hpp"

#include <cstring>
#include <string>

#include "core/common/error.hpp"
#include "mpi/mpi_error.hpp"

namespace hetscal::mpi {

core::Speeds agree_on_speeds(MPI_Comm comm, double my_speed) {
  int size = 0;
  check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  std::vector<double> speeds(static_cast<std::size_t>(size));
  check_mpi(MPI_Allgather(&my_speed, 1, MPI_DOUBLE, speeds.data(), 1, MPI_DOUBLE, comm),
            "MPI_Allgather");
  // Every rank validates the same gathered values, so a bad one throws everywhere.
  return core::Speeds::from_speeds(std::move(speeds));
}

core::Speeds agree_on_speeds(MPI_Comm comm, const std::vector<double>& configured) {
  int size = 0, rank = 0;
  check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");

  unsigned long long count = configured.size();
  check_mpi(MPI_Bcast(&count, 1, MPI_UNSIGNED_LONG_LONG, 0, comm), "MPI_Bcast");
  std::vector<double> agreed(rank == 0 ? configured : std::vector<double>(count));
  check_mpi(MPI_Bcast(agreed.data(), static_cast<int>(count), MPI_DOUBLE, 0, comm), "MPI_Bcast");

  // Bitwise comparison: a NaN read identically on two ranks is the same configuration.
  const bool same = configured.size() == agreed.size() &&
                    (agreed.empty() || std::memcmp(configured.data(), agreed.data(),
                                                   agreed.size() * sizeof(double)) == 0);
  const int my_mismatch = same ? size : rank;
  int first_mismatch = size;
  check_mpi(MPI_Allreduce(&my_mismatch, &first_mismatch, 1, MPI_INT, MPI_MIN, comm),
            "MPI_Allreduce");
  if (first_mismatch < size) {
    throw InvalidArgument("hetscal: configured speeds differ between ranks: rank " +
                          std::to_string(first_mismatch) + "'s list is not rank 0's");
  }
  if (agreed.size() != static_cast<std::size_t>(size)) {
    throw InvalidArgument("hetscal: configured speeds list has " + std::to_string(agreed.size()) +
                          " entries for " + std::to_string(size) + " ranks");
  }
  return core::Speeds::from_speeds(std::move(agreed));
}

}  // namespace hetscal::mpi
