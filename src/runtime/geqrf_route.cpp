#include "runtime/geqrf_route.hpp"

#include "kernels/scalar.hpp"

namespace hetscal::runtime {

template <typename T>
FactorizationOutcome geqrf_route(const GeqrfCall<T>& call) {
  return route_factorization<LuLayout>(core::Routine::QR, call, call.m, call.n);
}

#define HETSCAL_INSTANTIATE_GEQRF_ROUTE(T) \
  template FactorizationOutcome geqrf_route<T>(const GeqrfCall<T>&);
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_GEQRF_ROUTE)
#undef HETSCAL_INSTANTIATE_GEQRF_ROUTE

}  // namespace hetscal::runtime
