#include "runtime/getrf_route.hpp"

#include "kernels/scalar.hpp"

namespace hetscal::runtime {

template <typename T>
FactorizationOutcome getrf_route(const GetrfCall<T>& call) {
  return route_factorization<LuLayout>(core::Routine::LU, call, call.m, call.n);
}

#define HETSCAL_INSTANTIATE_GETRF_ROUTE(T) \
  template FactorizationOutcome getrf_route<T>(const GetrfCall<T>&);
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_GETRF_ROUTE)
#undef HETSCAL_INSTANTIATE_GETRF_ROUTE

}  // namespace hetscal::runtime
