#pragma once
/// @file pxgeqrf.hpp
/// PxGEQRF: sub(A) = Q·R, intercepted, for any scalar type. Arguments are checked exactly as
/// ScaLAPACK's PxGEQRF checks them (the grid, CHK1MAT on the M×N sub(A), then LWORK against
/// its LWMIN, then PCHK1MAT's agreement over the grid, LWORK = -1 being an extra value every
/// process must agree on); a call refused anywhere goes to ScaLAPACK untouched on every rank,
/// whose PXERBLA prints what it always prints. A workspace query (LWORK = -1 everywhere) is
/// answered with ScaLAPACK's LWMIN; M or N = 0 returns at once. Otherwise runtime::geqrf_route
/// decides — identically on every rank of the context — whether hetscal computes the call
/// (TAU written as PDGEQRF writes it, WORK(1) = LWMIN, the rest of WORK unused: hetscal's
/// workspace is its own) or ScaLAPACK does. pxgeqrf_entries.cpp instantiates it for S, D, C
/// and Z under every name mangling; LWMIN is the same formula in every precision, and on
/// complex data TAU and the reflectors are xLARFG's (H = I − tau·v·vᴴ, tau complex).
#include <cstdint>

#include "kernels/scalar.hpp"
#include "runtime/geqrf_route.hpp"
#include "shim/compute_or_forward.hpp"
#include "shim/real_routine.hpp"
#include "shim/scalapack_arguments.hpp"

namespace hetscal::shim {

/// PxGEQRF's signature for scalar type T (Fortran: every argument by reference).
template <typename T>
using Pxgeqrf = void (*)(const int*, const int*, T*, const int*, const int*, const int*, T*, T*,
                         const int*, int*);

namespace geqrf_detail {

// Positions of PxGEQRF's arguments (1-based), as its INFO codes name them.
enum Position { kM = 1, kN = 2, kIa = 4, kJa = 5, kDescA = 6, kLwork = 9 };

/// ScaLAPACK's LWMIN for this process: NB_A·(MP0 + NQ0 + NB_A), MP0 and NQ0 the local rows
/// and columns of sub(A) widened to its first row and column blocks. Local.
/// @pre CHK1MAT accepted the arguments (this process is in DESCA's grid).
std::int64_t minimum_workspace(int m, int n, int ia, int ja, const int* desca);

/// PxGEQRF's checks on this process, in its order: DESCA's context must hold this process
/// (else -602), then CHK1MAT on the M×N sub(A), and only when that passes LWORK >= LWMIN
/// unless LWORK = -1 (-9). Local: no communication. @return 0 or the negative INFO.
int local_argument_info(int m, int n, int ia, int ja, const int* desca, int lwork);

/// How the processes of the grid agree on LWORK = -1 (PCHK1MAT's extra value).
enum class WorkspaceQuery { Nowhere, Everywhere, Disagreed };

/// What the processes of the grid agree on.
struct AgreedArguments {
  /// The INFO every process ends with, as PCHK1MAT makes it for M, N, IA, JA and DESCA (the
  /// earliest error any process found, or the earliest value unlike grid position (0,0)'s).
  int info = 0;
  /// Whether every process passed LWORK = -1, none, or only some.
  WorkspaceQuery query = WorkspaceQuery::Nowhere;
};

/// The agreed INFO and workspace query, in one broadcast and one reduction. Collective over
/// DESCA's context. @pre this process is in the grid.
AgreedArguments agreed_arguments(int m, int n, int ia, int ja, const int* desca, int lwork, int local_info);

}  // namespace geqrf_detail

/// The intercepted PxGEQRF. @param scalapack_symbol e.g. "pdgeqrf_"; @param routine "PDGEQRF".
template <typename T>
void pxgeqrf(const char* scalapack_symbol, const char* routine, const int* m, const int* n,
             T* a, const int* ia, const int* ja, const int* desca, T* tau, T* work,
             const int* lwork, int* info) {
  using namespace geqrf_detail;
  using Status = runtime::TakeOverOutcome::Status;
  static const Pxgeqrf<T> scalapack = real_function<Pxgeqrf<T>>(scalapack_symbol);  // one per T
  const auto forward = [&] { scalapack(m, n, a, ia, ja, desca, tau, work, lwork, info); };
  compute_or_forward(routine, desca[1], [&] {
    // A process outside the grid: ScaLAPACK reports -602 there, without talking to anyone.
    if (!in_grid(desca)) return Status::Forward;
    const int local_info = local_argument_info(*m, *n, *ia, *ja, desca, *lwork);
    const AgreedArguments agreed = agreed_arguments(*m, *n, *ia, *ja, desca, *lwork, local_info);
    // Some processes querying and others not: PCHK1MAT's -9, ScaLAPACK's to report.
    if (agreed.query == WorkspaceQuery::Disagreed) return Status::Forward;
    // Refused on every rank alike: ScaLAPACK's own checks agree and PXERBLA prints.
    if (agreed.info != 0) return Status::Forward;
    const WorkspaceQuery query = agreed.query;
    *info = 0;
    // WORK(1) = LWMIN as ScaLAPACK stores it: a real of the precision (REAL(LWMIN) in PSGEQRF).
    using Real = kernels::real_of_t<T>;
    const T lwmin = T(static_cast<Real>(minimum_workspace(*m, *n, *ia, *ja, desca)));
    if (query == WorkspaceQuery::Everywhere || *m == 0 || *n == 0) {
      work[0] = lwmin;
      return Status::Computed;
    }
    runtime::GeqrfCall<T> call;
    call.m = *m;
    call.n = *n;
    call.a = runtime::caller_operand(a, *ia, *ja, desca);
    call.tau = tau;
    const runtime::FactorizationOutcome outcome = runtime::geqrf_route(call);
    if (outcome.status == Status::Computed) {
      *info = outcome.info;
      work[0] = lwmin;  // as PDGEQRF leaves it on return
    }
    return outcome.status;
  }, forward);
}

}  // namespace hetscal::shim
