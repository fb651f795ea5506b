#include "runtime/scalapack_tau.hpp"

#include <algorithm>
#include <string>

#include "core/common/error.hpp"
#include "kernels/scalar.hpp"
#include "layout/block_cyclic.hpp"
#include "layout/descriptor.hpp"
#include "mpi/mpi_error.hpp"
#include "mpi/mpi_type.hpp"

namespace hetscal::runtime {

// read_scalapack_tau for every scalar type (declared in the header, defined below; the
// instantiations of write_scalapack_tau close the file).
#define HETSCAL_INSTANTIATE_READ_SCALAPACK_TAU(T)                                              \
  template void read_scalapack_tau<T>(const mpi::ContextInfo&, const layout::Descriptor&, int, std::int64_t, \
                                      const T*, T*);
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_READ_SCALAPACK_TAU)
#undef HETSCAL_INSTANTIATE_READ_SCALAPACK_TAU

template <typename T>
void write_scalapack_tau(const mpi::ContextInfo& grid, const layout::Descriptor& a, int ja, std::int64_t m,
                         std::int64_t n, const T* tau, T* local_tau) {
  if (m < 0 || n < 0 || ja < 1 || ja - 1 + n > a.n) {
    throw InvalidArgument("hetscal: ScaLAPACK TAU: sub(A) columns " + std::to_string(ja) + ".." +
                          std::to_string(ja - 1 + n) + " do not fit in A's " +
                          std::to_string(a.n) + " columns");
  }
  const layout::CyclicAxis cols = a.col_axis(grid.npcol);
  layout::validate(cols);
  const std::int64_t reflectors = std::min(m, n);
  for (std::int64_t j = 0; j < reflectors; ++j) {
    const std::int64_t column = ja - 1 + j;  // 0-based global column of reflector j
    // Every process row of the owning process column stores it (PDLARFG runs there).
    if (layout::owner_coordinate(cols, column) != grid.mycol) continue;
    local_tau[layout::global_to_local(cols, column)] = tau[j];
  }
}

template <typename T>
void read_scalapack_tau(const mpi::ContextInfo& grid, const layout::Descriptor& a, int ja, std::int64_t k,
                        const T* local_tau, T* tau) {
  const layout::CyclicAxis cols = a.col_axis(grid.npcol);
  // One holder per column contributes, the others add zeros.
  for (std::int64_t j = 0; j < k; ++j) {
    const std::int64_t column = ja - 1 + j;
    const bool holder = grid.myrow == 0 && layout::owner_coordinate(cols, column) == grid.mycol;
    tau[j] = holder ? local_tau[layout::global_to_local(cols, column)] : T(0);
  }
  mpi::check_mpi(MPI_Allreduce(MPI_IN_PLACE, tau, mpi::mpi_count(k, "read_scalapack_tau"),
                               mpi::mpi_type<T>(), MPI_SUM, grid.comm),
                 "read_scalapack_tau: MPI_Allreduce");
}

#define HETSCAL_INSTANTIATE_SCALAPACK_TAU(T)                                                   \
  template void write_scalapack_tau<T>(const mpi::ContextInfo&, const layout::Descriptor&, int, std::int64_t, \
                                       std::int64_t, const T*, T*);
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_SCALAPACK_TAU)
#undef HETSCAL_INSTANTIATE_SCALAPACK_TAU

}  // namespace hetscal::runtime
