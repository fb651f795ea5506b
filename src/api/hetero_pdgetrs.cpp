// Native API: hetero_pdgetrs, PDGETRS's arguments: op(sub(A))·X = sub(B) solved with the LU
// factors and pivots hetero_pdgetrf left (kernels/lu_solve: the row interchanges and two
// triangular solves of LAPACK's xGETRS). The pivots are read in hetscal's format beside a
// hetscal DESCA, in ScaLAPACK's beside a ScaLAPACK one (api/pivot_formats); the checks and
// the moves of the factors and of B are api/factor_solve's.
#include <optional>
#include <vector>

#include "api/factor_solve.hpp"
#include "api/pivot_formats.hpp"
#include "kernels/lu_solve.hpp"
#include "runtime/abi_options.hpp"

namespace hetscal::api {
namespace {

// Positions of the arguments (1-based), as PDGETRS's INFO names them.
enum Position { kTrans = 1, kN = 2, kNrhs = 3, kDescA = 7, kIpiv = 8, kDescB = 12 };

/// The pivots of the call, once read and found valid; -IPIV's position when one names a row
/// outside sub(A).
int read_pivots(const mpi::ContextInfo* grid, const int* desca, int ia, int n, const int* ipiv,
                std::vector<std::int64_t>& pivots) {
  const std::optional<std::vector<std::int64_t>> read =
      grid ? read_scalapack_pivots(*grid, desca, ia, n, ipiv) : read_hetscal_pivots(ipiv, n, n);
  if (!read) return -kIpiv;
  pivots = *read;
  return 0;
}

}  // namespace
}  // namespace hetscal::api

extern "C" int hetero_pdgetrs(const char* trans, int n, int nrhs, const double* a, int ia, int ja,
                              const int* desca, const int* ipiv, double* b, int ib, int jb,
                              const int* descb, int* info) {
  using namespace hetscal::api;
  return report(info, [&] {
    const std::optional<hetscal::kernels::Op> op = hetscal::runtime::parse_trans(trans);
    std::vector<std::int64_t> pivots;
    FactorSolve call(hetscal::core::Routine::LU, n, nrhs, a, ia, ja, desca, b, ib, jb, descb,
                     {kN, kNrhs, kDescA, kDescB});
    call.scalar_info = !op ? -kTrans : n < 0 ? -kN : nrhs < 0 ? -kNrhs : 0;
    call.check_more = [&](const hetscal::mpi::ContextInfo* grid) {
      return read_pivots(grid, desca, ia, n, ipiv, pivots);
    };
    call.solve = [&](auto factors, auto x, MPI_Comm comm) {
      hetscal::kernels::lu_solve<double>(*op, factors, pivots, x, comm);
    };
    return solve_with_factor(call);
  });
}
