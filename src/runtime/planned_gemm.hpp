#pragma once
/// @file planned_gemm.hpp
/// A GEMM of a caller's block-cyclic submatrices computed on a planned layout: the caller's
/// operands moved into the layout (transposes applied on the way), kernels::gemm there, C
/// moved back. Only the caller's sub(C) is written; beta = 0 never reads C. Used by the
/// shim's heterogeneous PDGEMM path and by the native API's hetero_pdgemm on ScaLAPACK
/// descriptors.
#include <cstdint>

#include "kernels/blas_enums.hpp"
#include "kernels/gemm_layout.hpp"
#include "mpi/blacs_context.hpp"

namespace hetscal::kernels {

/// A caller's matrix argument: local array, 1-based IA/JA, descriptor (9 or 11 entries).
template <typename T>
struct CallerOperand {
  T* data = nullptr;
  int ia = 1, ja = 1;
  const int* desc = nullptr;
};

/// sub(C) = alpha·op(sub(A))·op(sub(B)) + beta·sub(C), options parsed.
struct GemmCall {
  Op op_a = Op::NoTrans;
  Op op_b = Op::NoTrans;
  std::int64_t m = 0, n = 0, k = 0;
  double alpha = 1.0, beta = 0.0;
  CallerOperand<const double> a, b;
  CallerOperand<double> c;
};

/// Collective over context.comm. Memory and plans are set up first on every rank; if any
/// rank fails there, every rank throws hetscal::Error before any data moves (callers may
/// then forward the call to ScaLAPACK).
/// @param context the operands' BLACS context (every descriptor's CTXT names it).
/// @param plan the layout of an M×N×K GEMM on context.comm's ranks.
/// @pre the call passed PBLAS's argument checks, has no replicated operand, M, N, K >= 1.
void run_planned_gemm(const mpi::ContextInfo& context, const GemmLayout& plan,
                      const GemmCall& call);

}  // namespace hetscal::kernels
