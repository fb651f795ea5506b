#pragma once
/// @file pxpotrf.hpp
/// PxPOTRF: sub(A) = L·Lᴴ or Uᴴ·U, intercepted, for any scalar type. Arguments are checked
/// exactly as ScaLAPACK's PxPOTRF checks them (the grid, CHK1MAT, UPLO, IA and JA on block
/// boundaries, MB_A = NB_A, then PCHK1MAT's agreement over the grid); a call refused
/// anywhere goes to ScaLAPACK untouched on every rank, whose PXERBLA prints what it always
/// prints. Otherwise runtime::potrf_route decides — identically on every rank of the
/// context — whether hetscal computes the call or ScaLAPACK does. pxpotrf_entries.cpp
/// instantiates it for S, D, C and Z under every name mangling. On complex data sub(A) is
/// Hermitian: as PZPOTRF, the imaginary parts of its diagonal are not read, and are zero in
/// the factor (HERK and xPOTRF on the tiles, kernels/cholesky_tile_ops.hpp).
#include "runtime/abi_options.hpp"
#include "runtime/potrf_route.hpp"
#include "shim/compute_or_forward.hpp"
#include "shim/real_routine.hpp"
#include "shim/scalapack_arguments.hpp"

namespace hetscal::shim {

/// PxPOTRF's signature for scalar type T (Fortran: every argument by reference).
template <typename T>
using Pxpotrf = void (*)(const char*, const int*, T*, const int*, const int*, const int*, int*);

namespace potrf_detail {

// Positions of PxPOTRF's arguments (1-based), as its INFO codes name them.
enum Position { kUplo = 1, kN = 2, kIa = 4, kJa = 5, kDescA = 6 };

/// PxPOTRF's checks on this process, in its order: DESCA's context must hold this process
/// (else -602), then CHK1MAT on the N×N sub(A), and only when that passes UPLO (-1), IA on
/// a row block boundary (-4), JA on a column block boundary (-5), MB_A = NB_A (-606).
/// Local: no communication. @return 0 or the negative INFO.
int local_argument_info(const char* uplo, int n, int ia, int ja, const int* desca);

/// The INFO every process of the grid ends with, as PCHK1MAT makes it: the earliest error
/// any process found, or the earliest argument (UPLO, N, IA, JA, a field of DESCA) that
/// differs from grid position (0,0)'s. Collective over DESCA's context.
/// @param local_info local_argument_info's result; @pre not -602 (this process is in the grid).
int agreed_argument_info(const char* uplo, int n, int ia, int ja, const int* desca,
                         int local_info);

/// The call hetscal may compute, UPLO parsed. @pre the arguments were agreed valid.
template <typename T>
runtime::PotrfCall<T> potrf_call(const char* uplo, int n, T* a, int ia, int ja, const int* desca) {
  runtime::PotrfCall<T> call;
  call.uplo = *runtime::parse_uplo(uplo);
  call.n = n;
  call.a = runtime::caller_operand(a, ia, ja, desca);
  return call;
}

}  // namespace potrf_detail

/// The intercepted PxPOTRF. @param scalapack_symbol e.g. "pdpotrf_"; @param routine "PDPOTRF".
template <typename T>
void pxpotrf(const char* scalapack_symbol, const char* routine, const char* uplo, const int* n,
             T* a, const int* ia, const int* ja, const int* desca, int* info) {
  using namespace potrf_detail;
  static const Pxpotrf<T> scalapack = real_function<Pxpotrf<T>>(scalapack_symbol);  // one per T
  const auto forward = [&] { scalapack(uplo, n, a, ia, ja, desca, info); };
  compute_or_forward(routine, desca[1], [&] {
    using Status = runtime::TakeOverOutcome::Status;
    // A process outside the grid: ScaLAPACK reports -602 there, without talking to anyone.
    if (!in_grid(desca)) return Status::Forward;
    const int local_info = local_argument_info(uplo, *n, *ia, *ja, desca);
    // Refused on every rank alike: ScaLAPACK's own checks agree and PXERBLA prints.
    if (agreed_argument_info(uplo, *n, *ia, *ja, desca, local_info) != 0) return Status::Forward;
    if (*n == 0) {  // ScaLAPACK's quick return
      *info = 0;
      return Status::Computed;
    }
    const runtime::PotrfOutcome outcome = runtime::potrf_route(potrf_call(uplo, *n, a, *ia, *ja, desca));
    if (outcome.status == Status::Computed) *info = outcome.info;
    return outcome.status;
  }, forward);
}

}  // namespace hetscal::shim
