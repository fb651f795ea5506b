#pragma once
/// @file gemm_route.hpp
/// One intercepted PxGEMM call from decision to result: the context's agreed state, the
/// decision by predicted time, and when hetscal takes the call, the planned GEMM through
/// the all-or-nothing take-over sequence. The shim checks the arguments before and calls
/// ScaLAPACK after, when told to.
#include "runtime/planned_gemm.hpp"
#include "runtime/take_over.hpp"

namespace hetscal::runtime {

/// Collective over the BLACS context of call.c.desc.
/// @pre the call passed PBLAS's checks; M, N, K >= 1.
/// @return Computed (sub(C) holds the result), Forward (sub(C) untouched: call ScaLAPACK) or
///         FailedAfterWrite (sub(C) lost: report through ScaLAPACK's error path).
template <typename T>
TakeOverOutcome::Status gemm_route(const GemmCall<T>& call);

}  // namespace hetscal::runtime
