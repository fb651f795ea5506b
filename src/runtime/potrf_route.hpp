#pragma once
/// @file potrf_route.hpp
/// One intercepted PxPOTRF call from decision to result: the context's agreed state, the
/// decision by predicted time (core::predict of Routine::Cholesky on the planned layout,
/// moves included, against ScaLAPACK on the caller's grid), and when hetscal takes the call,
/// the planned Cholesky through the all-or-nothing take-over sequence: on a copy of sub(A) in
/// hetscal's layout, or in the caller's array with only the surplus moved (in_place_potrf.hpp:
/// under HETSCAL_TAKE_OVER=in-place, or under auto the cheaper route that fits,
/// in_place_pricing.hpp). The shim checks the arguments before and calls ScaLAPACK after,
/// when told to.
#include "runtime/factorization_route.hpp"
#include "runtime/planned_potrf.hpp"
#include "runtime/take_over.hpp"

namespace hetscal::runtime {

/// How an intercepted PxPOTRF call ended.
using PotrfOutcome = FactorizationOutcome;

/// Collective over the BLACS context of call.a.desc.
/// @pre the call passed PxPOTRF's checks on every rank (the same arguments everywhere); N >= 1.
/// @return Computed (the UPLO triangle of sub(A) holds the factor), Forward (sub(A)
///         untouched: call ScaLAPACK) or FailedAfterWrite (sub(A) lost: report through
///         ScaLAPACK's error path).
template <typename T>
PotrfOutcome potrf_route(const PotrfCall<T>& call);

}  // namespace hetscal::runtime
