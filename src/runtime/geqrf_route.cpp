#include "runtime/geqrf_route.hpp"

#include "kernels/scalar.hpp"
#include "runtime/in_place_factorization_route.hpp"
#include "runtime/in_place_geqrf.hpp"

namespace hetscal::runtime {

template <typename T>
FactorizationOutcome geqrf_route(const GeqrfCall<T>& call) {
  // The whole of sub(A) in and back: the surplus's volume moves twice.
  return route_in_place_factorization<LuLayout, InPlaceGeqrf<T>>(core::Routine::QR, call, call.m, call.n, 2.0);
}

#define HETSCAL_INSTANTIATE_GEQRF_ROUTE(T) \
  template FactorizationOutcome geqrf_route<T>(const GeqrfCall<T>&);
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_GEQRF_ROUTE)
#undef HETSCAL_INSTANTIATE_GEQRF_ROUTE

}  // namespace hetscal::runtime
