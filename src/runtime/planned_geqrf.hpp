#pragma once
/// @file planned_geqrf.hpp
/// A QR factorization of a caller's block-cyclic sub(A) computed on a planned layout through
/// the take-over sequence (take_over.hpp): sub(A) moved in, kernels::qr there (with the plan's
/// panel options), sub(A) moved back, and only then TAU written in ScaLAPACK's format
/// (scalapack_tau.hpp). Everything outside sub(A), the LLD padding and the TAU entries PDGEQRF
/// leaves alone are never written. Used by the shim's PxGEQRF.
#include <cstdint>

#include "mpi/blacs_context.hpp"
#include "runtime/caller_operand.hpp"
#include "runtime/getrf_plan.hpp"
#include "runtime/take_over.hpp"

namespace hetscal::runtime {

/// sub(A) = Q·R of an M×N sub(A), the reflectors' scalar factors into the caller's TAU.
template <typename T>
struct GeqrfCall {
  std::int64_t m = 0, n = 0;
  CallerOperand<T> a;
  T* tau = nullptr;  ///< the caller's local TAU (LOCc(JA+MIN(M,N)-1) entries)
};

/// Collective over context.comm.
/// @param context the BLACS context of call.a.desc.
/// @param plan the layout of an M×N QR on context.comm's ranks (not the caller's own).
/// @param workspace the context's buffers for the planned copy.
/// @pre the call passed PxGEQRF's argument checks on every rank, M, N >= 1.
/// @return Computed (sub(A) holds R and the reflectors, TAU their factors as PDGEQRF writes
///         them, outcome.info 0), Forward with sub(A) and TAU untouched (a rank failed before
///         writing), or FailedAfterWrite (moving sub(A) back failed; TAU untouched).
template <typename T>
TakeOverOutcome run_planned(const mpi::ContextInfo& context, const LuLayout& plan,
                                  const GeqrfCall<T>& call, Workspace& workspace);

}  // namespace hetscal::runtime
