#pragma once
/// @file pxgemm.hpp
/// PxGEMM: sub(C) = alpha·op(sub(A))·op(sub(B)) + beta·sub(C), intercepted, for any scalar
/// type. Arguments are checked exactly as PBLAS's pxgemm_ checks them (same order, same INFO,
/// same PB_Cabort), the quick returns are PBLAS's, then runtime::gemm_route decides —
/// identically on every rank of the context — whether hetscal computes the call or
/// ScaLAPACK does. pxgemm_entries.cpp instantiates it for S, D, C and Z under every name
/// mangling. TRANSA and TRANSB take 'N', 'T' or 'C' in every precision, as PBLAS's do ('C'
/// is a plain transpose on real data, the conjugate transpose on complex data).
#include "layout/descriptor.hpp"
#include "runtime/abi_options.hpp"
#include "runtime/gemm_route.hpp"
#include "shim/compute_or_forward.hpp"
#include "shim/pblas_symbols.hpp"
#include "shim/real_routine.hpp"

namespace hetscal::shim {

/// PxGEMM's signature for scalar type T (Fortran: every argument by reference).
template <typename T>
using Pxgemm = void (*)(const char*, const char*, const int*, const int*, const int*, const T*,
                        const T*, const int*, const int*, const int*, const T*, const int*,
                        const int*, const int*, const T*, T*, const int*, const int*, const int*);

namespace gemm_detail {

// Positions of PxGEMM's arguments (1-based), as PBLAS's INFO codes name them.
enum Position { kTransA = 1, kTransB = 2, kM = 3, kN = 4, kK = 5, kDescA = 10, kDescB = 14, kDescC = 19 };

/// PBLAS's checks: grid of DESCA's context, TRANSA, TRANSB, then PB_Cchkmat on A, B, C (an
/// earlier error is kept). @return 0 or the INFO PB_Cabort receives. A call that fails them
/// goes to PBLAS untouched, whose own checks then print their specific line (e.g.
/// "DESCA[LLD_] = 1, it must be at least 32") before PB_Cabort.
int check_arguments(const char* transa, const char* transb, int m, int n, int k, int ia, int ja,
                    const int* desca, int ib, int jb, const int* descb, int ic, int jc,
                    const int* descc);

/// The call hetscal may compute, options parsed. @pre check_arguments returned 0.
template <typename T>
runtime::GemmCall<T> gemm_call(const char* transa, const char* transb, int m, int n, int k,
                               T alpha, const T* a, int ia, int ja, const int* desca, const T* b,
                               int ib, int jb, const int* descb, T beta, T* c, int ic, int jc,
                               const int* descc) {
  runtime::GemmCall<T> call;
  call.op_a = *runtime::parse_trans(transa);
  call.op_b = *runtime::parse_trans(transb);
  call.m = m;
  call.n = n;
  call.k = k;
  call.alpha = alpha;
  call.beta = beta;
  call.a = runtime::caller_operand(a, ia, ja, desca);
  call.b = runtime::caller_operand(b, ib, jb, descb);
  call.c = runtime::caller_operand(c, ic, jc, descc);
  return call;
}

}  // namespace gemm_detail

/// The intercepted PxGEMM. @param scalapack_symbol e.g. "pdgemm_"; @param routine "PDGEMM".
template <typename T>
void pxgemm(const char* scalapack_symbol, const char* routine, const char* transa,
            const char* transb, const int* m, const int* n, const int* k, const T* alpha,
            const T* a, const int* ia, const int* ja, const int* desca, const T* b,
            const int* ib, const int* jb, const int* descb, const T* beta, T* c, const int* ic,
            const int* jc, const int* descc) {
  using namespace gemm_detail;
  static const Pxgemm<T> scalapack = real_function<Pxgemm<T>>(scalapack_symbol);  // one symbol per T
  const int context = desca[1];  // CTXT, the same entry in both descriptor types
  const auto forward = [&] {
    scalapack(transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb, beta, c, ic,
              jc, descc);
  };
  const int info = check_arguments(transa, transb, *m, *n, *k, *ia, *ja, desca, *ib, *jb, descb,
                                   *ic, *jc, descc);
  // PBLAS's own checks agree: it prints its specific line, then PB_Cabort.
  if (info != 0) return forward();
  if (*m == 0 || *n == 0 || ((*alpha == T(0) || *k == 0) && *beta == T(1))) return;
  compute_or_forward(routine, context, [&] {
    if (*k == 0) return runtime::TakeOverOutcome::Status::Forward;  // only scales C: ScaLAPACK's
    return runtime::gemm_route(gemm_call(transa, transb, *m, *n, *k, *alpha, a, *ia, *ja, desca,
                                         b, *ib, *jb, descb, *beta, c, *ic, *jc, descc));
  }, forward);
}

}  // namespace hetscal::shim
