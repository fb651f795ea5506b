#include "runtime/getrf_route.hpp"

#include "kernels/scalar.hpp"
#include "runtime/in_place_factorization_route.hpp"
#include "runtime/in_place_getrf.hpp"

namespace hetscal::runtime {

template <typename T>
FactorizationOutcome getrf_route(const GetrfCall<T>& call) {
  // The whole of sub(A) in and back: the surplus's volume moves twice.
  return route_in_place_factorization<LuLayout, InPlaceGetrf<T>>(core::Routine::LU, call, call.m, call.n, 2.0);
}

#define HETSCAL_INSTANTIATE_GETRF_ROUTE(T) \
  template FactorizationOutcome getrf_route<T>(const GetrfCall<T>&);
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_GETRF_ROUTE)
#undef HETSCAL_INSTANTIATE_GETRF_ROUTE

}  // namespace hetscal::runtime
