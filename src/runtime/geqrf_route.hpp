#pragma once
/// @file geqrf_route.hpp
/// One intercepted PxGEQRF call from decision to result, as PxGETRF's (factorization_route.hpp):
/// the context's agreed state, the decision by predicted time (Routine::QR on the layout
/// choose_qr_layout plans, moves included, against ScaLAPACK on the caller's grid), and when
/// hetscal takes the call, the planned QR through the all-or-nothing take-over sequence, TAU
/// written as PDGEQRF writes it: on a copy of sub(A) in hetscal's layout, or in the caller's
/// array with only the surplus moved (in_place_geqrf.hpp, under HETSCAL_TAKE_OVER=in-place,
/// or auto where it is priced cheaper or the copy does not fit). The shim checks the arguments (and LWORK) before and calls
/// ScaLAPACK after, when told to.
#include "runtime/factorization_route.hpp"
#include "runtime/planned_geqrf.hpp"

namespace hetscal::runtime {

/// Collective over the BLACS context of call.a.desc.
/// @pre the call passed PxGEQRF's checks on every rank (the same arguments everywhere);
///      M, N >= 1 (PDGEQRF's quick return is the shim's).
/// @return Computed (sub(A) holds R and the reflectors, TAU their factors, info 0), Forward
///         (sub(A) and TAU untouched: call ScaLAPACK) or FailedAfterWrite (sub(A) lost:
///         report through ScaLAPACK's error path).
template <typename T>
FactorizationOutcome geqrf_route(const GeqrfCall<T>& call);

}  // namespace hetscal::runtime
