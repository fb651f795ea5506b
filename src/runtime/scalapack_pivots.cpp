#include "runtime/scalapack_pivots.hpp"

#include <algorithm>
#include <string>

#include "core/common/error.hpp"
#include "layout/descriptor.hpp"

namespace hetscal::runtime {
namespace {

// The preconditions of PDGETRF's IPIV layout, checked before the first write.
void check_layout(const layout::Descriptor& a, int ia, int ja, std::int64_t m, std::int64_t n) {
  if (a.type != layout::DescriptorType::BlockCyclic2D || a.mb != a.nb || a.mb < 1) {
    throw InvalidArgument("hetscal: ScaLAPACK pivots need a 9-entry descriptor with MB_A = NB_A");
  }
  if (ia < 1 || ja < 1 || (ia - 1) % a.mb != 0 || (ja - 1) % a.nb != 0) {
    throw InvalidArgument("hetscal: ScaLAPACK pivots need IA and JA on block boundaries, not " +
                          std::to_string(ia) + ", " + std::to_string(ja));
  }
  if (m < 0 || n < 0 || ia - 1 + m > a.m || ja - 1 + n > a.n) {
    throw InvalidArgument("hetscal: ScaLAPACK pivots: sub(A) of " + std::to_string(m) + "x" +
                          std::to_string(n) + " at (" + std::to_string(ia) + ", " +
                          std::to_string(ja) + ") does not fit in A");
  }
}

}  // namespace

void check_lu_pivots(const std::int64_t* pivots, std::int64_t m, std::int64_t n) {
  for (std::int64_t i = 0; i < std::min(m, n); ++i) {
    if (pivots[i] < i || pivots[i] >= m) {
      throw InvalidArgument("hetscal: pivot " + std::to_string(i) + " is " +
                            std::to_string(pivots[i]) + ", outside [" + std::to_string(i) +
                            ", " + std::to_string(m) + ")");
    }
  }
}

void write_scalapack_pivots(const mpi::ContextInfo& grid, const layout::Descriptor& a, int ia, int ja,
                            std::int64_t m, std::int64_t n, const std::int64_t* pivots,
                            int* ipiv) {
  check_layout(a, ia, ja, m, n);
  check_lu_pivots(pivots, m, n);
  const std::int64_t steps = std::min(m, n);
  const layout::CyclicAxis rows = a.row_axis(grid.nprow);
  // One panel of NB_A columns per PDGETF2 call, in PDGETRF's order: a later panel overwrites
  // what an earlier one wrote into the same slots.
  for (std::int64_t first = 0; first < steps; first += a.nb) {
    const std::int64_t width = std::min(a.nb, steps - first);
    const std::int64_t slot = layout::local_count_before(rows, ia - 1 + first, grid.myrow);
    for (std::int64_t k = 0; k < width; ++k) {
      // sub(A)'s row p is A's row IA+p (1-based); it fits in an int since A's rows do.
      ipiv[slot + k] = static_cast<int>(ia + pivots[first + k]);
    }
  }
}

}  // namespace hetscal::runtime
