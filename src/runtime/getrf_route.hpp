#pragma once
/// @file getrf_route.hpp
/// One intercepted PxGETRF call from decision to result, as PxPOTRF's (factorization_route.hpp):
/// the context's agreed state, the decision by predicted time (core::predict of Routine::LU
/// on the planned layout, moves included, against ScaLAPACK on the caller's grid), and when
/// hetscal takes the call, the planned LU through the all-or-nothing take-over sequence,
/// IPIV written as PDGETRF writes it: on a copy of sub(A) in hetscal's layout, or in the
/// caller's array with only the surplus moved (in_place_getrf.hpp, under
/// HETSCAL_TAKE_OVER=in-place, or auto when the copy does not fit). The shim checks the
/// arguments before and calls ScaLAPACK after, when told to.
#include "runtime/factorization_route.hpp"
#include "runtime/planned_getrf.hpp"

namespace hetscal::runtime {

/// Collective over the BLACS context of call.a.desc.
/// @pre the call passed PxGETRF's checks on every rank (the same arguments everywhere);
///      M, N >= 1 and M_A > 1 (PDGETRF's quick returns are the shim's).
/// @return Computed (sub(A) holds L and U, IPIV the pivots, info ScaLAPACK's INFO), Forward
///         (sub(A) and IPIV untouched: call ScaLAPACK) or FailedAfterWrite (sub(A) lost:
///         report through ScaLAPACK's error path).
template <typename T>
FactorizationOutcome getrf_route(const GetrfCall<T>& call);

}  // namespace hetscal::runtime
