#pragma once
/// @file planned_gemm.hpp
/// A GEMM of a caller's block-cyclic submatrices computed on a planned layout through the
/// take-over sequence (take_over.hpp): op(A), op(B) and (unless beta = 0) C moved in with
/// the transposes fused, kernels::gemm there, C moved back. Only the caller's sub(C) is
/// written, and only once every rank has succeeded; beta = 0 never reads C. Used by the
/// shim's PxGEMM and by the native API's hetero_pxgemm on ScaLAPACK descriptors.
#include <cstdint>

#include "kernels/blas_enums.hpp"
#include "mpi/blacs_context.hpp"
#include "runtime/caller_operand.hpp"
#include "runtime/gemm_plan.hpp"
#include "runtime/take_over.hpp"

namespace hetscal::runtime {

/// sub(C) = alpha·op(sub(A))·op(sub(B)) + beta·sub(C), options parsed.
template <typename T>
struct GemmCall {
  kernels::Op op_a = kernels::Op::NoTrans;
  kernels::Op op_b = kernels::Op::NoTrans;
  std::int64_t m = 0, n = 0, k = 0;
  T alpha = T(1), beta = T(0);
  CallerOperand<const T> a, b;
  CallerOperand<T> c;
};

/// Collective over context.comm.
/// @param context the operands' BLACS context (every descriptor's CTXT names it).
/// @param plan the layout of an M×N×K GEMM on context.comm's ranks.
/// @param workspace the context's buffers for the planned copies (take_over.hpp).
/// @pre the call passed PBLAS's argument checks, has no replicated operand, M, N, K >= 1.
/// @return Computed, or Forward with sub(C) untouched (any rank failed before writing).
template <typename T>
TakeOverOutcome run_planned(const mpi::ContextInfo& context, const GemmLayout& plan,
                                 const GemmCall<T>& call, Workspace& workspace);

}  // namespace hetscal::runtime
