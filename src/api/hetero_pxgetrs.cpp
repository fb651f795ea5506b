// Native API: hetero_p{s,d,c,z}getrs, PxGETRS's arguments (one implementation over the
// element type): op(sub(A))·X = sub(B) solved with the LU
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

template <typename T>
int hetero_pxgetrs(const char* trans, int n, int nrhs, const T* a, int ia, int ja, const int* desca,
                   const int* ipiv, T* b, int ib, int jb, const int* descb, int* info) {
  return report(info, [&] {
    const std::optional<kernels::Op> op = runtime::parse_trans(trans);
    std::vector<std::int64_t> pivots;
    FactorSolve<T> call(core::Routine::LU, n, nrhs, a, ia, ja, desca, b, ib, jb, descb,
                        {kN, kNrhs, kDescA, kDescB});
    call.scalar_info = !op ? -kTrans : n < 0 ? -kN : nrhs < 0 ? -kNrhs : 0;
    call.check_more = [&](const mpi::ContextInfo* grid) {
      return read_pivots(grid, desca, ia, n, ipiv, pivots);
    };
    call.solve = [&](auto factors, auto x, MPI_Comm comm) {
      kernels::lu_solve<T>(*op, factors, pivots, x, comm);
    };
    return solve_with_factor(call);
  });
}

}  // namespace
}  // namespace hetscal::api

#define HETSCAL_GETRS_ENTRY(name, T)                                                              \
  extern "C" int name(const char* trans, int n, int nrhs, const T* a, int ia, int ja,             \
                      const int* desca, const int* ipiv, T* b, int ib, int jb, const int* descb,  \
                      int* info) {                                                                \
    return hetscal::api::hetero_pxgetrs(trans, n, nrhs, a, ia, ja, desca, ipiv, b, ib, jb, descb, \
                                        info);                                                    \
  }
HETSCAL_GETRS_ENTRY(hetero_psgetrs, float)
HETSCAL_GETRS_ENTRY(hetero_pdgetrs, double)
HETSCAL_GETRS_ENTRY(hetero_pcgetrs, hetscal_complex_float)
HETSCAL_GETRS_ENTRY(hetero_pzgetrs, hetscal_complex_double)
#undef HETSCAL_GETRS_ENTRY
