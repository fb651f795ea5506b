#pragma once
/// @file planned_potrf.hpp
/// A Cholesky factorization of a caller's block-cyclic sub(A) computed on a planned layout
/// through the take-over sequence (take_over.hpp): the UPLO triangle of sub(A) moved in,
/// kernels::cholesky there, the same triangle moved back. The other triangle of sub(A),
/// everything outside sub(A) and the LLD padding are never written. Used by the shim's
/// PxPOTRF (and the native API on ScaLAPACK descriptors).
#include <cstdint>

#include "kernels/blas_enums.hpp"
#include "mpi/blacs_context.hpp"
#include "runtime/caller_operand.hpp"
#include "runtime/potrf_plan.hpp"
#include "runtime/take_over.hpp"

namespace hetscal::runtime {

/// sub(A) = L·Lᴴ or Uᴴ·U, options parsed.
template <typename T>
struct PotrfCall {
  kernels::Uplo uplo = kernels::Uplo::Lower;
  std::int64_t n = 0;
  CallerOperand<T> a;
};

/// Collective over context.comm.
/// @param context the BLACS context of a.desc.
/// @param plan the layout of an N×N Cholesky on context.comm's ranks.
/// @param workspace the context's buffers for the planned copy.
/// @pre the call passed PxPOTRF's argument checks on every rank, N >= 1.
/// @return Computed (outcome.info: 0, or the order of the first leading minor that is not
///         positive definite, with the partial factor written back as ScaLAPACK leaves it),
///         or Forward with sub(A) untouched (a rank failed before writing).
template <typename T>
TakeOverOutcome run_planned(const mpi::ContextInfo& context, const CholeskyLayout& plan,
                                  const PotrfCall<T>& call, Workspace& workspace);

}  // namespace hetscal::runtime
