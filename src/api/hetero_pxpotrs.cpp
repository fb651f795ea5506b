// Native API: hetero_p{s,d,c,z}potrs, PxPOTRS's arguments (one implementation over the
// element type): sub(A)·X = sub(B) solved with the
// Cholesky factor in sub(A) by two distributed triangular solves (kernels/triangular_solve):
// L·Y = B then Lᴴ·X = Y, or Uᴴ·Y = B then U·X = Y. The checks and the moves of the factor
// and of B are api/factor_solve's.
#include <optional>

#include "api/factor_solve.hpp"
#include "kernels/triangular_solve.hpp"
#include "runtime/abi_options.hpp"

namespace hetscal::api {
namespace {

// Positions of the arguments (1-based), as PDPOTRS's INFO names them.
enum Position { kUplo = 1, kN = 2, kNrhs = 3, kDescA = 7, kDescB = 11 };

/// X := A⁻¹·X with the factor `a` of `uplo` in place.
template <typename T>
void cholesky_solve(kernels::Uplo uplo, kernels::DistributedMatrix<const T> a,
                    kernels::DistributedMatrix<T> x, MPI_Comm comm) {
  using kernels::Diag;
  using kernels::Op;
  const Op first = uplo == kernels::Uplo::Lower ? Op::NoTrans : Op::ConjTrans;
  const Op second = uplo == kernels::Uplo::Lower ? Op::ConjTrans : Op::NoTrans;
  kernels::triangular_solve<T>(uplo, first, Diag::NonUnit, a, x, comm);
  kernels::triangular_solve<T>(uplo, second, Diag::NonUnit, a, x, comm);
}

template <typename T>
int hetero_pxpotrs(const char* uplo, int n, int nrhs, const T* a, int ia, int ja, const int* desca,
                   T* b, int ib, int jb, const int* descb, int* info) {
  return report(info, [&] {
    const std::optional<kernels::Uplo> parsed = runtime::parse_uplo(uplo);
    FactorSolve<T> call(core::Routine::Cholesky, n, nrhs, a, ia, ja, desca, b, ib, jb, descb,
                        {kN, kNrhs, kDescA, kDescB});
    call.scalar_info = !parsed ? -kUplo : n < 0 ? -kN : nrhs < 0 ? -kNrhs : 0;
    call.solve = [&](auto factor, auto x, MPI_Comm comm) {
      cholesky_solve<T>(*parsed, factor, x, comm);
    };
    return solve_with_factor(call);
  });
}

}  // namespace
}  // namespace hetscal::api

#define HETSCAL_POTRS_ENTRY(name, T)                                                              \
  extern "C" int name(const char* uplo, int n, int nrhs, const T* a, int ia, int ja,              \
                      const int* desca, T* b, int ib, int jb, const int* descb, int* info) {      \
    return hetscal::api::hetero_pxpotrs(uplo, n, nrhs, a, ia, ja, desca, b, ib, jb, descb, info); \
  }
HETSCAL_POTRS_ENTRY(hetero_pspotrs, float)
HETSCAL_POTRS_ENTRY(hetero_pdpotrs, double)
HETSCAL_POTRS_ENTRY(hetero_pcpotrs, hetscal_complex_float)
HETSCAL_POTRS_ENTRY(hetero_pzpotrs, hetscal_complex_double)
#undef HETSCAL_POTRS_ENTRY
