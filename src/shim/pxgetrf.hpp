#pragma once
/// @file pxgetrf.hpp
/// PxGETRF: sub(A) = P·L·U with partial pivoting, intercepted, for any scalar type. Arguments
/// are checked exactly as ScaLAPACK's PxGETRF checks them (the grid, CHK1MAT on the M×N
/// sub(A), IA and JA on block boundaries, MB_A = NB_A, then PCHK1MAT's agreement over the
/// grid); a call refused anywhere goes to ScaLAPACK untouched on every rank, whose PXERBLA
/// prints what it always prints. The quick returns are ScaLAPACK's (M_A = 1: IPIV(1) = 1;
/// M or N = 0). Otherwise runtime::getrf_route decides — identically on every rank of the
/// context — whether hetscal computes the call (IPIV written as PDGETRF writes it) or
/// ScaLAPACK does. pxgetrf_entries.cpp instantiates it for S, D, C and Z under every name
/// mangling.
#include "runtime/getrf_route.hpp"
#include "shim/compute_or_forward.hpp"
#include "shim/real_routine.hpp"
#include "shim/scalapack_arguments.hpp"

namespace hetscal::shim {

/// PxGETRF's signature for scalar type T (Fortran: every argument by reference).
template <typename T>
using Pxgetrf = void (*)(const int*, const int*, T*, const int*, const int*, const int*, int*, int*);

namespace getrf_detail {

// Positions of PxGETRF's arguments (1-based), as its INFO codes name them.
enum Position { kM = 1, kN = 2, kIa = 4, kJa = 5, kDescA = 6 };

/// PxGETRF's checks on this process, in its order: DESCA's context must hold this process
/// (else -602), then CHK1MAT on the M×N sub(A), and only when that passes IA on a row block
/// boundary (-4), JA on a column block boundary (-5), MB_A = NB_A (-606). Local: no
/// communication. @return 0 or the negative INFO.
int local_argument_info(int m, int n, int ia, int ja, const int* desca);

/// The INFO every process of the grid ends with, as PCHK1MAT makes it (no extra values):
/// the earliest error any process found, or the earliest argument (M, N, IA, JA, a field of
/// DESCA) that differs from grid position (0,0)'s. Collective over DESCA's context.
/// @param local_info local_argument_info's result; @pre not -602 (this process is in the grid).
int agreed_argument_info(int m, int n, int ia, int ja, const int* desca, int local_info);

/// Whether PxGETRF returns at once: M_A = 1 (IPIV(1) = 1 then, on every process) or an
/// empty sub(A). @pre the arguments were agreed valid.
bool quick_return(int m, int n, const int* desca, int* ipiv);

}  // namespace getrf_detail

/// The intercepted PxGETRF. @param scalapack_symbol e.g. "pdgetrf_"; @param routine "PDGETRF".
template <typename T>
void pxgetrf(const char* scalapack_symbol, const char* routine, const int* m, const int* n,
             T* a, const int* ia, const int* ja, const int* desca, int* ipiv, int* info) {
  using namespace getrf_detail;
  using Status = runtime::TakeOverOutcome::Status;
  static const Pxgetrf<T> scalapack = real_function<Pxgetrf<T>>(scalapack_symbol);  // one per T
  const auto forward = [&] { scalapack(m, n, a, ia, ja, desca, ipiv, info); };
  compute_or_forward(routine, desca[1], [&] {
    // A process outside the grid: ScaLAPACK reports -602 there, without talking to anyone.
    if (!in_grid(desca)) return Status::Forward;
    const int local_info = local_argument_info(*m, *n, *ia, *ja, desca);
    // Refused on every rank alike: ScaLAPACK's own checks agree and PXERBLA prints.
    if (agreed_argument_info(*m, *n, *ia, *ja, desca, local_info) != 0) return Status::Forward;
    *info = 0;
    if (quick_return(*m, *n, desca, ipiv)) return Status::Computed;
    runtime::GetrfCall<T> call;
    call.m = *m;
    call.n = *n;
    call.a = runtime::caller_operand(a, *ia, *ja, desca);
    call.ipiv = ipiv;
    const runtime::FactorizationOutcome outcome = runtime::getrf_route(call);
    if (outcome.status == Status::Computed) *info = outcome.info;
    return outcome.status;
  }, forward);
}

}  // namespace hetscal::shim
