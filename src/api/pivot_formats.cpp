// hetscal's and ScaLAPACK's pivot formats around kernels::lu's 0-based pivots.
#include "api/pivot_formats.hpp"

#include <algorithm>

#include "layout/block_cyclic.hpp"
#include "layout/descriptor.hpp"
#include "mpi/mpi_error.hpp"

namespace hetscal::api {

void write_hetscal_pivots(const std::vector<std::int64_t>& pivots, int* ipiv) {
  for (std::size_t i = 0; i < pivots.size(); ++i) ipiv[i] = static_cast<int>(pivots[i] + 1);
}

std::optional<std::vector<std::int64_t>> read_hetscal_pivots(const int* ipiv, std::int64_t count,
                                                             std::int64_t rows) {
  std::vector<std::int64_t> pivots;
  for (std::int64_t i = 0; i < count; ++i) {
    if (ipiv[i] < 1 || ipiv[i] > rows) return std::nullopt;
    pivots.push_back(ipiv[i] - 1);
  }
  return pivots;
}

std::optional<std::vector<std::int64_t>> read_scalapack_pivots(const mpi::ContextInfo& grid,
                                                               const int* desca, int ia,
                                                               std::int64_t n, const int* ipiv) {
  const layout::CyclicAxis rows = layout::Descriptor::parse(desca).row_axis(grid.nprow);
  // Each process contributes the entries of the rows it holds (every process column holds
  // the same); 0 elsewhere, below every valid entry.
  std::vector<int> entries(static_cast<std::size_t>(n), 0);
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t row = ia - 1 + i;
    const int owner = layout::owner_coordinate(rows, row);
    if (owner == layout::kReplicated || owner == grid.myrow)
      entries[static_cast<std::size_t>(i)] = ipiv[layout::global_to_local(rows, row)];
  }
  mpi::check_mpi(
      MPI_Allreduce(MPI_IN_PLACE, entries.data(), static_cast<int>(n), MPI_INT, MPI_MAX, grid.comm),
      "read_scalapack_pivots: MPI_Allreduce");
  std::vector<std::int64_t> pivots;
  for (const int entry : entries) {  // a global row of A, 1-based: sub(A)'s row entry - IA
    if (entry < ia || entry - ia >= n) return std::nullopt;
    pivots.push_back(entry - ia);
  }
  return pivots;
}

}  // namespace hetscal::api
