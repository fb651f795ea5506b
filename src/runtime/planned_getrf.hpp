#pragma once
/// @file planned_getrf.hpp
/// An LU factorization with partial pivoting of a caller's block-cyclic sub(A) computed on a
/// planned layout through the take-over sequence (take_over.hpp): sub(A) moved in,
/// kernels::lu there (with the plan's panel options), sub(A) moved back, and only then IPIV
/// written in ScaLAPACK's format (scalapack_pivots.hpp). Everything outside sub(A), the LLD
/// padding and the IPIV entries PDGETRF leaves alone are never written. Used by the shim's
/// PxGETRF.
#include <cstdint>

#include "mpi/blacs_context.hpp"
#include "runtime/caller_operand.hpp"
#include "runtime/getrf_plan.hpp"
#include "runtime/take_over.hpp"

namespace hetscal::runtime {

/// sub(A) = P·L·U of an M×N sub(A), pivots into the caller's IPIV.
template <typename T>
struct GetrfCall {
  std::int64_t m = 0, n = 0;
  CallerOperand<T> a;
  int* ipiv = nullptr;  ///< the caller's local IPIV (LOCr(M_A)+MB_A entries)
};

/// Collective over context.comm.
/// @param context the BLACS context of call.a.desc.
/// @param plan the layout of an M×N LU on context.comm's ranks (not the caller's own).
/// @param workspace the context's buffers for the planned copy.
/// @pre the call passed PxGETRF's argument checks on every rank, M, N >= 1.
/// @return Computed (sub(A) holds L and U, IPIV the pivots as PDGETRF writes them,
///         outcome.info: 0 or the first exactly zero U(i,i), the factorization completed),
///         Forward with sub(A) and IPIV untouched (a rank failed before writing), or
///         FailedAfterWrite (moving sub(A) back failed; IPIV untouched).
template <typename T>
TakeOverOutcome run_planned(const mpi::ContextInfo& context, const LuLayout& plan,
                                  const GetrfCall<T>& call, Workspace& workspace);

}  // namespace hetscal::runtime
